// The control channel between a person (GUI, CLI flags) and a running search: pause, resume,
// single step, stop, and the pinned and vetoed rules. Any thread may call the commands; the
// search polls it between steps, so every decision takes effect at the next step.
#pragma once

#include "events/Event.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessera {

class Control {
public:
  // Commands (thread-safe). Each is queued as a decision for the event log.
  void pause();
  void resume();
  void step();  // while paused: let exactly one more step run
  void stop();  // also releases a paused search
  void pin(const std::string& rule);
  void unpin(const std::string& rule);
  void veto(const std::string& rule);
  void unveto(const std::string& rule);
  // Teaching pace: at least `interval` between two steps, so a person can follow a run that would
  // take a second (zero: full speed). Presentation only, so it is not a decision and is not
  // logged; a pause, a single step or a stop is never held back by it. Wall-clock time limits
  // still count the wait.
  void setStepInterval(std::chrono::milliseconds interval);
  std::chrono::milliseconds stepInterval() const;

  // For the search, between steps: blocks while paused (until resume, step or stop), then returns
  // false when the search must stop.
  bool proceed();
  bool stopRequested() const;
  bool paused() const;

  std::set<std::string> pinned() const;
  std::set<std::string> vetoed() const;
  bool isVetoed(const std::string& rule) const;
  bool isPinned(const std::string& rule) const;
  // Bumped by every pin/veto change, so a search can cheaply notice that its rule order is stale.
  uint64_t rulesVersion() const;

  // Decisions made since the last call, oldest first; the search records them with its step.
  std::vector<UserDecision> takeDecisions();

private:
  void record(DecisionKind kind, const std::string& rule = {});

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool paused_ = false;
  bool stopped_ = false;
  int stepsGranted_ = 0;
  std::chrono::milliseconds stepInterval_{0};
  // Empty until the first step, which is never held: the steady clock's epoch is the machine's boot,
  // so a default time point would hold the first step of a search started within a pace of booting.
  std::optional<std::chrono::steady_clock::time_point> lastStep_;
  std::set<std::string> pinned_;
  std::set<std::string> vetoed_;
  uint64_t rulesVersion_ = 0;
  std::vector<UserDecision> decisions_;
};

} // namespace tessera
