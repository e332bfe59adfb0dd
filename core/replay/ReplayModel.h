// A run's event log and the state at any moment of it. Keeps a snapshot of the folded state every
// `interval` events, so seeking anywhere folds at most one interval forward from a copy; the log
// may grow while a run is live (append) and the current position can follow it.
#pragma once

#include "events/Event.h"
#include "replay/ReplayState.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera {

class ReplayModel {
public:
  // At most this many snapshots are kept; when more would be needed the interval doubles, so
  // memory stays bounded on long MCTS logs.
  static constexpr size_t kMaxSnapshots = 64;

  explicit ReplayModel(size_t snapshotInterval = 1024);

  // Adds events at the end of the log. Events whose sequence is not after the last one are
  // dropped (a damaged or re-delivered log never reorders history); returns how many were kept.
  size_t append(const std::vector<Event>& events);
  void clear();

  const std::vector<Event>& events() const { return events_; }
  size_t size() const { return events_.size(); }

  // Moves to the state after the first `count` events (clamped to the log).
  const ReplayState& seekToIndex(size_t count);
  // Moves to the state after every event whose sequence is < `sequence`.
  const ReplayState& seekToSequence(uint64_t sequence);
  // Moves to the end of the log.
  const ReplayState& seekToEnd() { return seekToIndex(events_.size()); }

  const ReplayState& state() const { return current_; }
  size_t position() const { return position_; } // events folded into state()
  bool atEnd() const { return position_ == events_.size(); }
  size_t snapshotInterval() const { return interval_; }
  size_t snapshotCount() const { return snapshots_.size(); }

private:
  void snapshotIfDue();
  void thinSnapshots();

  std::vector<Event> events_;
  // snapshots_[i] is the state after i * interval_ events (snapshots_[0] is empty).
  std::vector<ReplayState> snapshots_;
  size_t interval_;
  ReplayState current_;
  size_t position_ = 0;
  // How far the snapshots have been built (folding happens lazily, in seek).
  ReplayState frontier_;
  size_t frontierPosition_ = 0;
};

} // namespace tessera
