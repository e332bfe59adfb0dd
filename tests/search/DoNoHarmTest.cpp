// Do no harm as logic, not as timing: an executor whose run times the test chooses decides
// whether optimize keeps the candidate, and the comparison interleaves, warms up and stops as
// it says it does.
#include "cost/EndToEndComparison.h"
#include "interp/Interpreter.h"
#include "search/DoNoHarm.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// x -> relu^n -> y: graphs told apart by their op count.
Graph chain(int relus) {
  Graph g;
  ValueRef value{g.addInput("x", f32({2, 3}))};
  for (int i = 0; i < relus; ++i) value = {g.addNode(OpKind::Relu, {value})};
  g.addOutput(value, "y");
  return g;
}

// Runs nothing: a run of a graph with n ops "takes" msPerOp(n) times a seeded noise factor. It
// records the order of runs ('A' for the graph prepared first, 'B' for the second).
class ScriptedExecutor final : public GraphExecutor {
public:
  ScriptedExecutor(std::function<double(size_t ops)> msPerGraph, double noise) : msPerGraph_(std::move(msPerGraph)), noise_(noise) {}

  std::string device() const override { return "scripted"; }
  // The interpreter's outputs, but for graphs with `wrongOps` ops, whose first element is off.
  std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) override {
    std::vector<Tensor> outputs = runGraph(graph, inputs);
    if (graph.opCount() == wrongOps) outputs[0].mutableValues<float>()[0] += 1.0f;
    return outputs;
  }
  double measureLatencyMs(const Graph& graph, int, int) override { return msPerGraph_(graph.opCount()); }

  std::unique_ptr<TimedGraph> prepareTiming(const Graph& graph) override {
    const char label = static_cast<char>('A' + prepared_++);
    return std::make_unique<Timed>(*this, msPerGraph_(graph.opCount()), label);
  }

  std::string runs; // one letter per run, in order
  size_t wrongOps = 0; // 0: every graph computed right

private:
  class Timed final : public TimedGraph {
  public:
    Timed(ScriptedExecutor& owner, double ms, char label) : owner_(owner), ms_(ms), label_(label) {}
    double runMs() override {
      owner_.runs.push_back(label_);
      std::uniform_real_distribution<double> jitter(1 - owner_.noise_, 1 + owner_.noise_);
      return ms_ * jitter(owner_.random_);
    }

  private:
    ScriptedExecutor& owner_;
    double ms_;
    char label_;
  };

  std::function<double(size_t)> msPerGraph_;
  double noise_;
  int prepared_ = 0;
  std::mt19937_64 random_{42};
};

// A search result whose best graph is `candidate`, predicted 10 % faster than the original.
SearchResult resultWith(const Graph& candidate) {
  SearchResult result;
  result.best = candidate;
  result.originalCostMs = 1.0;
  result.bestCostMs = 0.9;
  result.speedupPct = 10.0;
  result.bestCandidate = 0;
  return result;
}

} // namespace

TEST(DoNoHarm, ASlowerCandidateGivesBackTheOriginal) {
  const Graph original = chain(2), candidate = chain(1);
  // The candidate has fewer ops but runs 10 % slower on this "device".
  ScriptedExecutor executor([](size_t ops) { return ops == 2 ? 10.0 : 11.0; }, 0.02);
  SearchResult result = resultWith(candidate);
  DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, result, executor);

  ASSERT_TRUE(outcome.comparison);
  EXPECT_TRUE(outcome.keptOriginal);
  EXPECT_NEAR(outcome.comparison->speedup.pct, -10.0, 4.0);
  EXPECT_LT(outcome.comparison->speedup.highPct, 0.0);
  EXPECT_EQ(result.best.opCount(), 2u) << "the original is returned";
  EXPECT_EQ(result.bestCostMs, result.originalCostMs);
  EXPECT_EQ(result.speedupPct, 0.0);
  EXPECT_EQ(result.bestCandidate, -1);
  // What the search had predicted stays on record.
  EXPECT_EQ(outcome.candidateSpeedupPct, 10.0);
  EXPECT_EQ(outcome.candidateCostMs, 0.9);
}

TEST(DoNoHarm, AFasterCandidateIsKept) {
  const Graph original = chain(2), candidate = chain(1);
  ScriptedExecutor executor([](size_t ops) { return ops == 2 ? 10.0 : 8.0; }, 0.02);
  SearchResult result = resultWith(candidate);
  DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, result, executor);

  ASSERT_TRUE(outcome.comparison);
  EXPECT_FALSE(outcome.keptOriginal);
  EXPECT_GT(outcome.comparison->speedup.lowPct, 0.0);
  EXPECT_NEAR(outcome.comparison->speedup.pct, 20.0, 4.0);
  // Found faster, then confirmed by a second comparison of its own pairs, which gives the figures.
  ASSERT_TRUE(outcome.screening);
  EXPECT_GT(outcome.screening->speedup.lowPct, 0.0);
  const size_t runsPerComparison = 2 * static_cast<size_t>(EndToEndOptions{}.warmup + outcome.screening->pairs);
  EXPECT_EQ(executor.runs.size(), runsPerComparison + 2 * static_cast<size_t>(EndToEndOptions{}.warmup + outcome.comparison->pairs));
  EXPECT_EQ(result.best.opCount(), 1u);
  EXPECT_EQ(result.speedupPct, 10.0);
  EXPECT_EQ(result.bestCandidate, 0);
}

// A first comparison that stops on a lucky stretch does not decide alone: when a second,
// independent one does not find the candidate faster, the original is returned.
TEST(DoNoHarm, AFirstLookThatASecondComparisonDoesNotConfirmGivesBackTheOriginal) {
  const Graph original = chain(2), candidate = chain(1);
  int prepared = 0; // graphs prepared for timing, two per comparison
  ScriptedExecutor executor(
      [&prepared](size_t ops) {
        ++prepared;
        return prepared <= 2 && ops == 1 ? 8.0 : 10.0; // the candidate is faster only during the first comparison
      },
      0.02);
  SearchResult result = resultWith(candidate);
  DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, result, executor);

  ASSERT_TRUE(outcome.screening);
  EXPECT_GT(outcome.screening->speedup.lowPct, 0.0);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_LE(outcome.comparison->speedup.lowPct, 0.0);
  EXPECT_TRUE(outcome.keptOriginal);
  EXPECT_EQ(result.best.opCount(), 2u);
  EXPECT_EQ(outcome.returnedSpeedupPct(), 0.0);
}

// Not faster beyond the noise is not faster: the original is returned.
TEST(DoNoHarm, ACandidateWithinTheNoiseGivesBackTheOriginal) {
  const Graph original = chain(2), candidate = chain(1);
  ScriptedExecutor executor([](size_t) { return 10.0; }, 0.05);
  SearchResult result = resultWith(candidate);
  EndToEndOptions options;
  options.targetHalfWidthPct = 0.1; // noise this large never narrows the interval so far
  DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, result, executor, options);

  ASSERT_TRUE(outcome.comparison);
  EXPECT_LE(outcome.comparison->speedup.lowPct, 0.0);
  EXPECT_TRUE(outcome.keptOriginal);
  EXPECT_EQ(outcome.comparison->pairs, options.maxPairs) << "an undecided comparison takes every pair it may";
  EXPECT_EQ(result.best.opCount(), 2u);
}

TEST(DoNoHarm, TheOriginalGraphItselfIsNotTimed) {
  const Graph original = chain(2);
  ScriptedExecutor executor([](size_t) { return 10.0; }, 0.0);
  SearchResult result = resultWith(chain(2));
  DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, result, executor);
  EXPECT_FALSE(outcome.comparison);
  EXPECT_FALSE(outcome.keptOriginal);
  EXPECT_TRUE(executor.runs.empty());
}

TEST(DoNoHarm, ACandidateTheExecutorComputesWrongIsNeitherTimedNorReturned) {
  const Graph original = chain(3), candidate = chain(2);
  // Much faster on this "device", but its outputs there are wrong.
  ScriptedExecutor executor([](size_t ops) { return ops == 2 ? 5.0 : 10.0; }, 0.0);
  executor.wrongOps = 2;
  SearchResult result = resultWith(candidate);
  const DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, result, executor);
  EXPECT_TRUE(outcome.keptOriginal);
  EXPECT_FALSE(outcome.comparison.has_value());
  EXPECT_TRUE(executor.runs.empty()) << "nothing is timed";
  EXPECT_EQ(result.best.opCount(), 3u);
  EXPECT_EQ(result.speedupPct, 0.0);
  EXPECT_NE(outcome.executorMismatch.find("the candidate's outputs on scripted differ from the interpreter's: output 0 element 0"),
            std::string::npos)
      << outcome.executorMismatch;

  // An executor that gets the original wrong cannot say the candidate is faster either.
  executor.wrongOps = 3;
  SearchResult again = resultWith(candidate);
  const DoNoHarmOutcome second = keepOriginalUnlessFaster(original, again, executor);
  EXPECT_TRUE(second.keptOriginal);
  EXPECT_NE(second.executorMismatch.find("the original's outputs"), std::string::npos) << second.executorMismatch;
}

TEST(EndToEndComparison, WarmsUpThenInterleavesInAlternatingOrder) {
  const Graph original = chain(2), candidate = chain(1);
  ScriptedExecutor executor([](size_t ops) { return ops == 2 ? 10.0 : 5.0; }, 0.0);
  EndToEndOptions options;
  options.warmup = 2;
  options.minPairs = 4;
  options.maxPairs = 10;
  EndToEndComparison comparison = compareEndToEnd(executor, original, candidate, options);
  // Decided after the minimum number of pairs: a constant 50 % is beyond doubt.
  EXPECT_EQ(comparison.pairs, 4);
  EXPECT_EQ(executor.runs, "ABAB" "AB" "BA" "AB" "BA");
  EXPECT_EQ(comparison.originalMs, 10.0);
  EXPECT_EQ(comparison.candidateMs, 5.0);
  EXPECT_NEAR(comparison.speedup.pct, 50.0, 1e-9);
  EXPECT_TRUE(comparison.candidateFaster());
  EXPECT_EQ(comparison.device, "scripted");
  EXPECT_NE(comparison.method().find("4 interleaved pairs after 2 warm-up runs"), std::string::npos) << comparison.method();
}

TEST(EndToEndComparison, RefusesPairCountsWithoutAnInterval) {
  const Graph g = chain(1);
  ScriptedExecutor executor([](size_t) { return 1.0; }, 0.0);
  EndToEndOptions options;
  options.minPairs = 1;
  EXPECT_THROW(compareEndToEnd(executor, g, g, options), Error);
  options.minPairs = 5;
  options.maxPairs = 4;
  EXPECT_THROW(compareEndToEnd(executor, g, g, options), Error);
}
