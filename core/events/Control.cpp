#include "events/Control.h"

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

bool Control::proceed() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return stopped_ || !paused_ || stepsGranted_ > 0; });
  if (stopped_) return false;
  if (paused_) --stepsGranted_;
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
