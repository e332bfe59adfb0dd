// Every strategy follows one run protocol (search/RunProtocol.h): Started first; decisions stamped
// with their step; each BestCostChanged right after the CandidateExtracted that caused it; the
// result's best candidate is the cheapest announced; Finished (or Stopped) last with a stop
// reason from the one vocabulary.
#include "cost/CostModel.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/StopReason.h"
#include "search/Strategy.h"

#include "BranchesGraph.h"

#include <gtest/gtest.h>

#include <thread>

using namespace tessera;

namespace {

using test::branches;

struct RecordedRun {
  SearchResult result;
  std::vector<Event> events;
};

RecordedRun runStrategy(const std::string& strategy, Control& control) {
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  EventStream events;
  EventRecorder recorder;
  events.attach(&recorder);
  SearchOptions options;
  options.timeLimitSeconds = 20;
  const Graph graph = branches();
  RecordedRun run;
  run.result = makeStrategy(strategy)->run(SearchInput{graph, list, *cost, control, events, options});
  run.events = std::move(recorder.events);
  return run;
}

void expectProtocol(const std::string& strategy, const RecordedRun& run, RunState last) {
  SCOPED_TRACE(strategy);
  ASSERT_GE(run.events.size(), 2u);
  const auto* first = std::get_if<RunStateChanged>(&run.events.front().payload);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->state, RunState::Started);
  const auto* final = std::get_if<RunStateChanged>(&run.events.back().payload);
  ASSERT_NE(final, nullptr);
  EXPECT_EQ(final->state, last);
  EXPECT_EQ(final->reason, run.result.stopReason);
  EXPECT_TRUE(parseStopReason(run.result.stopReason).has_value()) << run.result.stopReason;

  double best = run.result.originalCostMs;
  int bestIndex = -1;
  int candidates = 0;
  for (size_t i = 1; i + 1 < run.events.size(); ++i) {
    if (const auto* state = std::get_if<RunStateChanged>(&run.events[i].payload)) {
      EXPECT_TRUE(state->state == RunState::Paused || state->state == RunState::Resumed) << "Started or ended twice";
    }
    if (const auto* candidate = std::get_if<CandidateExtracted>(&run.events[i].payload)) {
      EXPECT_EQ(candidate->candidate, candidates++) << "candidates are announced in result order";
      const bool cheaper = candidate->costMs < best;
      const auto* next = std::get_if<BestCostChanged>(&run.events[i + 1].payload);
      EXPECT_EQ(cheaper, next != nullptr) << "a cheaper candidate, and only it, is followed by BestCostChanged";
      if (next) {
        EXPECT_DOUBLE_EQ(next->previousMs, best);
        EXPECT_DOUBLE_EQ(next->costMs, candidate->costMs);
        best = candidate->costMs;
        bestIndex = candidate->candidate;
      }
    }
    if (std::holds_alternative<BestCostChanged>(run.events[i].payload)) {
      EXPECT_NE(std::get_if<CandidateExtracted>(&run.events[i - 1].payload), nullptr) << "BestCostChanged without its candidate";
    }
  }
  EXPECT_EQ(candidates, static_cast<int>(run.result.candidates.size()));
  EXPECT_EQ(run.result.bestCandidate, bestIndex);
  EXPECT_DOUBLE_EQ(run.result.bestCostMs, best);
}

const std::vector<std::string> kStrategies = {"greedy", "taso", "eqsat", "mcts"};

TEST(RunProtocol, EveryStrategyAnnouncesItsRunTheSameWay) {
  for (const std::string& strategy : kStrategies) {
    Control control;
    RecordedRun run = runStrategy(strategy, control);
    expectProtocol(strategy, run, RunState::Finished);
    EXPECT_LT(run.result.bestCostMs, run.result.originalCostMs) << strategy << " found nothing on the branches graph";
  }
}

TEST(RunProtocol, EveryStrategyStopsAsStoppedWithTheUsersReasonAndStampedDecisions) {
  for (const std::string& strategy : kStrategies) {
    Control control;
    control.pause();
    control.veto("no-such-rule-is-fine-for-the-log");
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      control.stop();
    });
    RecordedRun run = runStrategy(strategy, control);
    stopper.join();
    expectProtocol(strategy, run, RunState::Stopped);
    EXPECT_EQ(run.result.stopReason, stopReasonName(StopReason::StoppedByUser));
    std::vector<DecisionKind> decisions;
    for (const Event& event : run.events)
      if (const auto* decision = std::get_if<UserDecision>(&event.payload)) {
        decisions.push_back(decision->kind);
        EXPECT_EQ(decision->step, 0) << strategy << ": decided before the first step";
      }
    EXPECT_EQ(decisions, (std::vector<DecisionKind>{DecisionKind::Pause, DecisionKind::Veto, DecisionKind::Stop})) << strategy;
  }
}

TEST(StopReasonNames, RoundTrip) {
  for (StopReason reason : {StopReason::Saturated, StopReason::NodeLimit, StopReason::IterationLimit, StopReason::TimeLimit,
                            StopReason::StoppedByUser, StopReason::Budget, StopReason::StepLimit})
    EXPECT_EQ(parseStopReason(stopReasonName(reason)), reason);
  EXPECT_FALSE(parseStopReason("tired").has_value());
}

} // namespace
