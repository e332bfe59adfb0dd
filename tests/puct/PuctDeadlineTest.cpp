// A guided MCTS run stops at its time limit without asking the guide again: the clock is checked
// before every guided evaluation, and the search's own match counting for the guide watches it
// too. The clock is injected through the cost model (SearchClock leaves a cost model's measuring
// out of search time), so the deadline falls at an exact point of the search, whatever the load.
#include "PuctTestSearch.h"

#include "search/mcts/PriorModel.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::mcts;

namespace {

// Analytic H200 costs, with a search clock that jumps far past any time limit on the k-th price
// asked for: a negative measuring time is search time gained.
class JumpingClockCost final : public CostModel {
public:
  explicit JumpingClockCost(size_t jumpAtCall) : jumpAtCall_(jumpAtCall) {}
  double costMs(const OpSignature& signature) override {
    if (++calls_ == jumpAtCall_) jumped_ = true;
    return analytic_->costMs(signature);
  }
  std::string spec() const override { return analytic_->spec(); }
  double measuringSeconds() const override { return jumped_ ? -1e6 : 0.0; }
  bool jumped() const { return jumped_; }
  size_t calls() const { return calls_; }

private:
  std::unique_ptr<CostModel> analytic_ = makeCostModel("analytic:h200");
  size_t jumpAtCall_;
  size_t calls_ = 0;
  bool jumped_ = false;
};

// A flat guide over the rules that match (so the search spreads out), counting the evaluations
// asked for once the clock has passed the time limit.
class DeadlineWatchingGuide final : public PriorModel {
public:
  explicit DeadlineWatchingGuide(const JumpingClockCost& clock) : clock_(clock) {}
  Guidance evaluate(const SearchState& state) override {
    ++evaluations;
    if (clock_.jumped()) ++afterDeadline;
    Guidance guidance;
    guidance.prior.assign(state.space.rules.size(), 1.0f / static_cast<float>(state.space.rules.size()));
    return guidance;
  }
  int evaluations = 0;
  int afterDeadline = 0;

private:
  const JumpingClockCost& clock_;
};

} // namespace

TEST(PuctDeadline, NoGuidedEvaluationAfterTheTimeLimit) {
  const Graph model = test::sample("nasrnn.onnx");
  test::RulePack pack;
  Control control;
  EventStream events;
  SearchOptions options;
  options.seed = 2;
  options.nodeLimit = 2000;
  options.timeLimitSeconds = 1000; // the jump passes it; the test's own wall time never does
  options.parameters = {{"simulations", "8"}, {"max_steps", "6"}};

  // Without a jump: how many prices the whole run asks for, so the jumps below land all over it.
  JumpingClockCost unjumped(0);
  auto counting = std::make_shared<DeadlineWatchingGuide>(unjumped);
  const SearchResult full = makeMctsStrategy(counting)->run(SearchInput{model, pack.list, unjumped, control, events, options});
  ASSERT_GT(full.steps, 2);
  ASSERT_GT(counting->evaluations, 10);
  const size_t calls = unjumped.calls();
  ASSERT_GT(calls, 20u);

  int stoppedOnTime = 0;
  for (size_t jumpAt = 1; jumpAt <= calls; jumpAt += std::max<size_t>(1, calls / 60)) {
    JumpingClockCost clock(jumpAt);
    auto guide = std::make_shared<DeadlineWatchingGuide>(clock);
    const SearchResult result = makeMctsStrategy(guide)->run(SearchInput{model, pack.list, clock, control, events, options});
    EXPECT_EQ(guide->afterDeadline, 0) << "the clock jumped at price " << jumpAt << " of " << calls;
    if (clock.jumped() && result.stopReason == "time_limit") ++stoppedOnTime;
  }
  EXPECT_GT(stoppedOnTime, 10) << "the jumps must land inside the search";
}
