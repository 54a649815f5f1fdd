// shim.cpp - the C++ the LLVM-C API cannot replace: the plugin entry and
// its options, the pass wrapper and the pipeline it goes into, and a few
// one-line helpers behind C functions (see xprof-llvm.h).  Everything
// else is in core.c.
#include "xprof-llvm.h"
#include "xprof.h"
#include "xprof_rt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <string>
#include <vector>

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/Triple.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#if LLVM_VERSION_MAJOR >= 16
#include "llvm/Support/ModRef.h"
#endif
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MD5.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/DeadArgumentElimination.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/GlobalOpt.h"
#include "llvm/Transforms/IPO/HotColdSplitting.h"
#include "llvm/Transforms/IPO/SCCP.h"
#include "llvm/Transforms/IPO/InferFunctionAttrs.h"
#include "llvm/Transforms/IPO/Inliner.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Instrumentation/PGOInstrumentation.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LowerExpectIntrinsic.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/CallPromotionUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

// ---- options (-mllvm, with the plugin also loaded by -fplugin) ----------

static cl::list<std::string> OptXprofile(
    "xprofile", cl::desc("xprof mode: collect[:NAME] or use[:NAME] (repeatable)"));
static cl::list<std::string> OptPathmap(
    "xprofile-pathmap", cl::desc("xprof: COLLECT_PREFIX:USE_PREFIX"));
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
static cl::opt<bool> OptVerbose("xprof-verbose", cl::desc("xprof: report per module"));
static cl::opt<bool> OptAllEdges("xprof-all-edges", cl::desc("xprof debug: count every edge"));
static cl::opt<bool> OptCfgDump("xprof-cfg-dump", cl::desc("xprof debug: write OBJECT.xpcfg"));
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

// The mode can also come from the environment (XPROF_LLVM=collect[:NAME]
// or use[:NAME]), for builds that cannot add -mllvm options.
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
  o.warn_missing = !OptNoMissing;
  o.partial_training = OptPartialTraining;
  xl_no_warnings = OptNoWarnings;
  o.values_per_site = OptValues;
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
  return true;
}

// Functions of the module that surely return to their caller: no exit,
// longjmp or exception out of them (see findReturning).
static DenseSet<const Function *> Returning;
// Functions of the module that leave only by returning or by throwing: no
// exit or longjmp out of them.  An invoke's unwind edge covers the throw.
static DenseSet<const Function *> ReturnsOrThrows;
// C library functions (known to LLVM by name and prototype) that return
// to their caller: none of them calls back into the program.
static DenseSet<const Function *> LibReturning;
// The first two as they are when calls through pointers are taken to
// return (RelaxPointerCalls): see xl_call_risk.
static DenseSet<const Function *> RelaxedReturning, RelaxedReturnsOrThrows;
static bool RelaxPointerCalls;

// While one lives, the questions below are asked with calls through
// pointers taken to return: the relaxed sets stand in for the others.
namespace {
struct RelaxedView {
  RelaxedView() { flip(); }
  ~RelaxedView() { flip(); }
  static void flip() {
    std::swap(Returning, RelaxedReturning);
    std::swap(ReturnsOrThrows, RelaxedReturnsOrThrows);
    RelaxPointerCalls = !RelaxPointerCalls;
  }
};
} // namespace

static void findReturning(Module &M);

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
    findReturning(M);
    if (o.mode == XL_MODE_COLLECT)
      changed = xl_run_collect(wrap(&M), &o);
    else if (o.mode == XL_MODE_USE) {
      changed = xl_run_use(wrap(&M), &o);
      // ProfileSummaryInfo is never invalidated: refresh it by hand.
      if (auto *PSI = MAM.getCachedResult<ProfileSummaryAnalysis>(M))
        PSI->refresh();
    }
    Returning.clear();
    ReturnsOrThrows.clear();
    RelaxedReturning.clear();
    RelaxedReturnsOrThrows.clear();
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
    SmallVector<CallInst *, 4> Marks;
    for (Instruction &I : instructions(F))
      if (auto *C = dyn_cast<CallInst>(&I))
        if (C->isInlineAsm() && C->hasFnAttr(XL_INLINE_BONUS))
          Marks.push_back(C);
    for (CallInst *C : Marks)
      C->eraseFromParent();
    return Marks.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
  static StringRef name() { return "xprof-drop-inline-bonus"; }
};

// Use builds: LLVM's hot/cold splitting (off by default in clang) moves
// the regions that never ran in training out of large functions, so that
// the register allocator and the block layout of the hot loops do not
// work around them (bzip2's decompression, whose BZ2_decompress is one big
// switch: 7% fewer instructions).  Two of its habits are kept out:
// - it gives every function it finds cold on entry the cold and minsize
//   attributes, though a function entered once may loop for the whole run
//   (the sqlite shell's process_input ran 1.2% of the program's
//   instructions more): the cold functions are xprof's own decision
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

// A plugin built for another LLVM major misbehaves silently (the notes saw
// garbage and crashes): refuse unless the host's libLLVM is ours.
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
// rematerialize: bzip2's decompressor ran 1.7x the instructions of
// single-threaded counters, and 0.9x without the sinking (which also
// saves single-threaded counters 3% there).  Collect builds are not the
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

static void registerCallbacks(PassBuilder &PB) {
  if (!hostMatches())
    return;
  // In both modes, after a fixed clean-up that makes the CFG small and the
  // same in both builds (and lowers __builtin_expect first, so that
  // measured weights win).
  auto Xprof = [](ModulePassManager &MPM, OptimizationLevel Level) {
    keepCounterUpdatesApart(); // before the later passes are made
    bool PreInline = Level != OptimizationLevel::O0 && OptPreInline > 0;
    // always_inline functions are inlined before counting: they would be
    // inlined anyway, and counting them separately puts counters into the
    // callers' hot loops.  The pre-inliner below does it when it runs, in
    // its bottom-up order as LLVM's own does, so that small helpers go
    // into an always_inline function before it goes into its callers.
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
    // What LLVM knows of library functions (willreturn on strlen, malloc
    // and the like: calls that need no fake edge), as it would infer a few
    // passes later anyway.
    if (Level != OptimizationLevel::O0)
      MPM.addPass(InferFunctionAttrsPass());
    // When optimizing, a pre-inliner with a small threshold, as LLVM's own
    // instrumentation has: small helpers are counted as part of their
    // callers instead of paying for a function's counters and entry code
    // per call in hot loops.  Both builds run it on the same IR without a
    // profile, so they see the same CFGs.  Its parameters are LLVM's
    // (addPGOInstrPasses): a default and an inline-hint threshold and
    // nothing else.  The full set of getInlineParams would make a call
    // that static estimates put under 2% of its caller's entries "cold"
    // (threshold 45) and one in a loop "locally hot" (525): guesses that
    // the profile is there to replace, and inlining decided before
    // counting cannot be undone by the use build (zstd's BIT_reloadDStream
    // stayed a call in the sequence decoder's loop and kept the bit stream
    // in memory).
    if (PreInline) {
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
    MPM.addPass(XprofPass());
    // Use mode gives memory operations the lengths they saw, as LLVM's own
    // profile does; LLVM's pipeline runs this only with -fprofile-use.
    if (Level != OptimizationLevel::O0)
      MPM.addPass(createModuleToFunctionPassAdaptor(PGOMemOPSizeOpt()));
  };
  // -O0: at the pipeline start.
  PB.registerPipelineStartEPCallback([Xprof](ModulePassManager &MPM, OptimizationLevel Level) {
    if (Level == OptimizationLevel::O0)
      Xprof(MPM, Level);
  });
  // Optimizing: where LLVM's own instrumentation runs (addPGOInstrPasses),
  // after the module-wide clean-up that follows this extension point --
  // run here first: interprocedural constant propagation, global
  // optimization, dead arguments -- so that counters go on the CFGs LLVM
  // optimizes further and use builds annotate those (zstd, bench runs L
  // and N: collection 1.132x -> 1.121x the plain build's instructions,
  // use 0.998x -> 0.993x).  Both modes run the same passes, so they agree.
  PB.registerPipelineEarlySimplificationEPCallback([Xprof](ModulePassManager &MPM,
                                                           OptimizationLevel Level) {
    if (Level == OptimizationLevel::O0)
      return;
    MPM.addPass(IPSCCPPass());
    MPM.addPass(GlobalOptPass());
    MPM.addPass(createModuleToFunctionPassAdaptor(PromotePass()));
    MPM.addPass(DeadArgumentEliminationPass());
    FunctionPassManager Cleanup;
    Cleanup.addPass(InstCombinePass());
    Cleanup.addPass(SimplifyCFGPass());
    MPM.addPass(createModuleToFunctionPassAdaptor(std::move(Cleanup)));
    Xprof(MPM, Level);
  });
  // The inliner is done before the vectorizer starts: an asm statement in
  // a loop would keep it from vectorizing the loop.  The optimizer's last
  // step catches pipelines without a vectorizer.
  PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
    FPM.addPass(DropInlineBonusPass());
  });
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel Level) {
    MPM.addPass(createModuleToFunctionPassAdaptor(DropInlineBonusPass()));
    // Last, as LLVM's own pipeline places it: after inlining and the
    // loop optimizations, which then see the whole function.
    if (Level != OptimizationLevel::O0)
      MPM.addPass(SplitColdPass());
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "xprof-collect") {
          MPM.addPass(XprofPass(XL_MODE_COLLECT));
          return true;
        }
        if (Name == "xprof-use") {
          MPM.addPass(XprofPass(XL_MODE_USE));
          return true;
        }
        if (Name == "xprof") {
          MPM.addPass(XprofPass());
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
        if (Name != DropInlineBonusPass::name())
          return false;
        FPM.addPass(DropInlineBonusPass());
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "xprof", XPROF_VERSION, registerCallbacks};
}

// ---- helpers -----------------------------------------------------------

// The C++ runtime's functions that never return but always throw.
static bool onlyThrows(const Function *F) {
  if (!F || !F->isDeclaration())
    return false;
  StringRef N = F->getName();
  return N == "__cxa_throw" || N == "__cxa_rethrow" || N == "_Unwind_Resume" ||
         N == "__cxa_bad_cast" || N == "__cxa_bad_typeid" ||
         N == "__cxa_throw_bad_array_new_length" ||
         (N.startswith("_ZSt") && N.contains("__throw_")); // std::__throw_*
}

static bool endsWithoutProfile(const CallBase *CB);

// May the call leave by exit or longjmp, abandoning the caller's frame?
// (Throwing is not asked about here.)
static bool mayExitOrJump(const CallBase *CB) {
  const Function *F = CB->getCalledFunction();
  if (RelaxPointerCalls && CB->isIndirectCall())
    return false;
  if (F && ReturnsOrThrows.count(F))
    return false;
  if (CB->doesNotReturn())
    return !onlyThrows(F) && !endsWithoutProfile(CB);
  if (F && LibReturning.count(F) && !CB->getFunction()->hasFnAttribute("no-builtins"))
    return false;
  if (CB->hasFnAttr(Attribute::WillReturn))
    return false;
  if (F && (F->hasFnAttribute(Attribute::WillReturn) ||
            (F->onlyReadsMemory() && F->mustProgress())))
    return false;
  return true;
}

// Can an exception pass this invoke's landing pad without entering it?
// The unwinder skips a pad with no cleanup when no clause takes the
// exception: only a catch-all or an empty filter takes every one.
static bool padMaySkip(const InvokeInst *II) {
  const auto *LP = dyn_cast<LandingPadInst>(II->getUnwindDest()->getFirstNonPHI());
  if (!LP)
    return true; // funclet EH (not on Linux): assume the worst
  if (LP->isCleanup())
    return false;
  for (unsigned i = 0; i < LP->getNumClauses(); i++) {
    const Constant *C = LP->getClause(i);
    if (LP->isCatch(i) && C->isNullValue())
      return false;
    if (LP->isFilter(i) && cast<ArrayType>(C->getType())->getNumElements() == 0)
      return false;
  }
  return true;
}

// An invoke leaves the calling function other than by its two edges when
// an exception passes its landing pad by, or when the callee exits or
// longjmps.
static bool invokeMayNotReturn(const InvokeInst *II) {
  if (!II->doesNotThrow() && padMaySkip(II))
    return true;
  if (OptCallsReturn)
    return false; // the user traded exactness across exit/longjmp for speed
  return mayExitOrJump(II);
}

// Does the call possibly leave the calling function other than by
// returning to it (exit, longjmp, an exception the caller does not
// catch)?  Then its block gets a fake edge to EXIT.
static bool mayNotReturn(const CallBase *CB) {
  // A coroutine's resume and destroy functions return at llvm.coro.end
  // (CoroSplit makes it a ret there); only the ramp goes on past it.
  // coro.resume and coro.destroy (calls, after CoroEarly) run the
  // coroutine's code, which may throw or exit.
  if (const auto *II = dyn_cast<IntrinsicInst>(CB)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    return ID == Intrinsic::coro_end || ID == Intrinsic::coro_resume ||
           ID == Intrinsic::coro_destroy;
  }
  if (CB->isInlineAsm())
    return false;
  if (const auto *II = dyn_cast<InvokeInst>(CB))
    return invokeMayNotReturn(II);
  if (OptCallsReturn && CB->doesNotThrow())
    return false; // the user traded exactness across exit/longjmp for speed
  if (CB->doesNotReturn())
    return false; // followed by unreachable: that is its exit edge
  const Function *F = CB->getCalledFunction();
  if (F && Returning.count(F))
    return false;
  if (!CB->doesNotThrow())
    return true; // willreturn allows unwinding
  return mayExitOrJump(CB);
}

// Noreturn calls that end the process without atexit handlers, so
// without a profile to get wrong.
static bool endsWithoutProfile(const CallBase *CB) {
  if (auto *II = dyn_cast<IntrinsicInst>(CB))
    return II->getIntrinsicID() == Intrinsic::trap ||
           II->getIntrinsicID() == Intrinsic::ubsantrap;
  const Function *F = CB->getCalledFunction();
  if (!F || !F->isDeclaration()) // the C library's, not one of the program's
    return false;
  return xprof_ends_without_profile(F->getName().str().c_str());
}

// Given the current set, does F surely return?  Noreturn calls count
// against it but for those that end the process without a profile.
static bool functionReturns(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<ResumeInst>(I) || isa<CleanupReturnInst>(I) ||
          isa<CatchSwitchInst>(I))
        return false; // may unwind to the caller
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->doesNotReturn()) {
        if (!endsWithoutProfile(CB))
          return false;
      } else if (!isa<InvokeInst>(CB) && mayNotReturn(CB)) {
        return false;
      } else if (auto *II = dyn_cast<InvokeInst>(CB)) {
        const Function *G = II->getCalledFunction();
        if (!G || !Returning.count(G))
          return false; // its landing pad may rethrow
      }
    }
  return true;
}

// Given the current set, does F surely leave by returning or throwing?
static bool functionReturnsOrThrows(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (CB && !isa<IntrinsicInst>(CB) && !CB->isInlineAsm() && mayExitOrJump(CB))
        return false;
    }
  return true;
}

// The C library's functions return, but for those that run code of the
// program (qsort's comparison), replace the process (exec*) or return
// twice as far as the counts go (fork: the child counts from zero, so
// parent and child together leave each frame on the stack once more than
// they entered it; the fake edge takes the difference, as GCC's does).  A
// signal handler that leaves by longjmp is not seen, here as anywhere.
static void findLibReturning(Module &M) {
  static const LibFunc Leaving[] = {
      LibFunc_qsort,  LibFunc_execl,  LibFunc_execle, LibFunc_execlp,  LibFunc_execv,
      LibFunc_execvP, LibFunc_execve, LibFunc_execvp, LibFunc_execvpe, LibFunc_fork};
  TargetLibraryInfoImpl TLII{Triple(M.getTargetTriple())};
  for (const Function &F : M) {
    LibFunc LF;
    if (!F.isDeclaration() || !TLII.getLibFunc(F, LF))
      continue;
    bool leaves = false;
    for (LibFunc L : Leaving)
      leaves |= L == LF;
    if (!leaves)
      LibReturning.insert(&F);
  }
}

// Shrink Set to the greatest subset whose every function passes Keeps
// with the set as it stands (so recursion can be in it).
static void shrinkToFixpoint(Module &M, DenseSet<const Function *> &Set,
                             bool (*Keeps)(const Function &)) {
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasExactDefinition())
      Set.insert(&F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M)
      if (Set.count(&F) && !Keeps(F)) {
        Set.erase(&F);
        Changed = true;
      }
  }
}

// The functions that surely return, and those that surely return or
// throw: start from every function whose body is the one that runs, drop
// those that call one outside the set until none is dropped.  Computed
// before any function changes, the same in both modes.
static void findReturning(Module &M) {
  Returning.clear();
  ReturnsOrThrows.clear();
  LibReturning.clear();
  if (OptCallsReturn)
    return;
  findLibReturning(M);
  shrinkToFixpoint(M, ReturnsOrThrows, functionReturnsOrThrows);
  shrinkToFixpoint(M, Returning, functionReturns);
  RelaxedReturning.clear();
  RelaxedReturnsOrThrows.clear();
  if (!OptPointerCallsReturn)
    return;
  RelaxedView Relaxed;
  shrinkToFixpoint(M, ReturnsOrThrows, functionReturnsOrThrows);
  shrinkToFixpoint(M, Returning, functionReturns);
}

// 0: the call surely returns (or throws where the CFG has an edge for
// it); 2: it may leave its caller otherwise -- its block gets a fake edge;
// 1: it may, but only through a call through a pointer somewhere below
// it, and that call's own block has the fake edge.  If a frame at such a
// call is abandoned, so is the frame of the first call through a pointer
// below it, which is in this module (everything in between is a function
// defined here, or a C library function that calls no program code): the
// use build finds those calls' fake edges counted and says so, where
// the blocks with calls of kind 1 would have been counted one more time
// each than they left (see use.c).
extern "C" int xl_call_risk(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  if (!CB || !mayNotReturn(CB))
    return 0;
  if (!OptPointerCallsReturn || CB->isIndirectCall())
    return 2;
  RelaxedView Relaxed;
  return mayNotReturn(CB) ? 2 : 1;
}

// The blocks of the module whose counts a call through a pointer that did
// not return may have made inexact: those with a call of kind 1 to a
// function from which one of the functions in Bad (where such calls
// were made) can be reached through direct calls.
extern "C" uint64_t xl_uncertain_blocks(LLVMModuleRef m, const LLVMValueRef *bad,
                                        unsigned n_bad) {
  Module &M = *unwrap(m);
  DenseSet<const Function *> Reach;
  for (unsigned i = 0; i < n_bad; i++)
    Reach.insert(cast<Function>(unwrap(bad[i])));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M) {
      if (F.isDeclaration() || Reach.count(&F))
        continue;
      for (const Instruction &I : instructions(F)) {
        const auto *CB = dyn_cast<CallBase>(&I);
        const Function *G = CB ? CB->getCalledFunction() : nullptr;
        if (G && Reach.count(G)) {
          Reach.insert(&F);
          Changed = true;
          break;
        }
      }
    }
  }
  uint64_t N = 0;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        const Function *G = CB ? CB->getCalledFunction() : nullptr;
        if (G && Reach.count(G) && xl_call_risk(wrap(CB)) == 1) {
          N++;
          break;
        }
      }
  return N;
}

extern "C" void xl_set_inaccessible_mem_only(LLVMValueRef call) {
  auto *CB = cast<CallBase>(unwrap(call));
#if LLVM_VERSION_MAJOR >= 16
  CB->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
#else
  CB->addFnAttr(Attribute::InaccessibleMemOnly);
#endif
}

extern "C" LLVMValueRef xl_memop_length(LLVMValueRef inst) {
  Value *Len = nullptr;
  if (auto *MI = dyn_cast<MemIntrinsic>(unwrap(inst))) {
    if (isa<MemCpyInlineInst>(MI))
      return nullptr; // always expanded inline
    Len = MI->getLength();
  } else if (auto *CI = dyn_cast<CallInst>(unwrap(inst))) {
    const Function *F = CI->getCalledFunction();
    if (F && F->isDeclaration() && CI->arg_size() == 3 &&
        (F->getName() == "memcmp" || F->getName() == "bcmp"))
      Len = CI->getArgOperand(2);
  }
  return Len && !isa<Constant>(Len) && Len->getType()->isIntegerTy() ? wrap(Len)
                                                                      : nullptr;
}

extern "C" int xl_call_returns_twice(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  return CB && CB->hasFnAttr(Attribute::ReturnsTwice);
}

extern "C" void xl_split_after_returns_twice(LLVMValueRef fn) {
  Function *F = cast<Function>(unwrap(fn));
  std::vector<Instruction *> at;
  for (BasicBlock &BB : *F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->hasFnAttr(Attribute::ReturnsTwice) && !I.getNextNode()->isTerminator())
          at.push_back(I.getNextNode());
  for (Instruction *I : at)
    I->getParent()->splitBasicBlock(I);
}

// The shared pad's landingpad becomes a PHI of the copies in the new
// pads; the unwinder enters each new pad as it entered the shared one.
static void splitLandingPad(BasicBlock *Pad) {
  SmallVector<BasicBlock *, 8> Preds;
  for (BasicBlock *P : predecessors(Pad))
    if (!is_contained(Preds, P))
      Preds.push_back(P);
  if (Preds.size() < 2)
    return;
  LandingPadInst *LP = Pad->getLandingPadInst();
  PHINode *PN = PHINode::Create(LP->getType(), Preds.size(), LP->getName() + ".xp", LP);
  for (BasicBlock *P : Preds) {
    BasicBlock *NB = BasicBlock::Create(Pad->getContext(), Pad->getName() + ".xp",
                                        Pad->getParent(), Pad);
    Instruction *Copy = LP->clone();
    BranchInst *Br = BranchInst::Create(Pad, NB);
    Br->setDebugLoc(LP->getDebugLoc());
    Copy->insertBefore(Br);
    P->getTerminator()->replaceSuccessorWith(Pad, NB);
    Pad->replacePhiUsesWith(P, NB);
    PN->addIncoming(Copy, NB);
  }
  LP->replaceAllUsesWith(PN);
  LP->eraseFromParent();
}

extern "C" void xl_split_landing_pads(LLVMValueRef fn) {
  Function *F = cast<Function>(unwrap(fn));
  std::vector<BasicBlock *> Pads;
  for (BasicBlock &BB : *F)
    if (BB.isLandingPad())
      Pads.push_back(&BB);
  for (BasicBlock *Pad : Pads)
    splitLandingPad(Pad);
}

extern "C" LLVMBasicBlockRef xl_split_edge(LLVMValueRef term, unsigned succ) {
  Instruction *TI = cast<Instruction>(unwrap(term));
  BasicBlock *BB = SplitCriticalEdge(TI, succ, CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
  return BB ? wrap(BB) : nullptr;
}

extern "C" LLVMBasicBlockRef xl_split_block_at_start(LLVMBasicBlockRef bb) {
  BasicBlock *BB = unwrap(bb);
  return wrap(BB->splitBasicBlock(BB->getFirstNonPHI()));
}

extern "C" LLVMBasicBlockRef xl_split_block_before(LLVMValueRef inst) {
  Instruction *I = unwrap<Instruction>(inst);
  return wrap(I->getParent()->splitBasicBlock(I));
}

extern "C" LLVMValueRef xl_first_insertion_point(LLVMBasicBlockRef bb) {
  BasicBlock *BB = unwrap(bb);
  auto It = BB->getFirstInsertionPt();
  if (It == BB->end())
    return nullptr;
  return wrap(&*It);
}

extern "C" int xl_is_eh_pad_block(LLVMBasicBlockRef bb) { return unwrap(bb)->isEHPad(); }

extern "C" unsigned xl_mark_cycle_blocks(LLVMValueRef fn, unsigned char *on_cycle) {
  Function &F = *unwrap<Function>(fn);
  DenseMap<const BasicBlock *, unsigned> Index;
  for (const BasicBlock &BB : F) {
    unsigned I = Index.size();
    Index[&BB] = I;
    on_cycle[I] = 0;
  }
  unsigned N = 0;
  // Strongly connected components: a block is on a cycle when its
  // component has one (more than one block, or a branch to itself).
  for (scc_iterator<Function *> C = scc_begin(&F); !C.isAtEnd(); ++C)
    if (C.hasCycle())
      for (const BasicBlock *BB : *C) {
        on_cycle[Index[BB]] = 1;
        N++;
      }
  return N;
}

namespace {
struct Freq {
  DominatorTree DT;
  LoopInfo LI;
  BranchProbabilityInfo BPI;
  BlockFrequencyInfo BFI;
  explicit Freq(Function &F) : DT(F), LI(DT), BPI(F, LI), BFI(F, BPI, LI) {}
};
} // namespace

extern "C" void *xl_freq_open(LLVMValueRef fn) {
  return new Freq(*cast<Function>(unwrap(fn)));
}

extern "C" uint64_t xl_freq_block(void *h, LLVMBasicBlockRef bb) {
  return static_cast<Freq *>(h)->BFI.getBlockFreq(unwrap(bb)).getFrequency();
}

extern "C" uint64_t xl_freq_edge(void *h, LLVMBasicBlockRef src, unsigned succ) {
  Freq *F = static_cast<Freq *>(h);
  BasicBlock *BB = unwrap(src);
  return F->BPI.getEdgeProbability(BB, succ).scale(F->BFI.getBlockFreq(BB).getFrequency());
}

extern "C" void xl_freq_close(void *h) { delete static_cast<Freq *>(h); }

// ---- counter promotion -------------------------------------------------

// By default only for atomic updates, where it saves a locked add per
// iteration.  A per-thread or single-threaded update is one plain add
// either way; kept in a register it costs a set-up and a flush per pass
// through the loop and registers that big loops then spill (clang,
// measured input, instructions, before -> after turning it off: bzip2
// 1.880e9 -> 1.684e9, zstd 7.44e8 -> 7.08e8, lua 4.205e9 -> 4.163e9,
// sqlite 2.232e9 -> 2.179e9; wall times no worse within this machine's
// noise).

// A loop whose counts can wait for its exits: nothing in it leaves the
// function another way (calls that may exit or longjmp, returns,
// unreachable); given a preheader to start from and exits reached only
// from inside it (made as LoopSimplify makes them).  Loops with calls
// that surely return were tried too: the counters then live across the
// calls, and collection got slower (zstd 1.20x -> 1.32x in instructions).
static bool promotable(Loop *L, DominatorTree &DT, LoopInfo &LI) {
  for (const BasicBlock *BB : L->blocks()) {
    if (succ_empty(BB))
      return false;
    for (const Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(CB) || CB->isInlineAsm())
          return false;
  }
  SmallVector<BasicBlock *, 8> Exits;
  L->getUniqueExitBlocks(Exits);
  for (const BasicBlock *E : Exits)
    if (E->isEHPad())
      return false;
  if (Exits.empty())
    return false;
  if (!L->getLoopPreheader() && !InsertPreheaderForLoop(L, &DT, &LI, nullptr, false))
    return false;
  if (!L->hasDedicatedExits())
    formDedicatedExitBlocks(L, &DT, &LI, nullptr, false);
  return L->getLoopPreheader() && L->hasDedicatedExits();
}

// The counter's address, usable at `Before`: a constant, or a copy of the
// GEP from the thread's copy (defined at function entry).
static Value *addressAt(Value *P, Instruction *Before) {
  auto *G = dyn_cast<GetElementPtrInst>(P);
  if (!G)
    return P;
  Instruction *C = G->clone();
  C->insertBefore(Before);
  return C;
}

extern "C" void xl_promote_counters(LLVMValueRef fn, LLVMValueRef *updates, unsigned n) {
  Function &F = *cast<Function>(unwrap(fn));
  if (F.hasOptNone() || n == 0)
    return;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (LI.empty())
    return;
  Type *I64 = Type::getInt64Ty(F.getContext());
  DenseMap<const Loop *, bool> Ok;
  Instruction *AllocaAt = &*F.getEntryBlock().getFirstInsertionPt();
  for (unsigned i = 0; i < n; i++) {
    Instruction *U = unwrap<Instruction>(updates[i]);
    Loop *L = LI.getLoopFor(U->getParent());
    if (!L)
      continue;
    auto It = Ok.find(L);
    if (It == Ok.end())
      It = Ok.insert({L, promotable(L, DT, LI)}).first;
    if (!It->second)
      continue;
    auto *RMW = dyn_cast<AtomicRMWInst>(U);
    auto *St = dyn_cast<StoreInst>(U);
    Value *P = RMW ? RMW->getPointerOperand() : St->getPointerOperand();
    auto *Ld = St ? dyn_cast<LoadInst>(cast<Instruction>(St->getValueOperand())->getOperand(0))
                  : nullptr;
    if (St && (!Ld || Ld->getPointerOperand() != P))
      continue; // not the shape we emitted
    MDNode *Tag = U->getMetadata(LLVMContext::MD_tbaa);
    AllocaInst *A = new AllocaInst(I64, 0, "xprof.local", AllocaAt);
    new StoreInst(ConstantInt::get(I64, 0), A, L->getLoopPreheader()->getTerminator());
    if (RMW) {
      IRBuilder<> B(RMW);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, A), RMW->getValOperand()), A);
      RMW->eraseFromParent();
    } else {
      Ld->setOperand(0, A); // a register after SROA: no longer volatile
      St->setOperand(1, A);
      Ld->setVolatile(false);
      St->setVolatile(false);
    }
    SmallVector<BasicBlock *, 8> Exits;
    L->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits) {
      IRBuilder<> B(&*E->getFirstInsertionPt());
      Value *V = B.CreateLoad(I64, A, "xprof.pending");
      Value *Q = addressAt(P, &*B.GetInsertPoint());
      if (RMW) {
        B.CreateAtomicRMW(AtomicRMWInst::Add, Q, V, MaybeAlign(8), AtomicOrdering::Monotonic)
            ->setMetadata(LLVMContext::MD_tbaa, Tag);
      } else {
        LoadInst *Old = B.CreateLoad(I64, Q, "xprof.ctr");
        Old->setMetadata(LLVMContext::MD_tbaa, Tag);
        B.CreateStore(B.CreateAdd(Old, V), Q)->setMetadata(LLVMContext::MD_tbaa, Tag);
      }
    }
    if (auto *G = dyn_cast<GetElementPtrInst>(P))
      if (G->use_empty())
        G->eraseFromParent();
  }
}

extern "C" void xl_record_value(LLVMValueRef before, LLVMValueRef state, LLVMValueRef value,
                                LLVMValueRef recorder, LLVMValueRef arg, unsigned pairs,
                                int atomic) {
  Instruction *At = cast<Instruction>(unwrap(before));
  Function *F = At->getFunction();
  LLVMContext &Ctx = F->getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Value *State = unwrap(state), *V = unwrap(value);
  BasicBlock *Check = At->getParent();
  BasicBlock *Join = Check->splitBasicBlock(At, "xprof.vp.join");
  Check->getTerminator()->eraseFromParent();
  MDBuilder MDB(Ctx);
  for (unsigned k = 0; k < pairs; k++) {
    IRBuilder<> B(Check);
    Value *Kept = B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, State, 2 + 2 * k),
                               "xprof.vp.value");
    BasicBlock *Hit = BasicBlock::Create(Ctx, "xprof.vp.hit", F, Join);
    BasicBlock *Next = BasicBlock::Create(Ctx, "xprof.vp.next", F, Join);
    B.CreateCondBr(B.CreateICmpEQ(Kept, V), Hit, Next, MDB.createBranchWeights(4, 1));
    IRBuilder<> H(Hit);
    Value *Count = H.CreateConstInBoundsGEP1_64(I64, State, 3 + 2 * k);
    if (atomic)
      H.CreateAtomicRMW(AtomicRMWInst::Add, Count, ConstantInt::get(I64, 1), MaybeAlign(8),
                        AtomicOrdering::Monotonic);
    else
      H.CreateStore(H.CreateAdd(H.CreateLoad(I64, Count), ConstantInt::get(I64, 1)), Count);
    H.CreateBr(Join);
    Check = Next;
  }
  IRBuilder<> B(Check);
  FunctionCallee Rec(cast<Function>(unwrap(recorder)));
  B.CreateCall(Rec, {State, unwrap(arg)});
  B.CreateBr(Join);
}

// A length's histogram bucket (xprof_rt.h): the length itself up to 8;
// 9 + log2(length / 16) for 16, 32, 64 and 128; the last bucket for all
// others.
static uint8_t lengthBucket(uint64_t Len) {
  if (Len <= 8)
    return (uint8_t)Len;
  for (unsigned B = 9, P = 16; P <= 128; B++, P *= 2)
    if (Len == P)
      return (uint8_t)B;
  return XPROF_RT_VP_HIST_BUCKETS - 1;
}

// The buckets of the lengths 0 to 129 (129 standing for all longer ones),
// one constant per module: a table lookup is five instructions where
// computing the bucket took twelve (sqlite: 1.3 M memcmp calls in one
// comparison function alone).
static GlobalVariable *bucketTable(Module &M) {
  const char *Name = "__xprof_length_buckets";
  if (GlobalVariable *G = M.getNamedGlobal(Name))
    return G;
  uint8_t T[130];
  for (unsigned L = 0; L < 130; L++)
    T[L] = lengthBucket(L);
  Constant *Init = ConstantDataArray::get(M.getContext(), ArrayRef<uint8_t>(T));
  auto *G = new GlobalVariable(M, Init->getType(), true, GlobalValue::PrivateLinkage, Init, Name);
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return G;
}

extern "C" void xl_count_length(LLVMValueRef before, LLVMValueRef state, LLVMValueRef length,
                                int atomic) {
  Instruction *At = cast<Instruction>(unwrap(before));
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  auto K = [&](uint64_t v) { return ConstantInt::get(I64, v); };
  GlobalVariable *Table = bucketTable(*At->getModule());
  Value *Index = B.CreateBinaryIntrinsic(Intrinsic::umin, unwrap(length), K(129));
  Value *Entry = B.CreateInBoundsGEP(Table->getValueType(), Table, {K(0), Index});
  Value *Bucket = B.CreateZExt(B.CreateLoad(B.getInt8Ty(), Entry), I64, "xprof.bucket");
  Value *P = B.CreateInBoundsGEP(I64, unwrap(state), B.CreateAdd(Bucket, K(2)));
  if (atomic)
    B.CreateAtomicRMW(AtomicRMWInst::Add, P, K(1), MaybeAlign(8), AtomicOrdering::Monotonic);
  else
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), K(1)), P);
}

extern "C" int xl_address_taken(LLVMValueRef fn) {
  return cast<Function>(unwrap(fn))->hasAddressTaken();
}

extern "C" void xl_append_global_ctor(LLVMModuleRef m, LLVMValueRef fn, int dtor,
                                      int priority) {
  Module *M = unwrap(m);
  Function *F = cast<Function>(unwrap(fn));
  if (dtor)
    appendToGlobalDtors(*M, F, priority);
  else
    appendToGlobalCtors(*M, F, priority);
}

extern "C" uint64_t xl_md5(const char *s) { return MD5Hash(StringRef(s)); }

extern "C" int xl_promote_indirect_call(LLVMValueRef call, LLVMValueRef target,
                                        uint64_t count, uint64_t total) {
  auto *CB = cast<CallBase>(unwrap(call));
  Function *F = cast<Function>(unwrap(target));
  const char *reason = nullptr;
  if (!isLegalToPromote(*CB, F, &reason))
    return 0;
  pgo::promoteIndirectCall(*CB, F, count, total, true, nullptr);
  return 1;
}

extern "C" void xl_set_profile_summary(LLVMModuleRef m, uint64_t total, uint64_t max,
                                       uint64_t num_counts, uint64_t num_functions,
                                       const struct xl_summary_entry *d, unsigned n) {
  Module *M = unwrap(m);
  SummaryEntryVector detail;
  for (unsigned i = 0; i < n; i++)
    detail.push_back(ProfileSummaryEntry(d[i].cutoff, d[i].min_count, d[i].num_counts));
  ProfileSummary PS(ProfileSummary::PSK_Instr, detail, total, max, max, max,
                    (uint32_t)num_counts, (uint32_t)num_functions);
  M->setProfileSummary(PS.getMD(M->getContext()), ProfileSummary::PSK_Instr);
}

extern "C" void *xl_hotness_open(LLVMModuleRef m) {
  return new ProfileSummaryInfo(*unwrap(m));
}

extern "C" int xl_hotness(void *h, uint64_t entry, uint64_t max) {
  auto *PSI = static_cast<ProfileSummaryInfo *>(h);
  if (!PSI->hasProfileSummary())
    return 0;
  if (PSI->isHotCount(entry))
    return 1;
  return PSI->isColdCount(max) ? -1 : 0;
}

extern "C" int xl_hot_count(void *h, uint64_t count) {
  auto *PSI = static_cast<ProfileSummaryInfo *>(h);
  if (!PSI->hasProfileSummary())
    return -1;
  return PSI->isHotCount(count);
}

extern "C" void xl_hotness_close(void *h) { delete static_cast<ProfileSummaryInfo *>(h); }
