#include "LiveRun.h"

#include <QElapsedTimer>

namespace tessera::views {

LiveRun::LiveRun(QObject* parent) : QObject(parent) {}

void LiveRun::applyEvents(const std::vector<Event>& batch) {
  if (replay_.append(batch) == 0) return;
  emit logChanged(replay_.size());
  if (!following_) return;
  QElapsedTimer timer;
  timer.start();
  replay_.seekToEnd();
  lastFoldSeconds_ = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
  announce();
}

void LiveRun::loadEvents(const std::vector<Event>& events) {
  replay_.clear();
  emit reset();
  replay_.append(events);
  emit logChanged(replay_.size());
  following_ = true;
  emit followingChanged(true);
  replay_.seekToEnd();
  announce();
}

void LiveRun::clear() {
  replay_.clear();
  emit reset();
  emit logChanged(0);
  announce();
}

void LiveRun::seekToIndex(size_t count) {
  QElapsedTimer timer;
  timer.start();
  replay_.seekToIndex(count);
  lastFoldSeconds_ = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
  const bool atEnd = replay_.atEnd();
  if (atEnd != following_) {
    following_ = atEnd;
    emit followingChanged(following_);
  }
  announce();
}

void LiveRun::seekToSequence(quint64 sequence) {
  const auto& events = replay_.events();
  auto it = std::lower_bound(events.begin(), events.end(), sequence,
                             [](const Event& event, quint64 s) { return event.sequence < s; });
  seekToIndex(static_cast<size_t>(it - events.begin()));
}

void LiveRun::follow(bool follow) {
  if (follow == following_) return;
  following_ = follow;
  emit followingChanged(following_);
  if (following_) {
    replay_.seekToEnd();
    announce();
  }
}

void LiveRun::announce() { emit stateChanged(replay_.state()); }

} // namespace tessera::views
