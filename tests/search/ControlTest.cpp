#include "events/Control.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace tessera;

TEST(Control, ProceedsUntilStopped) {
  Control control;
  EXPECT_TRUE(control.proceed());
  control.stop();
  EXPECT_FALSE(control.proceed());
  EXPECT_TRUE(control.stopRequested());
}

TEST(Control, PauseBlocksUntilResume) {
  Control control;
  control.pause();
  std::atomic<int> passed{0};
  std::thread search([&] {
    while (control.proceed()) ++passed;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(passed.load(), 0);
  control.step();
  while (passed.load() < 1) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(passed.load(), 1); // exactly one step was granted
  control.resume();
  while (passed.load() < 100) std::this_thread::yield();
  control.stop();
  search.join();
}

TEST(Control, StopReleasesAPausedSearch) {
  Control control;
  control.pause();
  std::thread search([&] { EXPECT_FALSE(control.proceed()); });
  control.stop();
  search.join();
}

TEST(Control, PinAndVetoExcludeEachOtherAndAreRecorded) {
  Control control;
  uint64_t version = control.rulesVersion();
  control.pin("a");
  control.veto("a"); // a veto overrides the pin
  EXPECT_FALSE(control.isPinned("a"));
  EXPECT_TRUE(control.isVetoed("a"));
  control.veto("a"); // no change, not recorded twice
  control.unveto("a");
  EXPECT_GT(control.rulesVersion(), version);
  std::vector<UserDecision> decisions = control.takeDecisions();
  ASSERT_EQ(decisions.size(), 3u);
  EXPECT_EQ(decisions[0].kind, DecisionKind::Pin);
  EXPECT_EQ(decisions[1].kind, DecisionKind::Veto);
  EXPECT_EQ(decisions[2].kind, DecisionKind::Unveto);
  EXPECT_EQ(decisions[2].rule, "a");
  EXPECT_TRUE(control.takeDecisions().empty());
}

TEST(Control, StepWhileRunningIsIgnored) {
  Control control;
  control.step();
  EXPECT_TRUE(control.takeDecisions().empty());
}

// The teaching pace holds a running search between steps, and nothing a person does waits for it:
// a single step while paused, full speed again, or a stop each release the held step at once (an
// hour's pace would otherwise hang these tests).
TEST(Control, PaceHoldsStepsButNeverACommand) {
  Control control;
  control.setStepInterval(std::chrono::hours(1));
  EXPECT_EQ(control.stepInterval(), std::chrono::hours(1));
  std::atomic<int> passed{0};
  std::thread search([&] {
    while (control.proceed()) ++passed;
  });
  while (passed.load() < 1) std::this_thread::yield(); // the first step is never held
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(passed.load(), 1) << "the second step waits out the pace";

  control.pause();
  control.step(); // a single step is not paced
  while (passed.load() < 2) std::this_thread::yield();
  control.resume();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(passed.load(), 2) << "resumed, the pace applies again";

  control.setStepInterval(std::chrono::milliseconds(0)); // full speed releases the held step
  while (passed.load() < 50) std::this_thread::yield();
  control.setStepInterval(std::chrono::hours(1));
  control.stop(); // and a stop is never held back
  search.join();
  std::vector<UserDecision> decisions = control.takeDecisions(); // the pace is not a decision
  ASSERT_EQ(decisions.size(), 4u);
  EXPECT_EQ(decisions[0].kind, DecisionKind::Pause);
  EXPECT_EQ(decisions[1].kind, DecisionKind::Step);
  EXPECT_EQ(decisions[2].kind, DecisionKind::Resume);
  EXPECT_EQ(decisions[3].kind, DecisionKind::Stop);
}
