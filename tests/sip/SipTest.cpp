// SIP on the CPU: a listing's facts from the MC layer, the legality masks (labels, register and
// flag clashes, stores that may alias), a planted wrong move (a store swapped past the load that
// reads it back) caught by the tests, text the MC layer cannot encode, records SIP refuses, and a
// short run on a real tuned kernel. No timing asserts.
#include "sip/Annealing.h"
#include "sip/KernelLibrary.h"
#include "sip/Listing.h"
#include "sip/McLayer.h"
#include "sip/Moves.h"
#include "sip/NativeCode.h"
#include "sip/Refinement.h"
#include "sip/SampleTester.h"
#include "sip/Sip.h"

#include "support/Error.h"
#include "tune/Reference.h"
#include "tune/TunedKernel.h"
#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::sip {
namespace {

// The tuned kernels' ABI (inputs in %rdi, the output in %rsi): out[0..7] = lhs[0..7], then
// out[8..15] = 2 * out[0..7], read back from memory just stored.
constexpr const char* kStoreThenLoad = R"(
	.text
	.globl	tessera_kernel
	.type	tessera_kernel,@function
tessera_kernel:
	movq	(%rdi), %rax
	vmovups	(%rax), %ymm0
	vmovups	%ymm0, (%rsi)
	vmovups	(%rsi), %ymm1
	vaddps	%ymm1, %ymm1, %ymm1
	vmovups	%ymm1, 32(%rsi)
	vzeroupper
	retq
.Lfunc_end0:
	.size	tessera_kernel, .Lfunc_end0-tessera_kernel
	.section	".note.GNU-stack","",@progbits
)";

// lhs [1, 8], rhs [8, 16], out [1, 16]: the sizes kStoreThenLoad reads and writes.
const tune::Workload kToyWorkload = tune::parseWorkload("matmul:1x16x8");

size_t lineOf(const Listing& listing, const std::string& text) {
  for (size_t i = 0; i < listing.instructions.size(); ++i)
    if (listing.instructions[i].text == text) return i;
  ADD_FAILURE() << "no instruction " << text;
  return 0;
}

// The move of `instruction` in `direction`, if it is in the list.
bool hasMove(const std::vector<Move>& moves, const Listing& listing, size_t instruction, int direction) {
  for (size_t b = 0; b < listing.blocks.size(); ++b)
    for (size_t slot = 0; slot < listing.blocks[b].size(); ++slot)
      if (listing.blocks[b][slot] == instruction) return std::find(moves.begin(), moves.end(), Move{b, slot, direction}) != moves.end();
  return false;
}

TEST(SipListing, InstructionsCarryTheirDescriptions) {
  const Listing listing = parseListing(kStoreThenLoad);
  ASSERT_EQ(listing.instructions.size(), 8u);
  ASSERT_EQ(listing.blocks.size(), 1u); // between the label and .Lfunc_end0
  const Instruction& load = listing.instructions[lineOf(listing, "vmovups\t(%rax), %ymm0")];
  EXPECT_TRUE(load.mayLoad);
  EXPECT_FALSE(load.mayStore);
  EXPECT_TRUE(load.movable);
  ASSERT_TRUE(load.address);
  EXPECT_EQ(load.address->width, 32);
  EXPECT_EQ(load.address->displacement, 0);
  const Instruction& store = listing.instructions[lineOf(listing, "vmovups\t%ymm1, 32(%rsi)")];
  EXPECT_TRUE(store.mayStore);
  EXPECT_TRUE(store.movable);
  EXPECT_EQ(store.address->displacement, 32);
  EXPECT_FALSE(listing.instructions[lineOf(listing, "movq\t(%rdi), %rax")].movable); // a scalar load is not SIP's
  EXPECT_TRUE(listing.instructions[lineOf(listing, "retq")].barrier);
  EXPECT_EQ(listing.movableCount(), 4u);
  // Rendering the unmoved schedule gives back the text the MC layer parsed.
  EXPECT_EQ(parseListing(listing.text()).instructions.size(), listing.instructions.size());
}

TEST(SipLegality, DepsMasksRegisterClashesAliasingStoresAndBarriers) {
  const Listing listing = parseListing(kStoreThenLoad);
  const Schedule schedule(listing);
  const std::vector<Move> deps = legalMoves(listing, schedule, Legality::Deps);
  const std::vector<Move> none = legalMoves(listing, schedule, Legality::None);
  const size_t firstLoad = lineOf(listing, "vmovups\t(%rax), %ymm0");
  const size_t firstStore = lineOf(listing, "vmovups\t%ymm0, (%rsi)");
  const size_t readBack = lineOf(listing, "vmovups\t(%rsi), %ymm1");
  const size_t lastStore = lineOf(listing, "vmovups\t%ymm1, 32(%rsi)");
  // RAW on %rax (the load's base) and on %ymm0 (the store's data): masked under deps only.
  EXPECT_FALSE(hasMove(deps, listing, firstLoad, -1));
  EXPECT_TRUE(hasMove(none, listing, firstLoad, -1));
  EXPECT_FALSE(hasMove(deps, listing, firstStore, -1));
  // The store and the load of the same bytes: masked; SIP's none lets the tests judge it.
  EXPECT_FALSE(hasMove(deps, listing, firstStore, +1));
  EXPECT_FALSE(hasMove(deps, listing, readBack, -1));
  EXPECT_TRUE(hasMove(none, listing, readBack, -1));
  // Past vzeroupper (which writes every vector register) or ret: never under deps.
  EXPECT_FALSE(hasMove(deps, listing, lastStore, +1));
  EXPECT_TRUE(hasMove(none, listing, lastStore, +1));
  EXPECT_LT(deps.size(), none.size());
  for (const Move& move : none) EXPECT_TRUE(listing.instructions[listing.blocks[move.block][move.slot]].movable);
}

TEST(SipLegality, FlagsDisjointAddressesAndLabels) {
  const Listing listing = parseListing(R"(
	.text
f:
	addq	$1, %rax
	adcq	$0, %rbx
	vmovups	%ymm2, (%rcx)
	vmovups	64(%rcx), %ymm3
	vmovups	16(%rcx), %ymm4
	vmovups	(%rdx), %ymm5
.LBB0_1:
	vbroadcastss	(%r8), %ymm6
	prefetcht0	256(%r9)
	retq
)");
  ASSERT_EQ(listing.blocks.size(), 2u);
  const auto& in = listing.instructions;
  auto at = [&](const char* text) { return in[lineOf(listing, text)]; };
  // adc reads the carry that add writes: a flags clash, though they share no named register.
  EXPECT_FALSE(canSwap(at("addq\t$1, %rax"), at("adcq\t$0, %rbx")));
  // A store and a load 64 bytes further on the same base cannot overlap (32-byte accesses) ...
  EXPECT_TRUE(canSwap(at("vmovups\t%ymm2, (%rcx)"), at("vmovups\t64(%rcx), %ymm3")));
  // ... 16 bytes further they do, and through another base register they may.
  EXPECT_FALSE(canSwap(at("vmovups\t%ymm2, (%rcx)"), at("vmovups\t16(%rcx), %ymm4")));
  EXPECT_FALSE(canSwap(at("vmovups\t%ymm2, (%rcx)"), at("vmovups\t(%rdx), %ymm5")));
  // Two loads commute; a prefetch is movable and aliases nothing.
  EXPECT_TRUE(canSwap(at("vmovups\t64(%rcx), %ymm3"), at("vmovups\t16(%rcx), %ymm4")));
  EXPECT_TRUE(at("prefetcht0\t256(%r9)").movable);
  EXPECT_TRUE(at("vbroadcastss\t(%r8), %ymm6").movable);
  // The broadcast opens the second block: it has no move up, under either legality.
  const Schedule schedule(listing);
  const size_t broadcast = lineOf(listing, "vbroadcastss\t(%r8), %ymm6");
  EXPECT_FALSE(hasMove(legalMoves(listing, schedule, Legality::None), listing, broadcast, -1));
  EXPECT_TRUE(hasMove(legalMoves(listing, schedule, Legality::None), listing, broadcast, +1));
}

TEST(SipTesting, APlantedWrongMoveIsCaught) {
  const Listing listing = parseListing(kStoreThenLoad);
  const KernelLibrary tuned = buildKernelLibrary(listing.text(), false);
  ASSERT_TRUE(tuned.ok()) << tuned.error;
  // The load of out[0..7] moved above the store that writes it.
  Schedule planted(listing);
  const size_t readBack = lineOf(listing, "vmovups\t(%rsi), %ymm1");
  size_t slot = std::find(planted.order[0].begin(), planted.order[0].end(), readBack) - planted.order[0].begin();
  ASSERT_FALSE(canSwap(listing.instructions[planted.order[0][slot]], listing.instructions[planted.order[0][slot - 1]]));
  planted.apply({0, slot, -1});
  const KernelLibrary wrong = buildKernelLibrary(listing.render(planted.order), false);
  ASSERT_TRUE(wrong.ok()) << wrong.error;

  SampleTestOptions options;
  options.samples = 1000;
  const SampleTestResult caught = testOnSamples(kToyWorkload, tuned.library, wrong.library, options);
  EXPECT_FALSE(caught.passed);
  EXPECT_EQ(caught.tested, 1); // the first sample differs: out starts as NaN
  EXPECT_NE(caught.error.find("sample 0"), std::string::npos) << caught.error;
  const SampleTestResult same = testOnSamples(kToyWorkload, tuned.library, tuned.library, options);
  EXPECT_TRUE(same.passed) << same.error;
  EXPECT_EQ(same.tested, 1000);

  // Chunks side by side: every chunk of the wrong kernel fails, and the one reported is the first
  // sample's; a count that is not a multiple of the chunks is tested whole.
  SampleTestOptions sideBySide;
  sideBySide.samples = 50;
  sideBySide.samplesPerChild = 7;
  sideBySide.parallelChildren = 3;
  const SampleTestResult caughtSideBySide = testOnSamples(kToyWorkload, tuned.library, wrong.library, sideBySide);
  EXPECT_FALSE(caughtSideBySide.passed);
  EXPECT_EQ(caughtSideBySide.tested, 1);
  EXPECT_NE(caughtSideBySide.error.find("sample 0:"), std::string::npos) << caughtSideBySide.error;
  const SampleTestResult sameSideBySide = testOnSamples(kToyWorkload, tuned.library, tuned.library, sideBySide);
  EXPECT_TRUE(sameSideBySide.passed) << sameSideBySide.error;
  EXPECT_EQ(sameSideBySide.tested, 50);

  // In a search with SIP's legality the planted move is a counted wrong candidate, never the best.
  AnnealingOptions annealing;
  annealing.steps = 40;
  annealing.legality = Legality::None;
  SampleTestOptions quick;
  quick.samples = 3;
  int wrongCaught = 0;
  const Evaluate evaluate = [&](const std::string& assembly) {
    Evaluation evaluation;
    KernelLibrary built = buildKernelLibrary(assembly, false);
    if (!built.ok()) return Evaluation{Outcome::FailedAssemble, 0, built.error};
    SampleTestResult tested = testOnSamples(kToyWorkload, tuned.library, built.library, quick);
    if (!tested.passed) {
      ++wrongCaught;
      return Evaluation{tested.error.find("signal") != std::string::npos ? Outcome::FailedRun : Outcome::FailedTest, 0, tested.error};
    }
    // A stand-in for timing: a fixed score, so acceptance depends on the tests alone.
    evaluation.gflops = 1;
    return evaluation;
  };
  const AnnealingResult result = anneal(listing, evaluate, annealing);
  EXPECT_GT(result.failedTest + result.failedRun, 0);
  EXPECT_EQ(result.failedTest + result.failedRun, wrongCaught);
  const KernelLibrary best = buildKernelLibrary(listing.render(result.best.order), false);
  ASSERT_TRUE(best.ok());
  EXPECT_TRUE(testOnSamples(kToyWorkload, tuned.library, best.library, options).passed);
}

TEST(SipBadInput, TextTheMcLayerCannotEncodeIsAFailedAssembleNotACrash) {
  const AssembledObject object = assembleObject("\t.text\nf:\n\tvmovups\t%ymm0, %ymm99\n\tretq\n");
  EXPECT_FALSE(object.ok());
  EXPECT_NE(object.error.find("kernel.s:3"), std::string::npos) << object.error;
  const KernelLibrary library = buildKernelLibrary("\t.text\nf:\n\tnot_an_instruction\t%rax\n", false);
  EXPECT_FALSE(library.ok());
  EXPECT_TRUE(library.assembleFailed);
  EXPECT_THROW(parseListing("\tfrobnicate\t%rax\n"), Error);
  const std::unique_ptr<NativeCodeAdapter> x86 = x86McAdapter();
  EXPECT_EQ(x86->unavailableReason(), "");
  EXPECT_FALSE(x86->assemble("\tfrobnicate\t%rax\n").ok());
  EXPECT_TRUE(x86->assemble(kStoreThenLoad).ok());

  // In a search: counted as failed_assemble, and the search goes on.
  const Listing listing = parseListing(kStoreThenLoad);
  int calls = 0;
  const Evaluate evaluate = [&](const std::string&) {
    return ++calls == 1 ? Evaluation{Outcome::Ok, 1, ""} : Evaluation{Outcome::FailedAssemble, 0, "cannot encode"};
  };
  AnnealingOptions annealing;
  annealing.steps = 5;
  annealing.legality = Legality::None; // under deps this kernel has no legal move at all
  const AnnealingResult result = anneal(listing, evaluate, annealing);
  EXPECT_EQ(result.failedAssemble, 5);
  EXPECT_EQ(result.accepted, 0);
  EXPECT_TRUE(result.bestMoves.empty());
  annealing.legality = Legality::Deps;
  calls = 0;
  EXPECT_EQ(anneal(listing, evaluate, annealing).stopReason, "no legal move");
}

TEST(SipAnnealing, FollowsSipsSchedule) {
  const Listing listing = parseListing(kStoreThenLoad);
  AnnealingOptions annealing;
  annealing.steps = 5000;
  annealing.legality = Legality::None;
  const Evaluate constant = [](const std::string&) { return Evaluation{Outcome::Ok, 10, ""}; };
  const AnnealingResult result = anneal(listing, constant, annealing);
  // 1.0 x 0.997^n <= 0.05 first at n = 998: about a thousand steps, as the authors' code.
  EXPECT_EQ(result.stopReason, "temperature");
  EXPECT_EQ(result.steps, 998);
  EXPECT_EQ(result.accepted, result.steps); // equal throughput is always accepted
  ASSERT_FALSE(result.history.empty());
  EXPECT_DOUBLE_EQ(result.history.front().temperature, 1.0);

  const Evaluate broken = [](const std::string&) { return Evaluation{Outcome::FailedRun, 0, "signal 11"}; };
  EXPECT_THROW(anneal(listing, broken, annealing), Error);
}

TEST(SipAnnealing, ANewBestIsTimedTwiceAndKeepsTheLowerScore) {
  const Listing listing = parseListing(kStoreThenLoad);
  AnnealingOptions annealing;
  annealing.steps = 1;
  annealing.legality = Legality::None;
  std::vector<double> scores{10, 100, 11}; // the baseline, a lucky first timing, the second
  size_t call = 0;
  const Evaluate evaluate = [&](const std::string&) { return Evaluation{Outcome::Ok, scores.at(call++), ""}; };
  const AnnealingResult result = anneal(listing, evaluate, annealing);
  EXPECT_EQ(call, 3u);
  EXPECT_DOUBLE_EQ(result.bestGflops, 11);
  EXPECT_EQ(result.accepted, 1);
}

TEST(SipTiming, ImprovementIsTheGeometricMeanCutWithAnInterval) {
  const Improvement steady = summarize({2.0, 2.0, 2.0}, {1.8, 1.8, 1.8});
  EXPECT_NEAR(steady.meanPct, 10, 1e-9);
  EXPECT_NEAR(steady.lowPct, 10, 1e-9);
  EXPECT_TRUE(steady.significant());
  // One round the load slowed fivefold widens the interval across zero: no claim either way.
  const Improvement noisy = summarize({1.0, 1.0, 1.0, 1.0}, {0.9, 0.9, 0.9, 4.5});
  EXPECT_LT(noisy.lowPct, 0);
  EXPECT_GT(noisy.highPct, 0);
  EXPECT_FALSE(noisy.significant());
  EXPECT_DOUBLE_EQ(noisy.candidateMedianMs, 0.9);
}

TEST(SipRecord, RefusesARecordWhoseKernelIsNotTheOneMeasured) {
  tune::TuningRecord record;
  record.workload = "matmul:16x16x16";
  record.trace = "{not json";
  record.hash = "0123";
  try {
    lowerRecord(record);
    FAIL() << "a malformed trace was lowered";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("matmul:16x16x16"), std::string::npos) << e.what();
  }
  tune::Trace untuned;
  untuned.workload = record.workload;
  record.trace = tune::traceToJson(
      tune::lowerCandidate(tune::computeOf(tune::parseWorkload(record.workload)), untuned, tune::KernelLanguage::LlvmIr).trace);
  try {
    lowerRecord(record);
    FAIL() << "a record of another kernel was lowered";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tune the workload again"), std::string::npos) << e.what();
  }
}

TEST(SipRun, ShortRunOnATunedKernel) {
  tune::TuningDatabase database(":memory:");
  tune::CpuTuneSettings settings;
  settings.run.warmup = 0;
  settings.run.repeats = 1;
  settings.run.minRepeatMs = 0;
  settings.build.timeoutSeconds = 600;
  settings.language = tune::KernelLanguage::LlvmIr;
  auto context = tune::makeCpuTuneContext(tune::parseWorkload("matmul:32x32x32"), settings);
  context->database = &database;
  tune::TuneOptions tuneOptions;
  tuneOptions.trials = 2;
  tuneOptions.batchSize = 2;
  tune::tune(*context, tuneOptions);
  const std::optional<tune::TuningRecord> record = database.best("matmul:32x32x32", context->target);
  ASSERT_TRUE(record);

  SipOptions options;
  options.annealing.steps = 6;
  options.annealing.seed = 3;
  options.testSamples = 20;
  options.timingRounds = 2;
  options.run = settings.run;
  int progressSteps = 0;
  const SipRun run = runSip(*record, options, [&](const SipProgress& p) { progressSteps += p.step ? 1 : 0; });
  EXPECT_GT(run.listing.movableCount(), 0u);
  EXPECT_EQ(run.search.steps, 6);
  EXPECT_EQ(progressSteps, 6);
  EXPECT_LE(run.search.accepted + run.search.failedAssemble + run.search.failedRun + run.search.failedTest, run.search.steps);
  // The tuned kernel beside itself scores its record's GFLOP/s exactly, not a noisy ratio.
  EXPECT_DOUBLE_EQ(run.search.baselineGflops, record->gflops);
  EXPECT_GE(run.search.bestGflops, run.search.baselineGflops);
  // Under deps every candidate is a correct program.
  EXPECT_EQ(run.search.failedTest + run.search.failedRun, 0);
  if (run.bestDiffers) {
    EXPECT_TRUE(run.finalTestPassed) << run.finalTestError;
    EXPECT_EQ(run.samplesTested, 20);
    EXPECT_EQ(run.improvement.rounds, 2);
    EXPECT_FALSE(displacements(run.listing, run.search.best).empty());
  }

  // Stored as a refinement (as if it had won), the kernel loads through the tuner's builder like
  // any tuned kernel, computes the reference's result, and SIP's next run still starts from the base.
  SipRun won = run;
  won.improvement = summarize({1.0, 1.0}, {0.9, 0.9});
  const tune::TuningRecord refined = refinementRecord(*record, won, 3, Legality::Deps);
  EXPECT_NE(refined.hash, record->hash);
  EXPECT_NEAR(refined.latencyMs, record->latencyMs * 0.9, 1e-9);
  ASSERT_TRUE(database.add(refined));
  EXPECT_EQ(baseRecord(database, "matmul:32x32x32", context->target)->hash, record->hash);
  EXPECT_EQ(database.best("matmul:32x32x32", context->target)->hash, refined.hash);
  std::unique_ptr<tune::Builder> builder = tune::makeCpuBuilder();
  std::unique_ptr<tune::TunedKernel> kernel = tune::TunedKernel::load(refined, *builder);
  const tune::Problem problem = tune::makeProblem(run.workload, 17);
  std::vector<const float*> inputs;
  for (const auto& input : problem.inputs) inputs.push_back(input.data());
  std::vector<float> out(problem.expected.size(), std::numeric_limits<float>::quiet_NaN());
  kernel->run(inputs, out.data());
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_NEAR(out[i], problem.expected[i], problem.atol + problem.rtol * std::fabs(problem.expected[i])) << "element " << i;
  // A refinement whose machine code was altered is refused, naming the record.
  tune::TuningRecord altered = refined;
  altered.trace = tune::traceWithMachineCode(record->trace, {won.bestAssembly + "\tnop\n", won.openmp}, record->hash, "{}");
  EXPECT_THROW(tune::TunedKernel::load(altered, *builder), Error);
}

} // namespace
} // namespace tessera::sip
