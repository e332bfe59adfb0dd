// A search's time limit counts the search, not the cost model's measuring (search/SearchClock.h):
// the clock subtracts what the model reports, and a time-limited search on a cold measured cache
// ends as the same search on a warm one does, only later.
#include "cost/CostModel.h"
#include "rewrite/DefaultRules.h"
#include "search/SearchClock.h"
#include "search/Strategy.h"

#include "BranchesGraph.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

using namespace tessera;

namespace {

// A model that says it has measured for as long as the test sets.
class SetMeasuring final : public CostModel {
public:
  double costMs(const OpSignature&) override { return 1.0; }
  std::string spec() const override { return "set-measuring"; }
  double measuringSeconds() const override { return seconds; }
  double seconds = 0;
};

// The analytic model behind a "device" that takes `perSignature` to time each new signature, as a
// measured model on a cold cache does.
class ColdCache final : public CostModel {
public:
  explicit ColdCache(std::chrono::milliseconds perSignature) : perSignature_(perSignature) {}
  double costMs(const OpSignature& signature) override {
    if (seen_.insert(signature.key()).second) {
      const auto start = std::chrono::steady_clock::now();
      std::this_thread::sleep_for(perSignature_);
      measuring_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return analytic_->costMs(signature);
  }
  std::string spec() const override { return "cold-cache"; }
  double measuringSeconds() const override { return measuring_; }

private:
  std::chrono::milliseconds perSignature_;
  std::unique_ptr<CostModel> analytic_ = makeCostModel("analytic:h200");
  std::set<std::string> seen_;
  double measuring_ = 0;
};

using test::branches;

SearchResult search(const std::string& strategy, CostModel& cost, double timeLimitSeconds) {
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  Control control;
  EventStream events;
  SearchOptions options;
  options.timeLimitSeconds = timeLimitSeconds;
  if (strategy == "mcts") options.parameters = {{"simulations", "10"}, {"max_steps", "3"}};
  const Graph graph = branches();
  return makeStrategy(strategy)->run(SearchInput{graph, list, cost, control, events, options});
}
} // namespace

TEST(SearchClock, LeavesOutWhatTheCostModelMeasuredSinceItStarted) {
  SetMeasuring cost;
  cost.seconds = 5; // measured before the search began: not the search's
  const SearchClock clock(cost);
  EXPECT_DOUBLE_EQ(clock.measuringSeconds(), 0);
  EXPECT_GE(clock.seconds(), 0);
  cost.seconds = 1005;
  EXPECT_DOUBLE_EQ(clock.measuringSeconds(), 1000);
  EXPECT_LT(clock.seconds(), -900); // the wall time is far below the measuring
  EXPECT_FALSE(clock.reached(1));
  EXPECT_FALSE(clock.reached(0)); // no limit
  cost.seconds = 5;
  EXPECT_TRUE(clock.reached(1e-9)); // with the measuring gone, wall time counts again
  EXPECT_EQ(measuringNote(0), "");
  EXPECT_EQ(measuringNote(12.34), ", 12.3 s of it measuring op costs");
}

// The cold run measures for longer than its time limit: counted, it would stop at time_limit with
// less searched; left out, it ends as the warm run does.
TEST(SearchClock, ATimeLimitedSearchOnAColdCacheEndsAsOnAWarmOne) {
  const double limit = 0.25;
  for (const std::string strategy : {"taso", "greedy", "mcts"}) {
    SCOPED_TRACE(strategy);
    std::unique_ptr<CostModel> warm = makeCostModel("analytic:h200");
    const SearchResult fast = search(strategy, *warm, limit);
    ASSERT_NE(fast.stopReason, "time_limit") << "the warm search must end by itself for the comparison";
    EXPECT_DOUBLE_EQ(fast.measuringSeconds, 0);

    ColdCache cold(std::chrono::milliseconds(40));
    const SearchResult slow = search(strategy, cold, limit);
    EXPECT_GT(slow.measuringSeconds, limit) << "the cold cache must take longer than the limit to be a test";
    EXPECT_GE(slow.searchSeconds, slow.measuringSeconds);
    EXPECT_EQ(slow.stopReason, fast.stopReason);
    EXPECT_EQ(slow.steps, fast.steps);
    EXPECT_DOUBLE_EQ(slow.bestCostMs, fast.bestCostMs);
  }
}
