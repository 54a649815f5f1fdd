# no_stray_files.sh DRIVER DIR: a make build of main.c and work.c for
# profile feedback (-xprofile=collect, no name), a training run, and
# what a user then finds: the files the build left besides its objects,
# program and profile; xprof_tcov's summary with the objects there, with
# them gone (make clean: the tables are in the program), and with the
# program gone too (the message says what is missing).
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w" && cd "$w"
cp "$inputs/main.c" "$inputs/work.c" .
printf 'prog: main.o work.o\n\t$(CC) $(CFLAGS) main.o work.o -o prog\nclean:\n\trm -f *.o prog\n' > Makefile
make -s CC="$drv" CFLAGS="-O2 -g -xprofile=collect"
./prog > /dev/null
echo "files: $(ls | grep -v -x -e Makefile -e main.c -e work.c | tr '\n' ' ')"
summary() { xprof_tcov --summary -x prog.profile 2>&1 | grep -e 'lines\.' -e 'functions\.' -e xprof_tcov; }
summary
rm ./*.o
echo "objects removed:"
summary
make -s clean
echo "after clean: $(ls | tr '\n' ' ')"
summary | head -1
# Without -g (clang: the line tables the driver adds).
make -s CC="$drv" CFLAGS="-O2 -xprofile=collect"
rm -rf prog.profile && ./prog > /dev/null
summary | grep -v 'functions\.'
