// plugin.cpp - the plugin's entry and options, and the passes it adds
// to clang's pipeline: the xprof pass (collect or use, in collect.c and
// use.c), the pass that drops the inlining bonus once the inliner is done,
// and hot/cold splitting for use builds.
#include "xprof-llvm.h"
#include "xprof.h"
#include "xprof_rt.h"
#include "shim.h"

#include <string>
#include <vector>

#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/DeadArgumentElimination.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/GlobalOpt.h"
#include "llvm/Transforms/IPO/HotColdSplitting.h"
#include "llvm/Transforms/IPO/InferFunctionAttrs.h"
#include "llvm/Transforms/IPO/Inliner.h"
#include "llvm/Transforms/IPO/SCCP.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Instrumentation/PGOInstrumentation.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LowerExpectIntrinsic.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

#include <dlfcn.h>

using namespace llvm;

// ---- options (-mllvm, with the plugin also loaded by -fplugin) ----------

static cl::list<std::string> OptXprofile(
    "xprofile", cl::desc("xprof mode: collect[:NAME] or use[:NAME] (repeatable)"));
static cl::list<std::string> OptPathmap(
    "xprofile-pathmap", cl::desc("xprof: COLLECT_PREFIX:USE_PREFIX"));
static cl::list<std::string> OptPrefixMap(
    "xprof-prefix-map",
    cl::desc("xprof: OLD=NEW, the -ffile-prefix-map of the compilation, applied "
             "to the object path the profile knows"));
static cl::list<std::string> OptObjectPrefixMap(
    "xprof-object-prefix-map",
    cl::desc("xprof: OLD=NEW, applied after the prefix maps to the object path the "
             "profile knows (the driver's -xprofile_prefix_map)"));
static cl::opt<bool> OptCallsReturn(
    "xprof-calls-return",
    cl::desc("xprof: take calls that cannot throw as returning (fewer "
             "counters; a count is then off by one per exit or longjmp out "
             "of such a call); collect and use builds must agree"));
static cl::opt<bool> OptPointerCallsReturn(
    "xprof-pointer-calls-return", cl::init(true),
    cl::desc("xprof: no fake edge for a call whose callee may exit or longjmp only "
             "through a call through a pointer, which keeps its own; the use build "
             "warns when such a call did not return in training; collect and use "
             "builds must agree"));
static cl::opt<int> OptPreInline("xprof-pre-inline", cl::init(75),
                                  cl::desc("xprof: inline threshold before "
                                           "counting when optimizing (0: off); "
                                           "collect and use builds must agree"));
static cl::opt<std::string> OptUpdate("xprof-update", cl::init("thread"),
                                      cl::desc("xprof: thread, atomic or single"));
static cl::opt<bool> OptTls("xprof-tls-counters", cl::init(true),
                            cl::desc("xprof: per-thread counters in thread-local "
                                     "twins of the arrays in code for executables "
                                     "(false: copies found at function entry)"));
static cl::opt<bool> OptLTO(
    "xprof-lto", cl::init(false),
    cl::desc("xprof use: the module goes to a link-time optimizer (the drivers pass it "
             "for -flto): indirect calls are promoted to the public functions of other "
             "object files that it declares too, which the link can inline"));
static cl::opt<bool> OptVerbose("xprof-verbose", cl::desc("xprof: report per module"));
static cl::opt<bool> OptAllEdges("xprof-all-edges", cl::desc("xprof debug: count every edge"));
static cl::opt<bool> OptCfgDump("xprof-cfg-dump", cl::desc("xprof debug: write OBJECT.xpcfg"));
static cl::opt<bool> OptTcov("xprof-tcov",
                             cl::desc("xprof collect: the coverage table is asked for "
                                      "(-xprofile=tcov): warn when it cannot be written"));
static cl::opt<std::string> OptTcovDir("xprof-tcov-dir",
                                       cl::desc("xprof collect: write the coverage table "
                                                "into this directory (implies -xprof-tcov)"));
static cl::opt<bool> OptNoCoverageTable("xprof-no-coverage-table",
                                        cl::desc("xprof collect: write no coverage table"));
static cl::opt<bool> OptNoWarnings("xprof-no-warnings",
                                   cl::desc("xprof: no warnings (the drivers pass it for -w)"));
static cl::opt<bool> OptNoMissing("xprof-no-missing-warning",
                                  cl::desc("xprof: no warning for object files without data"));
static cl::opt<unsigned> OptValues("xprof-values-per-site", cl::init(4),
                                   cl::desc("xprof: values kept per value-profile site"));
static cl::opt<cl::boolOrDefault> OptPromote(
    "xprof-promote", cl::desc("xprof: count in registers in loops, added to memory at the "
                              "loop's exits (default: with -xprof-update=atomic only)"));
static cl::opt<bool> OptInlineBonus("xprof-inline-bonus", cl::init(true),
                                    cl::desc("xprof: raise the inliner's threshold for "
                                             "a function by what its counters add"));
static cl::opt<bool> OptSpecialize(
    "xprof-specialize", cl::init(true),
    cl::desc("xprof use: specialize divisions, modulos and memory-operation lengths to "
             "the values training saw (specialize.c)"));
static cl::opt<bool> OptReorderFunctions(
    "xprof-reorder-functions", cl::init(true),
    cl::desc("xprof: record when each function first ran (collect) and put the "
             "functions that ran first, in that order (use); the drivers pass GCC's "
             "-f[no-]profile-reorder-functions as this"));
static cl::opt<unsigned> OptSalvage(
    "xprof-salvage", cl::init(XPROF_SALVAGE_DEFAULT_PERCENT),
    cl::desc("xprof use: salvage the profile of a function that changed since training "
             "when at least this percentage of its counts matches the new code (0-100; "
             "above 100: never)"));
static cl::opt<bool> OptPartialTraining(
    "xprof-partial-training", cl::init(XPROF_PARTIAL_TRAINING_DEFAULT),
    cl::desc("xprof: functions that never ran in training are optimized as "
             "without a profile, not as cold (the drivers pass GCC's "
             "-f[no-]profile-partial-training as this)"));
static cl::opt<std::string> OptOutput("xprof-output",
                                      cl::desc("xprof: the compiler's -o (set by the drivers)"));
static cl::opt<unsigned> OptSplitCold(
    "xprof-split-cold", cl::init(1000),
    cl::desc("xprof: use builds move the code that never ran in training out of "
             "functions of at least N IR instructions into FUNCTION.cold.K "
             "(0: off)"));
static cl::opt<bool> OptSelects(
    "xprof-selects", cl::init(true),
    cl::desc("xprof: count how often the conditions of selects outside loops "
             "hold, in functions with loops, for their branch weights; "
             "collect and use builds must agree"));
static cl::opt<bool> OptLink("xprof-link", cl::desc("xprof: the command also links"));
static cl::list<std::string> OptSkipFunctions(
    "xprof-skip-functions", cl::CommaSeparated,
    cl::desc("xprof: leave alone the functions whose name matches a pattern"));
static cl::list<std::string> OptSkipFiles(
    "xprof-skip-files", cl::CommaSeparated,
    cl::desc("xprof: leave alone the functions whose source file matches a pattern"));

// The mode can also come from the environment (XPROF_LLVM=collect[:NAME]
// or use[:NAME]), for builds that cannot add -mllvm options.
// A list option's values as C strings for xl_options: `keep` holds the
// pointers (it lives as long as the options); returns their number.
static unsigned cStrings(const cl::list<std::string> &values, std::vector<const char *> &keep,
                         const char *const **out) {
  keep.clear();
  for (const std::string &v : values)
    keep.push_back(v.c_str());
  *out = keep.data();
  return (unsigned)keep.size();
}

static bool readOptions(struct xl_options &o, std::vector<const char *> &uses,
                        std::vector<const char *> &maps) {
  static std::vector<std::string> store;
  memset(&o, 0, sizeof o);
  std::vector<std::string> modes(OptXprofile.begin(), OptXprofile.end());
  if (modes.empty())
    if (const char *e = getenv("XPROF_LLVM"))
      modes.push_back(e);
  for (const std::string &m : modes) {
    std::string kind = m.substr(0, m.find(':'));
    std::string name = m.find(':') == std::string::npos ? "" : m.substr(m.find(':') + 1);
    enum xl_mode mode = kind == "collect" ? XL_MODE_COLLECT
                        : kind == "use"   ? XL_MODE_USE
                                          : XL_MODE_NONE;
    if (mode == XL_MODE_NONE) {
      errs() << "xprof: -xprofile=" << m << ": expected collect[:NAME] or use[:NAME]\n";
      return false;
    }
    if (mode != o.mode)
      uses.clear();
    o.mode = mode;
    store.push_back(name);
    if (mode == XL_MODE_COLLECT)
      o.profile_name = name.empty() ? nullptr : store.back().c_str();
    else if (!name.empty())
      uses.push_back(store.back().c_str());
  }
  for (const std::string &p : OptPathmap) {
    store.push_back(p);
    maps.push_back(store.back().c_str());
  }
  if (OptUpdate != "thread" && OptUpdate != "atomic" && OptUpdate != "single") {
    errs() << "xprof: -xprof-update=" << OptUpdate
           << ": expected thread, atomic or single\n";
    return false;
  }
  o.update = OptUpdate == "thread"   ? XL_UPDATE_THREAD
             : OptUpdate == "atomic" ? XL_UPDATE_ATOMIC
                                     : XL_UPDATE_SINGLE;
  o.tls_counters = OptTls;
  o.verbose = OptVerbose;
  o.all_edges = OptAllEdges;
  o.cfg_dump = OptCfgDump;
  o.coverage = OptNoCoverageTable                      ? XPROF_COVERAGE_OFF
               : OptTcov || !OptTcovDir.empty() ? XPROF_COVERAGE_ASKED
                                                       : XPROF_COVERAGE_QUIET;
  o.coverage_dir = OptTcovDir.empty() ? nullptr : OptTcovDir.c_str();
  o.warn_missing = !OptNoMissing;
  o.partial_training = OptPartialTraining;
  o.specialize = OptSpecialize;
  o.lto = OptLTO;
  o.reorder_functions = OptReorderFunctions;
  xl_no_warnings = OptNoWarnings;
  o.values_per_site = OptValues;
  o.salvage = OptSalvage;
  o.inline_bonus = OptInlineBonus;
  o.promote = OptPromote == cl::BOU_UNSET ? o.update == XL_UPDATE_ATOMIC
                                          : OptPromote == cl::BOU_TRUE;
  o.output = OptOutput.empty() ? nullptr : OptOutput.c_str();
  o.link = OptLink;
  o.count_selects = OptSelects;
  o.use_dirs = uses.data();
  o.n_use_dirs = (unsigned)uses.size();
  o.pathmap = maps.data();
  o.n_pathmap = (unsigned)maps.size();
  static std::vector<const char *> prefixMaps, objectMaps, skipFunctions, skipFiles;
  o.n_prefix_map = cStrings(OptPrefixMap, prefixMaps, &o.prefix_map);
  o.n_object_prefix_map = cStrings(OptObjectPrefixMap, objectMaps, &o.object_prefix_map);
  o.skip.n_functions = cStrings(OptSkipFunctions, skipFunctions, &o.skip.functions);
  o.skip.n_files = cStrings(OptSkipFiles, skipFiles, &o.skip.files);
  return true;
}


namespace {
struct XprofPass : PassInfoMixin<XprofPass> {
  int forced; // XL_MODE_* from opt's pipeline name, or 0
  explicit XprofPass(int m = 0) : forced(m) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    struct xl_options o;
    std::vector<const char *> uses, maps;
    if (!readOptions(o, uses, maps))
      report_fatal_error("xprof: bad options", false);
    if (forced)
      o.mode = (enum xl_mode)forced;
    int changed = 0;
    xl_find_returning(M, OptCallsReturn, OptPointerCallsReturn);
    if (o.mode == XL_MODE_COLLECT)
      changed = xl_run_collect(wrap(&M), &o);
    else if (o.mode == XL_MODE_USE) {
      changed = xl_run_use(wrap(&M), &o);
      // ProfileSummaryInfo is never invalidated: refresh it by hand.
      if (auto *PSI = MAM.getCachedResult<ProfileSummaryAnalysis>(M))
        PSI->refresh();
    }
    xl_forget_returning();
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
  // -print-pipeline-passes prints what the pipeline parser reads back
  // (opt 16 checks that it does): "xprof" runs in the mode the options
  // give, as the pass the pipeline callbacks add does.
  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
    OS << (forced == XL_MODE_COLLECT ? "xprof-collect"
           : forced == XL_MODE_USE   ? "xprof-use"
                                     : "xprof");
  }
};

// The inliner is done: the asm statements that carried the bonus go, so
// that the vectorizer and code generation see the function as they would
// without them.
struct DropInlineBonusPass : PassInfoMixin<DropInlineBonusPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    return xl_drop_inline_bonus(wrap(&F)) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
  static StringRef name() { return "xprof-drop-inline-bonus"; }
};

// After each function's simplification in the inliner's walk, before
// its callers are looked at: its bonus made what its counters cost now.
struct RebaseInlineBonusPass : PassInfoMixin<RebaseInlineBonusPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    if (!xl_rebase_inline_bonus(wrap(&F)))
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }
  static StringRef name() { return "xprof-rebase-inline-bonus"; }
};

// Use builds: the divisions the use pass marked for specialization
// (specialize.c), made last so that no later pass folds them back.
struct SpecializeDivisionsPass : PassInfoMixin<SpecializeDivisionsPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    return xl_specialize_marked(wrap(&F)) ? PreservedAnalyses::none()
                                          : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
  static StringRef name() { return "xprof-specialize"; }
};

// Collect builds: the test of each function's first-run word
// (first_run.c), after inlining, in the bodies that remain.
struct FirstRunPass : PassInfoMixin<FirstRunPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    return xl_first_run_entry(wrap(&F)) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
  static StringRef name() { return "xprof-first-run"; }
};

// Use builds: LLVM's hot/cold splitting (off by default in clang) moves
// the regions that never ran in training out of large functions, so that
// the register allocator and the block layout of the hot loops do not
// work around them (bzip2's decompression, whose BZ2_decompress is one big
// switch, runs clearly fewer instructions).  Two of its habits are kept
// out:
// - it gives every function it finds cold on entry the cold and minsize
//   attributes, though a function entered once may loop for the whole run
//   (the sqlite shell's process_input ran slower so): the cold functions are xprof's own decision
//   (use.c), so functions cold on entry are hidden from it;
// - in a small function a call to the outlined code costs about what the
//   outlined code did: functions under -xprof-split-cold instructions are
//   hidden too.
// It hides them the only way its run() offers: optnone, for the duration.
struct SplitColdPass : PassInfoMixin<SplitColdPass> {
  static StringRef name() { return "xprof-split-cold"; }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    struct xl_options o;
    std::vector<const char *> uses, maps;
    if (OptSplitCold == 0 || !readOptions(o, uses, maps) || o.mode != XL_MODE_USE ||
        !M.getProfileSummary(/*IsCS=*/false))
      return PreservedAnalyses::all();
    ProfileSummaryInfo *PSI = &AM.getResult<ProfileSummaryAnalysis>(M);
    SmallVector<Function *, 16> Hidden;
    for (Function &F : M) {
      if (F.isDeclaration() || F.hasOptNone())
        continue;
      if (F.getInstructionCount() < OptSplitCold || F.hasFnAttribute(Attribute::Cold) ||
          PSI->isFunctionEntryCold(&F)) {
        F.addFnAttr(Attribute::OptimizeNone);
        Hidden.push_back(&F);
      }
    }
    auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    auto GetBFI = [&FAM](Function &F) { return &FAM.getResult<BlockFrequencyAnalysis>(F); };
    auto GetTTI = [&FAM](Function &F) -> TargetTransformInfo & {
      return FAM.getResult<TargetIRAnalysis>(F);
    };
    auto LookupAC = [&FAM](Function &F) {
      return FAM.getCachedResult<AssumptionAnalysis>(F);
    };
    std::unique_ptr<OptimizationRemarkEmitter> ORE;
    std::function<OptimizationRemarkEmitter &(Function &)> GetORE =
        [&ORE](Function &F) -> OptimizationRemarkEmitter & {
      ORE.reset(new OptimizationRemarkEmitter(&F));
      return *ORE;
    };
    bool Changed = HotColdSplitting(PSI, GetBFI, GetTTI, &GetORE, LookupAC).run(M);
    for (Function *F : Hidden)
      F->removeFnAttr(Attribute::OptimizeNone);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

// A plugin built for another LLVM major misbehaves silently (garbage and
// crashes): refuse unless the host's libLLVM is ours.
static bool hostMatches() {
  Dl_info info;
  if (!dladdr((void *)&llvm::errs, &info) || !info.dli_fname)
    return true; // cannot tell; assume the build matched
  std::string want = "libLLVM-" + std::to_string(LLVM_VERSION_MAJOR) + ".so";
  const char *base = strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  if (strncmp(base, "libLLVM-", 8) != 0)
    return true; // statically linked host: the symbols resolved, so it is ours
  if (strncmp(base, want.c_str(), want.size()) == 0)
    return true;
  fprintf(stderr,
          "xprof: this plugin was built for LLVM %d but was loaded into %s; "
          "use the xprof plugin built for that LLVM (xprof-llvm<MAJOR>.so)\n",
          LLVM_VERSION_MAJOR, base);
  return false;
}

// In collect builds LLVM's late SimplifyCFG would sink the counter
// updates of several predecessors into their common successor, addressed
// through a phi of counter addresses that hot loops then carry in
// registers and on the stack.  With thread-local twins each such address
// is a thread-pointer load and an lea that the register allocator cannot
// rematerialize: bzip2's decompressor ran far more instructions than with
// single-threaded counters, and fewer without the sinking (which helps
// single-threaded counters there too).  Collect builds are not the
// program that ships: the sinking is turned off in them; an explicit
// -sink-common-insts on the command line wins.
static void keepCounterUpdatesApart() {
  struct xl_options o;
  std::vector<const char *> uses, maps;
  if (!readOptions(o, uses, maps) || o.mode != XL_MODE_COLLECT)
    return;
  StringMap<cl::Option *> &Opts = cl::getRegisteredOptions();
  auto It = Opts.find("sink-common-insts");
  if (It != Opts.end() && It->second->getNumOccurrences() == 0)
    It->second->addOccurrence(0, "sink-common-insts", "false");
}

// SROA as the default pipeline runs it early (LLVM 16 made the CFG
// choice an argument).
static SROAPass makeSROA() {
#if LLVM_VERSION_MAJOR >= 16
  return SROAPass(SROAOptions::ModifyCFG);
#else
  return SROAPass();
#endif
}

// When optimizing, a pre-inliner with a small threshold, as LLVM's own
// instrumentation has: small helpers are counted as part of their callers
// instead of paying for a function's counters and entry code per call in
// hot loops.  Both builds run it on the same IR without a profile, so
// they see the same CFGs.  Its parameters are LLVM's (addPGOInstrPasses):
// a default and an inline-hint threshold and nothing else.  The full set
// of getInlineParams would make a call that static estimates put under 2%
// of its caller's entries "cold" (threshold 45) and one in a loop "locally
// hot" (525): guesses that the profile is there to replace, and inlining
// decided before counting cannot be undone by the use build (zstd's
// BIT_reloadDStream stayed a call in the sequence decoder's loop and kept
// the bit stream in memory).
static void addPreInliner(ModulePassManager &MPM, OptimizationLevel Level) {
  InlineParams Params;
  Params.DefaultThreshold = OptPreInline;
  Params.HintThreshold = Level.isOptimizingForSize() ? (int)OptPreInline : 325;
  ModuleInlinerWrapperPass Inliner(Params);
  FunctionPassManager Clean;
  Clean.addPass(makeSROA());
  Clean.addPass(EarlyCSEPass());
  Clean.addPass(SimplifyCFGPass());
  Clean.addPass(InstCombinePass());
  Inliner.getPM().addPass(createCGSCCToFunctionPassAdaptor(std::move(Clean)));
  MPM.addPass(std::move(Inliner));
  MPM.addPass(GlobalDCEPass()); // nothing dead gets counters
}

// The xprof pass in both modes, after a fixed clean-up that makes the CFG
// small and the same in both builds (and lowers __builtin_expect first,
// so that measured weights win).
static void addXprof(ModulePassManager &MPM, OptimizationLevel Level) {
  keepCounterUpdatesApart(); // before the later passes are made
  bool PreInline = Level != OptimizationLevel::O0 && OptPreInline > 0;
  // always_inline functions are inlined before counting: they would be
  // inlined anyway, and counting them separately puts counters into the
  // callers' hot loops.  The pre-inliner does it when it runs, in its
  // bottom-up order as LLVM's own does, so that small helpers go into an
  // always_inline function before it goes into its callers.
  if (!PreInline)
    MPM.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  FunctionPassManager FPM;
  FPM.addPass(LowerExpectIntrinsicPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(makeSROA());
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  // What LLVM knows of library functions (willreturn on strlen, malloc and
  // the like: calls that need no fake edge), as it would infer a few
  // passes later anyway.
  if (Level != OptimizationLevel::O0)
    MPM.addPass(InferFunctionAttrsPass());
  if (PreInline)
    addPreInliner(MPM, Level);
  MPM.addPass(XprofPass());
  // Use mode gives memory operations the lengths they saw, as LLVM's own
  // profile does; LLVM's pipeline runs this only with -fprofile-use.
  if (Level != OptimizationLevel::O0)
    MPM.addPass(createModuleToFunctionPassAdaptor(PGOMemOPSizeOpt()));
}

// The module-wide clean-up that follows the early simplification
// extension point, run there first when optimizing: interprocedural
// constant propagation, global optimization, dead arguments.  Counters
// then go on the CFGs LLVM optimizes further, and use builds annotate
// those (docs/performance-history.md); both modes run the same passes, so they
// agree.
static void addModuleCleanup(ModulePassManager &MPM) {
  MPM.addPass(IPSCCPPass());
  MPM.addPass(GlobalOptPass());
  MPM.addPass(createModuleToFunctionPassAdaptor(PromotePass()));
  MPM.addPass(DeadArgumentEliminationPass());
  FunctionPassManager Cleanup;
  Cleanup.addPass(InstCombinePass());
  Cleanup.addPass(SimplifyCFGPass());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(Cleanup)));
}

// The passes by name, for opt's pipelines (the tests'): xprof,
// xprof-collect, xprof-use, and the helper passes.
static void registerPipelineNames(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "xprof-collect" || Name == "xprof-use" || Name == "xprof") {
          MPM.addPass(XprofPass(Name == "xprof-collect" ? XL_MODE_COLLECT
                                : Name == "xprof-use"   ? XL_MODE_USE
                                                        : 0));
          return true;
        }
        if (Name == SplitColdPass::name()) {
          MPM.addPass(SplitColdPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == DropInlineBonusPass::name()) {
          FPM.addPass(DropInlineBonusPass());
          return true;
        }
        if (Name == RebaseInlineBonusPass::name()) {
          FPM.addPass(RebaseInlineBonusPass());
          return true;
        }
        if (Name == SpecializeDivisionsPass::name()) {
          FPM.addPass(SpecializeDivisionsPass());
          return true;
        }
        if (Name == FirstRunPass::name()) {
          FPM.addPass(FirstRunPass());
          return true;
        }
        return false;
      });
}

static void registerCallbacks(PassBuilder &PB) {
  if (!hostMatches())
    return;
  // -O0: at the pipeline start.
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel Level) {
    if (Level == OptimizationLevel::O0)
      addXprof(MPM, Level);
  });
  // Optimizing: where LLVM's own instrumentation runs (addPGOInstrPasses),
  // after the module-wide clean-up.
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level == OptimizationLevel::O0)
          return;
        addModuleCleanup(MPM);
        addXprof(MPM, Level);
      });
  // The inliner is done before the vectorizer starts: an asm statement in
  // a loop would keep it from vectorizing the loop.  The optimizer's last
  // step catches pipelines without a vectorizer.
  PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
    FPM.addPass(DropInlineBonusPass());
  });
  // The end of the function simplification that the inliner's walk runs
  // on each function after inlining into it.
  PB.registerScalarOptimizerLateEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
    FPM.addPass(RebaseInlineBonusPass());
  });
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel Level) {
    MPM.addPass(createModuleToFunctionPassAdaptor(DropInlineBonusPass()));
    MPM.addPass(createModuleToFunctionPassAdaptor(SpecializeDivisionsPass()));
    MPM.addPass(createModuleToFunctionPassAdaptor(FirstRunPass()));
    // Last, as LLVM's own pipeline places it: after inlining and the
    // loop optimizations, which then see the whole function.
    if (Level != OptimizationLevel::O0)
      MPM.addPass(SplitColdPass());
  });
  registerPipelineNames(PB);
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "xprof", XPROF_VERSION, registerCallbacks};
}
