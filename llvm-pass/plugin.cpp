// plugin.cpp - the plugin's entry and options, and the passes it adds
// to clang's pipeline: the xprof pass (collect or use, in collect.c and
// use.c), the pass that drops the inlining bonus once the inliner is done,
// and hot/cold splitting for use builds.
#include "llvm-compat.h"
#include "xprof-llvm.h"
#include "xprof_plan.h"
#include "xprof_abi.h"
#include "shim.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
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
//
// One LLVM option per entry of libxprof's option table (the GCC plugin's
// and the drivers' too): -xprof-NAME[=VALUE] (-xprofile=MODE for the
// mode), and -xprof-no-NAME for a flag.  They are strings, in the order
// given, which libxprof's parser reads as it reads the GCC plugin's
// arguments.

namespace {
struct TableOption {
  const xprof_option_info *Info;
  std::string Spelling; // without the leading '-'
  std::unique_ptr<cl::list<std::string>> Values;
};

struct TableOptions {
  std::vector<TableOption> All;
  TableOptions() {
    for (const xprof_option_info *I = xprof_option_table; I->name; I++) {
      if (!(I->flags & XPROF_OPT_LLVM))
        continue;
      std::string Name = I->name;
      add(I, Name == "xprofile" ? Name : "xprof-" + Name);
      if (I->flags & XPROF_OPT_FLAG)
        add(I, "xprof-no-" + Name);
    }
  }
  void add(const xprof_option_info *I, const std::string &Spelling) {
    All.push_back({I, Spelling, nullptr});
    TableOption &O = All.back();
    // The option keeps a reference to its name: the string lives in All,
    // which is not resized after the last push.
    O.Values = std::make_unique<cl::list<std::string>>(
        StringRef(strdup(Spelling.c_str())), cl::ZeroOrMore, cl::ValueOptional,
        cl::desc(std::string("xprof: ") + I->help));
  }
};
TableOptions Table;
} // namespace

// What the options say (once per process; XPROF_LLVM=collect[:NAME] or
// use[:NAME] gives the mode for builds that cannot add -mllvm options).
// An option that is wrong leaves the mode none, and OptionsError says
// what was wrong (the xprof pass reports it as an error of the
// compilation).
static std::string OptionsError;

static const xprof_options &options() {
  static xprof_options O;
  static bool Done;
  if (Done)
    return O;
  Done = true;
  xprof_options_init(&O);
  O.compiler = XPROF_OPT_LLVM;
  struct Given {
    unsigned Pos;
    std::string Name, Value;
    bool HasValue;
  };
  std::vector<Given> All;
  for (TableOption &T : Table.All)
    for (unsigned K = 0; K < T.Values->size(); K++) {
      std::string V = (*T.Values)[K];
      std::string Name = T.Spelling == "xprofile" ? "xprofile" : T.Spelling.substr(6);
      All.push_back({T.Values->getPosition(K), Name, V, !V.empty()});
    }
  std::stable_sort(All.begin(), All.end(),
                   [](const Given &A, const Given &B) { return A.Pos < B.Pos; });
  const char *Env = getenv("XPROF_LLVM");
  bool HasMode = std::any_of(All.begin(), All.end(),
                             [](const Given &G) { return G.Name == "xprofile"; });
  if (!HasMode && Env && *Env)
    All.insert(All.begin(), {0, "xprofile", Env, true});
  for (const Given &G : All) {
    xprof_error Err;
    if (xprof_options_set(&O, G.Name.c_str(), G.HasValue ? G.Value.c_str() : nullptr,
                          XPROF_OPT_LLVM, &Err) < 0) {
      OptionsError = (Twine("xprof: -") + (G.Name == "xprofile" ? "" : "xprof-") + G.Name +
                      (G.HasValue ? "=" + G.Value : "") + ": " +
                      (Err.code == XPROF_ERR_NOTFOUND ? "unknown option" : Err.msg))
                         .str();
      O.mode = XPROF_MODE_NONE;
      return O;
    }
  }
  xprof_error Err;
  if (O.mode != XPROF_MODE_NONE && xprof_options_finish(&O, &Err) < 0) {
    OptionsError = std::string("xprof: ") + Err.msg;
    O.mode = XPROF_MODE_NONE;
  }
  if (O.llvm.promote < 0)
    O.llvm.promote = O.update == XPROF_UPDATE_ATOMIC;
  return O;
}

// ---- diagnostics -----------------------------------------------------------

// libxprof's messages as diagnostics of the module's LLVMContext: clang's
// handler shows them as its own (a warning names -Wbackend-plugin, which
// -w, -Werror and -Wno-backend-plugin govern), opt's prints them.
namespace {
struct XprofDiagnostic : public DiagnosticInfo {
  const char *Text;
  XprofDiagnostic(DiagnosticSeverity Severity, const char *Text)
      : DiagnosticInfo(kind(), Severity), Text(Text) {}
  void print(DiagnosticPrinter &DP) const override { DP << Text; }
  static int kind() {
    static int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
};
} // namespace

extern "C" void xl_diagnose(LLVMModuleRef m, int kind, const char *text) {
  DiagnosticSeverity Severity = kind == XPROF_DIAG_ERROR ? DS_Error
                                : kind == XPROF_DIAG_NOTE ? DS_Remark
                                                          : DS_Warning;
  unwrap(m)->getContext().diagnose(XprofDiagnostic(Severity, text));
}

namespace {
struct XprofPass : PassInfoMixin<XprofPass> {
  int forced; // XPROF_MODE_* from opt's pipeline name, or 0
  explicit XprofPass(int m = 0) : forced(m) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    xprof_options o = options(); // a copy: the lists stay the options'
    if (!OptionsError.empty()) {
      xl_diagnose(wrap(&M), XPROF_DIAG_ERROR, OptionsError.c_str());
      return PreservedAnalyses::all();
    }
    if (forced)
      o.mode = (enum xprof_mode)forced;
    if (forced == XPROF_MODE_USE && !o.use_names.n) {
      static const char *AOut[] = {"a.out"};
      o.use_names.v = AOut;
      o.use_names.n = 1;
    }
    xl_drop_arm_marks(wrap(&M)); // before the graphs are read, in every mode
    int changed = 0;
    xl_find_returning(M, o.llvm.calls_return, o.llvm.pointer_calls_return);
    if (o.mode == XPROF_MODE_COLLECT)
      changed = xl_run_collect(wrap(&M), &o);
    else if (o.mode == XPROF_MODE_USE) {
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
    OS << (forced == XPROF_MODE_COLLECT ? "xprof-collect"
           : forced == XPROF_MODE_USE   ? "xprof-use"
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

// -xprofile_order: the functions the link can place get sections of
// their own, named as -ffunction-sections names them, decided after
// inlining:
// - a function LLVM calls hot (the predicate by which CodeGenPrepare gives
//   the .text.hot prefix): .text.hot.NAME;
// - a function that had hot code in training (use.c marked it) and that
//   LLVM no longer calls hot or cold, because the use build inlined its
//   hot paths into callers while other calls remain: .text.NAME.
// Without the order, GNU ld then groups .text.hot.* as it does in a use
// build compiled without -xprofile_order, and leaves .text.NAME in input
// order among .text; with it, the order places both kinds along the
// profile's call chains.  A function that is now cold (an extern function
// inlined everywhere it ran, whose out-of-line copy no longer runs) is
// left to LLVM's .text.unlikely.  The others share .text and its kin, as
// in a use build without the order (gcc-plugin/use.cc, own_section_start,
// says why).  A function with a section already keeps it; none is given
// one when the driver passed -ffunction-sections (options().
// function_sections: for -fsplit-machine-functions, which leaves alone
// functions with sections of their own).
struct OwnSectionPass : PassInfoMixin<OwnSectionPass> {
  static StringRef name() { return "xprof-own-section"; }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    const xprof_options &o = options();
    if (o.mode != XPROF_MODE_USE || !o.order || o.function_sections ||
        !M.getProfileSummary(/*IsCS=*/false))
      return PreservedAnalyses::all();
    ProfileSummaryInfo &PSI = AM.getResult<ProfileSummaryAnalysis>(M);
    auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    for (Function &F : M) {
      bool Marked = F.hasFnAttribute(XL_OWN_SECTION);
      F.removeFnAttr(XL_OWN_SECTION);
      // Without an entry count neither predicate holds (no block has a
      // count): no block frequencies to compute.
      if (F.isDeclaration() || F.hasSection() || F.hasComdat() || !F.getEntryCount())
        continue;
      BlockFrequencyInfo &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
      const char *Prefix = PSI.isFunctionHotInCallGraph(&F, BFI) ? ".text.hot."
                           : Marked && !F.hasFnAttribute(Attribute::Cold) &&
                                   !PSI.isFunctionColdInCallGraph(&F, BFI)
                               ? ".text."
                               : nullptr;
      if (Prefix)
        F.setSection((Prefix + F.getName()).str());
    }
    return PreservedAnalyses::all();
  }
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
    const xprof_options &o = options();
    if (o.llvm.split_cold == 0 || o.mode != XPROF_MODE_USE ||
        !M.getProfileSummary(/*IsCS=*/false))
      return PreservedAnalyses::all();
    ProfileSummaryInfo *PSI = &AM.getResult<ProfileSummaryAnalysis>(M);
    SmallVector<Function *, 16> Hidden;
    for (Function &F : M) {
      if (F.isDeclaration() || F.hasOptNone())
        continue;
      if (F.getInstructionCount() < o.llvm.split_cold || F.hasFnAttribute(Attribute::Cold) ||
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

// LLVM's option of that name, or null.
static cl::Option *llvmOption(const char *Name) {
  StringMap<cl::Option *> &Opts = cl::getRegisteredOptions();
  auto It = Opts.find(Name);
  return It != Opts.end() ? It->second : nullptr;
}

// Sets LLVM's option Name to Value for this compilation unless the
// command line gave it: what xprof turns on or off, the user can still
// set.
static void setUnlessGiven(const char *Name, const char *Value) {
  cl::Option *O = llvmOption(Name);
  if (O && O->getNumOccurrences() == 0)
    O->addOccurrence(0, Name, Value);
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
  if (options().mode == XPROF_MODE_COLLECT)
    setUnlessGiven("sink-common-insts", "false");
}

// Use builds lay out the blocks of functions with a profile by LLVM's
// ext-TSP model (Newell and Pupyrev: fall-throughs and short jumps,
// weighted by the edges' counts, over the whole function, as BOLT lays
// out blocks), which LLVM has but leaves off; its default placement
// builds chains greedily and places loops by rules of thumb.  The
// model's time grows with about the cube of a function's blocks that ran
// (measured with LLVM 14): tenths of a second for hundreds of blocks,
// seconds to minutes for thousands (docs/llvm-pass.md).  So a module
// whose busiest function ran more than -xprof-ext-tsp-blocks blocks
// keeps the default placement, and so do -Os and -Oz, where size comes
// first.  The setting is the compilation's, read by the code generator
// for each function after this pass, which runs when the optimizer is
// done and the blocks are nearly those the code generator sees.  An
// explicit -enable-ext-tsp-block-placement wins.
struct BlockLayoutPass : PassInfoMixin<BlockLayoutPass> {
  static StringRef name() { return "xprof-block-layout"; }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    const xprof_options &o = options();
    static const char ExtTspName[] = "enable-ext-tsp-block-placement";
    cl::Option *ExtTsp = llvmOption(ExtTspName);
    if (!OptionsError.empty() || o.mode != XPROF_MODE_USE || xprof_ext_tsp_blocks(&o) == 0 ||
        !ExtTsp || ExtTsp->getNumOccurrences())
      return PreservedAnalyses::all();
    // The first function over the limit decides: the blocks that ran,
    // by LLVM's frequencies and the function's entry count.
    auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    for (Function &F : M) {
      if (F.isDeclaration() || !F.hasProfileData())
        continue;
      BlockFrequencyInfo &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
      unsigned Ran = 0;
      for (BasicBlock &BB : F) {
        auto Count = BFI.getBlockProfileCount(&BB);
        Ran += Count && *Count > 0;
      }
      char Note[512];
      if (!xprof_ext_tsp_fits(&o, F.getName().str().c_str(), Ran, Note, sizeof Note)) {
        if (o.verbose)
          xl_diagnose(wrap(&M), XPROF_DIAG_NOTE, Note);
        return PreservedAnalyses::all();
      }
    }
    setUnlessGiven(ExtTspName, "true");
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

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
  int Threshold = (int)options().llvm.pre_inline;
  Params.DefaultThreshold = Threshold;
  Params.HintThreshold = Level.isOptimizingForSize() ? Threshold : 325;
  ModuleInlinerWrapperPass Inliner(Params);
  FunctionPassManager Clean;
  Clean.addPass(xl_compat::makeSROA());
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
  bool PreInline = Level != OptimizationLevel::O0 && options().llvm.pre_inline > 0;
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
  FPM.addPass(xl_compat::makeSROA());
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

// Before the clean-up speculates them: the small if-arms marked, so that
// both modes count them as branches (arms.c); the xprof pass drops the
// marks.
struct MarkArmsPass : PassInfoMixin<MarkArmsPass> {
  static StringRef name() { return "xprof-mark-arms"; }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    int Mode = options().mode;
    if (!OptionsError.empty() || (Mode != XPROF_MODE_COLLECT && Mode != XPROF_MODE_USE) ||
        !options().llvm.arms)
      return PreservedAnalyses::all();
    xl_mark_arms(wrap(&M));
    return PreservedAnalyses::none();
  }
};

// Use builds note each function's lines before the clean-up folds some
// away (xl_note_source_lines).
struct NoteSourceLinesPass : PassInfoMixin<NoteSourceLinesPass> {
  static StringRef name() { return "xprof-note-source-lines"; }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (OptionsError.empty() && options().mode == XPROF_MODE_USE)
      xl_note_source_lines(wrap(&M));
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// The module-wide clean-up that follows the early simplification
// extension point, run there first when optimizing: interprocedural
// constant propagation, global optimization, dead arguments.  Counters
// then go on the CFGs LLVM optimizes further, and use builds annotate
// those (bench/history.md); both modes run the same passes, so they
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
          MPM.addPass(XprofPass(Name == "xprof-collect" ? XPROF_MODE_COLLECT
                                : Name == "xprof-use"   ? XPROF_MODE_USE
                                                        : 0));
          return true;
        }
        if (Name == SplitColdPass::name()) {
          MPM.addPass(SplitColdPass());
          return true;
        }
        if (Name == OwnSectionPass::name()) {
          MPM.addPass(OwnSectionPass());
          return true;
        }
        if (Name == NoteSourceLinesPass::name()) {
          MPM.addPass(NoteSourceLinesPass());
          return true;
        }
        if (Name == MarkArmsPass::name()) {
          MPM.addPass(MarkArmsPass());
          return true;
        }
        if (Name == BlockLayoutPass::name()) {
          MPM.addPass(BlockLayoutPass());
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
    if (Level == OptimizationLevel::O0) {
      MPM.addPass(NoteSourceLinesPass());
      addXprof(MPM, Level);
    } else {
      MPM.addPass(MarkArmsPass());
    }
  });
  // Optimizing: where LLVM's own instrumentation runs (addPGOInstrPasses),
  // after the module-wide clean-up.
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level == OptimizationLevel::O0)
          return;
        MPM.addPass(NoteSourceLinesPass());
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
    MPM.addPass(OwnSectionPass());
    if (Level != OptimizationLevel::O0 && !Level.isOptimizingForSize())
      MPM.addPass(BlockLayoutPass());
  });
  registerPipelineNames(PB);
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "xprof", XPROF_VERSION, registerCallbacks};
}
