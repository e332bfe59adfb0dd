#include "events/Control.h"

#include <algorithm>
#include <utility>

namespace tessera {

void Control::record(DecisionKind kind, const std::string& rule) { decisions_.push_back(UserDecision{kind, rule, 0}); }

void Control::pause() {
  std::lock_guard lock(mutex_);
  paused_ = true;
  stepsGranted_ = 0;
  record(DecisionKind::Pause);
}

void Control::resume() {
  {
    std::lock_guard lock(mutex_);
    paused_ = false;
    record(DecisionKind::Resume);
  }
  changed_.notify_all();
}

void Control::step() {
  {
    std::lock_guard lock(mutex_);
    if (!paused_) return; // a running search is already stepping
    ++stepsGranted_;
    record(DecisionKind::Step);
  }
  changed_.notify_all();
}

void Control::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    record(DecisionKind::Stop);
  }
  changed_.notify_all();
}

void Control::pin(const std::string& rule) {
  std::lock_guard lock(mutex_);
  vetoed_.erase(rule);
  if (pinned_.insert(rule).second) {
    ++rulesVersion_;
    record(DecisionKind::Pin, rule);
  }
}

void Control::unpin(const std::string& rule) {
  std::lock_guard lock(mutex_);
  if (pinned_.erase(rule)) {
    ++rulesVersion_;
    record(DecisionKind::Unpin, rule);
  }
}

void Control::veto(const std::string& rule) {
  std::lock_guard lock(mutex_);
  pinned_.erase(rule);
  if (vetoed_.insert(rule).second) {
    ++rulesVersion_;
    record(DecisionKind::Veto, rule);
  }
}

void Control::unveto(const std::string& rule) {
  std::lock_guard lock(mutex_);
  if (vetoed_.erase(rule)) {
    ++rulesVersion_;
    record(DecisionKind::Unveto, rule);
  }
}

void Control::setStepInterval(std::chrono::milliseconds interval) {
  {
    std::lock_guard lock(mutex_);
    stepInterval_ = std::max(std::chrono::milliseconds(0), interval);
  }
  changed_.notify_all(); // a waiting step re-reads its due time
}

std::chrono::milliseconds Control::stepInterval() const {
  std::lock_guard lock(mutex_);
  return stepInterval_;
}

bool Control::proceed() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopped_ || !paused_ || stepsGranted_ > 0; });
    if (stopped_) return false;
    if (paused_) {
      --stepsGranted_;
      break;
    }
    if (stepInterval_.count() == 0 || !lastStep_) break;
    const auto due = *lastStep_ + stepInterval_;
    if (std::chrono::steady_clock::now() >= due) break;
    // Any command wakes the wait; the loop then re-reads pause, stop and the pace.
    changed_.wait_until(lock, due);
  }
  lastStep_ = std::chrono::steady_clock::now();
  return true;
}

bool Control::stopRequested() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

bool Control::paused() const {
  std::lock_guard lock(mutex_);
  return paused_;
}

std::set<std::string> Control::pinned() const {
  std::lock_guard lock(mutex_);
  return pinned_;
}

std::set<std::string> Control::vetoed() const {
  std::lock_guard lock(mutex_);
  return vetoed_;
}

bool Control::isVetoed(const std::string& rule) const {
  std::lock_guard lock(mutex_);
  return vetoed_.count(rule) > 0;
}

bool Control::isPinned(const std::string& rule) const {
  std::lock_guard lock(mutex_);
  return pinned_.count(rule) > 0;
}

uint64_t Control::rulesVersion() const {
  std::lock_guard lock(mutex_);
  return rulesVersion_;
}

std::vector<UserDecision> Control::takeDecisions() {
  std::lock_guard lock(mutex_);
  return std::exchange(decisions_, {});
}

} // namespace tessera
