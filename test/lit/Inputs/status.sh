# status.sh COMMAND...: run COMMAND, print "exit status N", exit 0.
"$@"
echo "exit status $?"
