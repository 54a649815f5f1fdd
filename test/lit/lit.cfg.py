# lit configuration for xprof's tool and compiler tests.
import os
import lit.formats

config.name = "xprof"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".c", ".cpp", ".ll"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

build = lit_config.params.get("build") or os.environ.get("XPROF_BUILD")
if not build:
    lit_config.fatal("give the build directory: lit --param build=DIR")
build = os.path.abspath(build)
config.test_exec_root = os.path.join(build, "test", "lit")

# What CMake found: the compilers, LLVM's tools, the plugins
# (lit.site.cfg.py, written from lit.site.cfg.py.in).
site = {}
site_file = os.path.join(build, "test", "lit", "lit.site.cfg.py")
if not os.path.exists(site_file):
    lit_config.fatal("%s is missing: configure the build with CMake first" % site_file)
exec(open(site_file).read(), site)
llvm_bin = site["llvm_bin"]
# The tests name the compilers gcc, g++, clang and clang++: those of the
# build, through links in the build's test directory, ahead of the rest.
compilers = os.path.join(config.test_exec_root, "compilers")
os.makedirs(compilers, exist_ok=True)
for name, target in (("gcc", site["gcc"]), ("g++", site["gxx"]), ("clang", site["clang"]),
                     ("clang++", site["clangxx"])):
    link = os.path.join(compilers, name)
    if target and (not os.path.islink(link) or os.readlink(link) != target):
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(target, link)
path = [compilers, os.path.join(build, "tools"), os.path.join(build, "bin")] + (
    [llvm_bin] if llvm_bin else [])
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", os.environ["PATH"])])
config.environment["LC_ALL"] = "C"
for var in ("SUN_PROFDATA", "SUN_PROFDATA_DIR", "SUN_PROFDATA_REPLACE"):
    config.environment.pop(var, None)
# Other compilers and their plugin for the drivers (compatibility runs:
# XPROF_CC=gcc-11 XPROF_CXX=g++-11 XPROF_GCC_PLUGIN=.../xprof.so lit ...).
# XPROF_CORPUS_ALL=1: every corpus program's samples and other-compiler
# builds with both compilers (corpus/Inputs/corpus.py).
for var in ("XPROF_CC", "XPROF_CXX", "XPROF_GCC_PLUGIN", "XPROF_LLVM_PLUGIN", "XPROF_CORPUS_ALL"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%corrupt", "python3 " + os.path.join(config.test_source_root, "Inputs", "corrupt.py")))
config.substitutions.append(("%build", build))
# The conformance corpus (corpus/): each program through every build.
config.substitutions.append(("%corpus", "python3 {} --summary {}".format(
    os.path.join(config.test_source_root, "corpus", "Inputs", "corpus.py"),
    os.path.join(build, "test", "lit", "corpus-summary"))))
config.substitutions.append(("%status", "bash " + os.path.join(config.test_source_root, "Inputs", "status.sh")))

# Compile a test program against the runtime, as the drivers link it.
rt = os.path.join(build, "runtime", "libxprof_rt.a")
src_root = os.path.dirname(os.path.dirname(config.test_source_root))
cc_rt = ("{cc} -O1 -g -I{rt_src} -I{abi_src} -I{lib_src} -I{inputs} -Wl,--push-state,--whole-archive {rt} "
         "-Wl,--pop-state -lpthread -ldl").format(
    rt_src=os.path.join(src_root, "runtime"), abi_src=os.path.join(src_root, "abi"),
    lib_src=os.path.join(src_root, "libxprof", "format"),
    inputs=os.path.join(config.test_source_root, "runtime", "Inputs"), rt=rt, cc=site["gcc"] or "gcc")
config.substitutions.append(("%cc_rt", cc_rt))
# The same with the runtime compiled from its sources under ASan and UBSan
# (the library itself is built without sanitizers).
# The runtime archive's sources, as its CMakeLists.txt lists them.
rt_sources = site["runtime_sources"].split()
cc_rt_san = ("{cc} -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all "
             "-I{rt_src} -I{abi_src} -I{lib_src} -I{inputs} {sources} -lpthread -ldl").format(
    rt_src=os.path.join(src_root, "runtime"), abi_src=os.path.join(src_root, "abi"),
    lib_src=os.path.join(src_root, "libxprof", "format"),
    inputs=os.path.join(config.test_source_root, "runtime", "Inputs"),
    sources=" ".join(rt_sources), cc=site["gcc"] or "gcc")
config.substitutions.append(("%cc_san_rt", cc_rt_san))

# Root may mount: the tests of read-only and full file systems need it.
import subprocess, tempfile
try:
    d = tempfile.mkdtemp()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
        subprocess.run(["umount", d])
        config.available_features.add("root-mount")
    os.rmdir(d)
except OSError:
    pass

import shutil
# Root may make a set-user-ID program and run it as another user (where
# the build's file system honours the bit, and other users may reach it).
def others_reach(path):
    import stat
    while path not in ("", "/"):
        if not os.stat(path).st_mode & stat.S_IXOTH:
            return False
        path = os.path.dirname(path)
    return True
if (os.geteuid() == 0 and shutil.which("setpriv") and
        not os.statvfs(build).f_flag & os.ST_NOSUID and others_reach(build)):
    config.available_features.add("root")

import platform
if platform.machine() == "x86_64":
    config.available_features.add("x86_64")

# The LLVM plugin is named for its LLVM (xprof-llvm14.so, ...), the one
# the build was configured for (compatibility runs: a build configured
# with -DXPROF_LLVM_CONFIG=llvm-config-16).
llvm_major = int(site["llvm_major"] or 0)
llvm_plugin = site["llvm_plugin"]
config.substitutions.append(("%llvm_plugin", llvm_plugin))

# Features for tests that need optional parts of the build.
for feature, path in (("gcc-plugin", site["gcc_plugin"]),
                      ("llvm-plugin", llvm_plugin),
                      ("runtime", rt)):
    if os.path.exists(path):
        config.available_features.add(feature)

# ThinLTO links need llvm_bin's own lld: another version's cannot read
# its bitcode (lld 14 rejects LLVM 16's opaque pointers).
if os.path.exists(os.path.join(llvm_bin, "ld.lld")):
    config.available_features.add("lld")

# Tests that check the plugin's IR text as LLVM 14 prints it (typed
# pointers); LLVM 15 and later print opaque pointers, which the
# end-to-end tests cover.
if llvm_major < 15:
    config.available_features.add("typed-pointers")

# Build tools that the pipeline tests drive (scripts/setup.sh installs
# them; a machine without them skips those tests).
import shutil
for tool, feature in (("ccache", "ccache"), ("dot", "graphviz"), ("ninja", "ninja"),
                      ("meson", "meson"), ("distccd", "distcc"), ("sccache", "sccache"),
                      ("genhtml", "lcov"), ("ld.lld", "ld-lld")):
    if shutil.which(tool):
        config.available_features.add(feature)
config.substitutions.append(("%compare_gcov", "python3 " + os.path.join(
    src_root, "test", "coverage", "compare-gcov.py")))
