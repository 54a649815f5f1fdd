#!/usr/bin/env python3
"""One program of the conformance corpus through every build, with both
compilers: plain -O2, xprof collect (trained, and once more under
valgrind), xprof use, and the compiler's own PGO.

    corpus.py --build BUILD --summary DIR PROGRAM.c

The program's comments say how to build and run it, one directive a line:

    // corpus: flags=...        compile flags of every build (default -O2)
    // corpus: gcc-flags=...    more, for GCC only (clang-flags= for clang)
    // corpus: xprof-flags=...  more, for the xprof builds only
    // corpus: use-flags=...    more, for the use build only
    // corpus: link=...         link flags
    // corpus: sources=F ...    more sources (beside the program, or Inputs/F)
    // corpus: lib=F ...        sources of the shared library (shape shared,
                                dlopen): built as libcorpus.so with -fpic
    // corpus: shape=S          how the builds are driven (SHAPES below)
    // corpus: train=ARGS       a training run (repeatable; default one, no
                                arguments); runs accumulate in one profile
    // corpus: run=ARGS         the run compared with plain (default: the
                                first training run's arguments)
    // corpus: status=N         the exit status every build must give
    // corpus: compilers=gcc    only these (gcc, clang)
    // corpus: native=skip      the compiler's own PGO is not tried
    // corpus: stale            the use build defines STALE (the source
                                changed since training): xprof must warn,
                                and the program must still be right
    // corpus: no-profile       the program writes no profile (it ends
                                without running exit handlers)
    // corpus: also=ARGS        one more command of each xprof mode that
                                must succeed ({src}: the program)
    // corpus: env=VAR=VALUE    environment of every run
    // corpus: valgrind=skip    (static links: memcheck sees no malloc)

Every run of the collect and use builds must exit as plain does and
print what plain prints; the use build must compile without xprof
warnings (but for stale).

The training under valgrind, and two more builds per program, each with
one of the compilers (which one is picked by the program's name, so that
each compiler has about half the corpus; XPROF_CORPUS_ALL=1 makes it
both; valgrind and the compiler's own PGO go with the compiler that does
not sample):
  samples  the plain build (made with -g) trained under xprof_collect,
           with its runs as plain's, then a use build of those samples;
           the only warning it may give is that there was no data (a
           run too short for a sample, a static link);
  other    a use build from the other compiler's training (its profile
           and its line profile), in the other's training directory; it
           may warn only of functions that did not match the profile
           (-Wcoverage-mismatch: placed by source line, or compiled
           without data).
Both use builds must run as plain.  Not for stale and no-profile.  It prints a line per compiler and step, which
the test pins with FileCheck, and exits 1 at the first step that fails.
The native PGO line is information: the summary directory gets one file
per program, which scripts/check.sh turns into a table.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SHAPES = {
    "one": "compile and link in one command",
    "separate": "each source with -c, then a link",
    "multi-c": "all sources with one -c command, then a link",
    "asm": "each source with -S, the assembly files linked",
    "cpp": "each source with -E, the .i files compiled",
    "stdin": "each source with -x LANG -c - from standard input",
    "emit-llvm": "each source with -c -emit-llvm, the bitcode linked (clang)",
    "shared": "lib= as libcorpus.so (-fpic -shared), the program linked to it",
    "dlopen": "lib= as libcorpus.so, which the program opens (argument 1)",
}
TIMEOUT = 60


class Failure(Exception):
    pass


def directives(path):
    d = {"flags": "-O2", "shape": "one", "train": [], "also": [], "env": []}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\s*//\s*corpus:\s*([\w-]+)(?:=(.*))?$", line)
        if not m:
            continue
        key, value = m.group(1), (m.group(2) or "").strip()
        if key in ("train", "also", "env"):
            d[key].append(value)
        else:
            d[key] = value if m.group(2) is not None else True
    if not d["train"]:
        d["train"] = [""]
    if d["shape"] not in SHAPES:
        raise SystemExit("%s: unknown shape %s" % (path, d["shape"]))
    return d


def run(cmd, cwd, env=None, stdin=None, timeout=TIMEOUT):
    """(status, stdout, stderr) of a command; status 'timeout' if it hung."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=stdin, capture_output=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""
    return p.returncode, p.stdout, p.stderr


def tail(b, n=12):
    lines = b.decode(errors="replace").rstrip().splitlines()
    return "\n".join("    " + l for l in lines[-n:])


class Case:
    def __init__(self, args, compiler):
        self.path = os.path.abspath(args.program)
        self.dir = os.path.dirname(self.path)
        self.d = directives(self.path)
        self.compiler = compiler
        self.cxx = self.path.endswith(".cpp") or self.d.get("lang") == "c++"
        base = "g++" if self.cxx else "gcc"
        if compiler == "clang":
            base = "clang++" if self.cxx else "clang"
        self.xprof = "xprof-" + base
        self.plain = underlying(self.xprof)
        self.sources = [self.path] + [self.find(f) for f in self.d.get("sources", "").split()]
        self.lib = [self.find(f) for f in self.d.get("lib", "").split()]
        self.flags = (shlex.split(self.d["flags"]) + shlex.split(self.d.get(compiler + "-flags", "")) +
                      ["-I" + self.dir, "-I" + os.path.join(self.dir, "Inputs")])
        self.link = shlex.split(self.d.get("link", ""))
        self.env = dict(os.environ)
        for e in self.d["env"]:
            k, _, v = e.partition("=")
            self.env[k] = v

    def find(self, f):
        for p in (os.path.join(self.dir, f), os.path.join(self.dir, "Inputs", f)):
            if os.path.exists(p):
                return p
        raise SystemExit("%s: no source %s" % (self.path, f))

    # ---- building ----------------------------------------------------------

    def compile_steps(self, cc, flags, work):
        """The commands that build `prog` (and libcorpus.so) in work."""
        shape = self.d["shape"]
        steps = []
        srcs = self.sources
        if shape in ("shared", "dlopen"):
            steps.append(cc + flags + ["-fpic", "-shared"] + self.lib + ["-o", "libcorpus.so"])
        link = self.link + (["-L.", "-lcorpus", "-Wl,-rpath,$ORIGIN"] if shape == "shared" else [])
        if shape in ("one", "shared", "dlopen"):
            return steps + [cc + flags + srcs + ["-o", "prog"] + link]
        stem = lambda s: os.path.splitext(os.path.basename(s))[0]
        if shape == "multi-c":
            steps.append(cc + flags + ["-c"] + srcs)
            objs = [stem(s) + ".o" for s in srcs]
        elif shape == "separate":
            steps += [cc + flags + ["-c", s, "-o", stem(s) + ".o"] for s in srcs]
            objs = [stem(s) + ".o" for s in srcs]
        elif shape == "asm":
            steps += [cc + flags + ["-S", s, "-o", stem(s) + ".s"] for s in srcs]
            objs = [stem(s) + ".s" for s in srcs]
        elif shape == "cpp":
            ext = ".ii" if self.cxx else ".i"
            steps += [cc + flags + ["-E", s, "-o", stem(s) + ext] for s in srcs]
            steps += [cc + flags + ["-c", stem(s) + ext, "-o", stem(s) + ".o"] for s in srcs]
            objs = [stem(s) + ".o" for s in srcs]
        elif shape == "stdin":
            lang = "c++" if self.cxx else "c"
            steps += [("<", s, cc + flags + ["-x", lang, "-c", "-", "-o", stem(s) + ".o"])
                      for s in srcs]
            objs = [stem(s) + ".o" for s in srcs]
        elif shape == "emit-llvm":
            steps += [cc + flags + ["-c", "-emit-llvm", s, "-o", stem(s) + ".bc"] for s in srcs]
            objs = [stem(s) + ".bc" for s in srcs]
        return steps + [cc + flags + objs + ["-o", "prog"] + link]

    def build(self, what, cc, flags, work, fresh=True):
        """Build (in a fresh directory unless told); returns the compilers'
        stderr."""
        if fresh and os.path.exists(work):
            shutil.rmtree(work)
        os.makedirs(work, exist_ok=True)
        errors = b""
        for step in self.compile_steps(cc, flags, work):
            stdin = None
            if step[0] == "<":
                stdin = open(step[1], "rb")
                step = step[2]
            status, _, err = run(step, work, stdin=stdin)
            errors += err
            if status != 0:
                raise Failure("%s: %s build failed (%s): %s\n%s" % (
                    self.compiler, what, status, " ".join(step), tail(err)))
        return errors

    def also(self, cc, flags, work, what):
        for a in self.d["also"]:
            cmd = cc + flags + [x.replace("{src}", self.path) for x in shlex.split(a)]
            status, out, err = run(cmd, work)
            if status != 0:
                raise Failure("%s: %s: %s failed (%s)\n%s" % (
                    self.compiler, what, " ".join(cmd), status, tail(err)))

    # ---- running ------------------------------------------------------------

    def execute(self, work, args, prefix=()):
        argv = list(prefix) + ["./prog"] + shlex.split(args)
        if self.d["shape"] == "dlopen":
            argv.insert(len(prefix) + 1, os.path.join(work, "libcorpus.so"))
        return run(argv, work, env=self.env)

    def expect_run(self, what, work, args, want):
        status, out, err = self.execute(work, args)
        if (status, out) != want:
            raise Failure("%s: %s run (%s): exit %s, want %s; output %s plain's\n%s" % (
                self.compiler, what, args or "no arguments", status, want[0],
                "as" if out == want[1] else "differs from", tail(err)))

    def memcheck(self, work, args, status_wanted, what):
        """Memcheck's error count for a run, or None when the run itself
        failed under it (memcheck replaces the program's malloc, so only
        the exit status is compared)."""
        status, _, err = self.execute(work, args, prefix=(
            "valgrind", "--leak-check=full", "--trace-children=yes", "--error-exitcode=97"))
        text = err.decode(errors="replace")
        # One summary per process (forked children have their own).
        found = re.findall(r"ERROR SUMMARY: (\d+) errors", text)
        self.memcheck_said = "%s run exits %s\n%s" % (what, status, tail(err, 40))
        if status == "timeout" or not found or status not in (status_wanted, 97):
            return None
        return sum(int(n) for n in found)

    def profile_summary(self, work):
        status, out, err = run(["xprof_show", "-n", "1", "prog.profile"], work)
        if status != 0:
            raise Failure("%s: the training runs wrote no readable profile\n%s" % (
                self.compiler, tail(err)))
        return out.decode().splitlines()[0].split(": ", 1)[1]

    def check(self, work_root, report):
        c = self.compiler
        plain_dir = os.path.join(work_root, c + "-plain")
        sampled = self.takes("samples")
        self.build("plain", [self.plain], self.flags + (["-g"] if sampled else []), plain_dir)
        want = {}
        for args in set(self.d["train"] + [self.d.get("run", self.d["train"][0])]):
            status, out, err = self.execute(plain_dir, args)
            want[args] = (status, out)
            if str(status) != self.d.get("status", "0"):
                raise Failure("%s: the plain build exits %s, not %s: the test is wrong\n%s" % (
                    c, status, self.d.get("status", "0"), tail(err)))

        coll = os.path.join(work_root, c + "-collect")
        xflags = shlex.split(self.d.get("xprof-flags", ""))
        self.build("collect", [self.xprof], ["-xprofile=collect"] + self.flags + xflags, coll)
        self.also([self.xprof], ["-xprofile=collect"] + self.flags + xflags, coll, "collect")
        for args in self.d["train"]:
            self.expect_run("training", coll, args, want[args])
        if self.d.get("no-profile"):
            summary = "no profile, as expected"
            if os.path.exists(os.path.join(coll, "prog.profile", "feedback")):
                raise Failure("%s: a profile was written, but none was expected" % c)
        else:
            summary = "profile: " + self.profile_summary(coll)
        report("training: %d run%s as plain; %s" % (
            len(self.d["train"]), "" if len(self.d["train"]) == 1 else "s", summary))

        if (self.d.get("valgrind") != "skip" and os.environ.get("XPROF_CORPUS_VALGRIND") != "0"
                and self.takes("valgrind")):
            args = self.d["train"][0]
            errors = self.memcheck(coll, args, want[args][0], "training")
            if errors is None:
                raise Failure("%s: training under valgrind: %s" % (c, self.memcheck_said))
            # A program may have errors of its own (a thread still running
            # at exit): the training build must add none.
            own = self.memcheck(plain_dir, args, want[args][0], "plain") if errors else 0
            if own is None or errors > own:
                raise Failure("%s: training under valgrind: %d errors, plain %s\n%s" % (
                    c, errors, own, self.memcheck_said))
            report("valgrind: clean" if not errors else
                   "valgrind: %d errors, as plain" % errors)

        # Rebuilt where it was trained, as after "make clean": the profile
        # knows the object files by their paths.
        use = coll
        flags = self.use_flags()
        if self.d.get("stale"):
            flags.append("-DSTALE")
        warnings = self.build("use", [self.xprof], flags, use, fresh=False)
        self.also([self.xprof], flags, use, "use")
        xprof_warnings = [l for l in warnings.decode(errors="replace").splitlines()
                          if "warning: xprof" in l]
        if self.d.get("stale") and not xprof_warnings:
            raise Failure("%s: the use build of a changed source gave no warning" % c)
        if not self.d.get("stale") and not self.d.get("no-profile") and xprof_warnings:
            raise Failure("%s: the use build warned:\n%s" % (c, "\n".join(xprof_warnings[:8])))
        run_args = self.d.get("run", self.d["train"][0])
        want_use = want[run_args]
        if self.d.get("stale"):
            # Right means what a plain build of the changed source does.
            changed = os.path.join(work_root, c + "-plain-changed")
            self.build("plain (changed source)", [self.plain], self.flags + ["-DSTALE"], changed)
            status, out, _ = self.execute(changed, run_args)
            want_use = (status, out)
        self.expect_run("use", use, run_args, want_use)
        report("use: as plain%s" % ("; warned: " + stale_kind(xprof_warnings)
                                    if self.d.get("stale") else ""))
        if sampled:
            self.samples(plain_dir, want, report)
        return want

    # ---- the same profile another way --------------------------------------

    def picked(self):
        """The compiler this program's samples go with (by its name)."""
        compilers = self.d.get("compilers", "gcc clang").split()
        if len(compilers) == 1:
            return compilers[0]
        return ("gcc", "clang")[sum(os.path.basename(self.path).encode()) % 2]

    def takes(self, step):
        """Whether this compiler runs the training under valgrind, makes
        the samples, or the other-compiler build of this program."""
        every = os.environ.get("XPROF_CORPUS_ALL") == "1"
        if step in ("valgrind", "native"):
            return every or self.compiler != self.picked() or \
                len(self.d.get("compilers", "gcc clang").split()) == 1
        if self.d.get("stale") or self.d.get("no-profile"):
            return False
        return every or (self.compiler == self.picked()) == (step == "samples")

    def use_flags(self):
        """The flags of an xprof use build of prog.profile."""
        return (["-xprofile=use:prog"] + self.flags + shlex.split(self.d.get("xprof-flags", "")) +
                shlex.split(self.d.get("use-flags", "")))

    def use_as_plain(self, what, work, want, allowed):
        """A use build in work from the profile there, which may warn only
        with the warning options in allowed; then its run as plain's.
        Returns its warnings."""
        warnings = self.build(what, [self.xprof], self.use_flags(), work, fresh=False)
        bad = [l for l in warnings.decode(errors="replace").splitlines()
               if "warning: xprof" in l and not any("[-W%s]" % a in l for a in allowed)]
        if bad:
            raise Failure("%s: the %s build warned:\n%s" % (self.compiler, what, "\n".join(bad[:8])))
        run_args = self.d.get("run", self.d["train"][0])
        self.expect_run(what, work, run_args, want[run_args])
        return warnings.decode(errors="replace")

    def samples(self, plain_dir, want, report):
        """The plain build trained under xprof_collect, then used."""
        for args in self.d["train"]:
            status, out, err = self.execute(plain_dir, args, prefix=("xprof_collect",))
            if (status, out) != want[args]:
                raise Failure("%s: a run under xprof_collect (%s): exit %s, want %s; output %s "
                              "plain's\n%s" % (self.compiler, args or "no arguments", status,
                                               want[args][0], "as" if out == want[args][1]
                                               else "differs from", tail(err)))
        self.use_as_plain("use of samples", plain_dir, want, ["missing-profile"])
        report("samples: runs as plain; use: as plain")

    def other(self, work_root, other, want, report):
        """A use build from the other compiler's training."""
        said = self.use_as_plain("use of %s's training" % other,
                                 os.path.join(work_root, other + "-collect"), want,
                                 ["coverage-mismatch"])
        # The driver runs the compiler once per source: sum the objects'.
        n = sum(int(x) for x in re.findall(r"warning: xprof: \S+: (\d+) functions? did not match", said))
        report("use of %s's training: as plain; %d function%s placed by source line" % (
            other, n, "" if n == 1 else "s"))

    def native(self, work_root, want):
        """The compiler's own PGO on the same program: a short verdict."""
        c = self.compiler
        work = os.path.join(work_root, c + "-native")
        if c == "gcc":
            gen, use = ["-fprofile-generate"], ["-fprofile-use", "-Wno-missing-profile"]
        else:
            gen = ["-fprofile-instr-generate"]
            use = ["-fprofile-instr-use=prog.profdata"]
        try:
            self.build("native collect", [self.plain], self.flags + gen, work)
        except Failure:
            return "collect build fails"
        env = dict(self.env, LLVM_PROFILE_FILE=os.path.join(work, "raw-%p.profraw"))
        for args in self.d["train"]:
            argv = ["./prog"] + shlex.split(args)
            if self.d["shape"] == "dlopen":
                argv.insert(1, os.path.join(work, "libcorpus.so"))
            status, out, _ = run(argv, work, env=env)
            if status == "timeout":
                return "training run hangs"
            if (status, out) != want[args]:
                return "training run differs"
        if c == "clang":
            raws = [f for f in os.listdir(work) if f.endswith(".profraw")]
            if not raws:
                return "no profile written"
            status, _, _ = run([llvm_profdata(self.plain), "merge", "-o", "prog.profdata"] + raws,
                               work)
            if status != 0:
                return "profile does not merge"
        try:
            # GCC finds its data by object path: build where training built.
            self.build("native use", [self.plain], self.flags + use, work, fresh=False)
        except Failure:
            return "use build fails"
        run_args = self.d.get("run", self.d["train"][0])
        argv = ["./prog"] + shlex.split(run_args)
        if self.d["shape"] == "dlopen":
            argv.insert(1, os.path.join(work, "libcorpus.so"))
        status, out, _ = run(argv, work, env=self.env)
        if status == "timeout":
            return "use build hangs"
        if (status, out) != want[run_args]:
            return "use build differs"
        return "ok"


def stale_kind(warnings):
    """What the warnings of a stale use build say, without the warnings'
    option names ([-Wcoverage-mismatch] and the like)."""
    if any("does not match" in w for w in warnings):
        return "does not match"
    return re.sub(r"( \[-[WR][^]]*\])+$", "", warnings[0].split("warning: ", 1)[-1])


_underlying = {}


def underlying(driver):
    """The compiler a driver runs (its --version names it)."""
    if driver not in _underlying:
        out = subprocess.run([driver, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"profile feedback for (\S+)", out)
        _underlying[driver] = m.group(1) if m else driver.replace("xprof-", "")
    return _underlying[driver]


def llvm_profdata(clang):
    cand = os.path.join(os.path.dirname(os.path.realpath(shutil.which(clang) or clang)),
                        "llvm-profdata")
    return cand if os.path.exists(cand) else "llvm-profdata-14"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--summary", help="directory for the per-program verdicts")
    ap.add_argument("--keep", help="keep the builds in this directory")
    ap.add_argument("program")
    args = ap.parse_args()
    d = directives(args.program)
    compilers = d.get("compilers", "gcc clang").split()
    name = os.path.splitext(os.path.basename(args.program))[0]
    work_root = args.keep or tempfile.mkdtemp(prefix="xprof-corpus-")
    verdicts = []
    wants = {}
    failed = False
    for c in compilers:
        case = Case(args, c)
        report = lambda msg, c=c: print("%s: %s" % (c, msg), flush=True)
        try:
            want = case.check(work_root, report)
            wants[c] = want
            xprof = "ok"
        except Failure as e:
            print(str(e), flush=True)
            failed = True
            xprof, want = "FAILS", None
        native = "skipped"
        if want is not None and d.get("native") != "skip" and case.takes("native"):
            native = case.native(work_root, want)
            report("native PGO: " + native)
        verdicts.append("%s %s xprof=%s native=%s" % (name, c, xprof, native.replace(" ", "_")))
    # Each compiler's use build from the other's training, once both trained.
    for c in compilers:
        case = Case(args, c)
        other = [o for o in compilers if o != c]
        if not other or other[0] not in wants or c not in wants or not case.takes("other"):
            continue
        try:
            case.other(work_root, other[0], wants[c],
                       lambda msg, c=c: print("%s: %s" % (c, msg), flush=True))
        except Failure as e:
            print(str(e), flush=True)
            failed = True
    if args.summary:
        os.makedirs(args.summary, exist_ok=True)
        with open(os.path.join(args.summary, name + ".txt"), "w") as f:
            f.write("\n".join(verdicts) + "\n")
    if not args.keep:
        shutil.rmtree(work_root, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
