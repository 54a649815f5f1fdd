"""many-objects.py DIR N - a program of N+1 source files for
exit-cost.test: main.c calls part0 .. part(N-1), one per file, each with a
loop and a branch; part0.c also has a destructor that runs after the
exit-time write and calls through a function pointer (a value-profile
site) three times."""
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(os.path.join(out, "part%d.c" % i), "w") as f:
        f.write("int part%d(int x) {\n"
                "  int s = 0;\n"
                "  for (int k = 0; k < x; k++)\n"
                "    s += k %% 3 ? k : -k;\n"
                "  return s;\n"
                "}\n" % i)
with open(os.path.join(out, "part0.c"), "a") as f:
    f.write("__attribute__((noinline)) int late_target(int x) { return x > 1 ? x + 1 : x - 1; }\n"
            "int (*volatile late_call)(int) = late_target;\n"
            "__attribute__((destructor)) static void late(void) {\n"
            "  for (int k = 0; k < 3; k++)\n"
            "    late_call(k);\n"
            "}\n")
with open(os.path.join(out, "main.c"), "w") as f:
    for i in range(n):
        f.write("int part%d(int);\n" % i)
    f.write("int main(int argc, char **argv) {\n  int s = 0;\n")
    for i in range(n):
        f.write("  s += part%d(argc + %d);\n" % (i, i % 5))
    f.write("  return s == 12345 && argv[0][0] == 0;\n}\n")
