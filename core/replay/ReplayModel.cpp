#include "replay/ReplayModel.h"

#include <algorithm>

namespace tessera {

ReplayModel::ReplayModel(size_t snapshotInterval) : interval_(std::max<size_t>(1, snapshotInterval)) {
  snapshots_.emplace_back();
}

size_t ReplayModel::append(const std::vector<Event>& events) {
  size_t kept = 0;
  for (const Event& event : events) {
    if (!events_.empty() && event.sequence <= events_.back().sequence) continue;
    events_.push_back(event);
    ++kept;
  }
  return kept;
}

void ReplayModel::clear() {
  events_.clear();
  snapshots_.assign(1, ReplayState{});
  current_ = ReplayState{};
  position_ = 0;
  frontier_ = ReplayState{};
  frontierPosition_ = 0;
}

void ReplayModel::snapshotIfDue() {
  if (frontierPosition_ != snapshots_.size() * interval_) return;
  // A snapshot copies the whole state: taking one no more often than the state has elements keeps
  // the copying linear in the log (a 50,000-node e-graph copied every 1,024 events held a live
  // view's thread for seconds).
  const size_t stateSize = frontier_.egraph.numNodes() + frontier_.tree.size();
  while (interval_ < stateSize) {
    thinSnapshots();
    if (frontierPosition_ != snapshots_.size() * interval_) return;
  }
  snapshots_.push_back(frontier_);
  if (snapshots_.size() > kMaxSnapshots) thinSnapshots();
}

void ReplayModel::thinSnapshots() {
  // Keep every other snapshot: those at multiples of the doubled interval.
  std::vector<ReplayState> kept;
  kept.reserve(snapshots_.size() / 2 + 1);
  for (size_t i = 0; i < snapshots_.size(); i += 2) kept.push_back(std::move(snapshots_[i]));
  snapshots_ = std::move(kept);
  interval_ *= 2;
}

const ReplayState& ReplayModel::seekToIndex(size_t count) {
  count = std::min(count, events_.size());
  if (count == position_) return current_;

  // Extend the snapshots up to `count` first (folding the log once, as it is seen).
  while (frontierPosition_ < count) {
    frontier_.apply(events_[frontierPosition_]);
    ++frontierPosition_;
    snapshotIfDue();
  }
  // Fold forward from where we are when no snapshot is closer; copy the frontier or a snapshot
  // otherwise.
  const size_t snapshot = std::min(count / interval_, snapshots_.size() - 1);
  const size_t snapshotPosition = snapshot * interval_;
  const bool foldFromHere = position_ <= count && position_ >= snapshotPosition;
  if (!foldFromHere && count == frontierPosition_) {
    current_ = frontier_;
    position_ = count;
    return current_;
  }
  if (!foldFromHere) {
    current_ = snapshots_[snapshot];
    position_ = snapshotPosition;
  }
  for (; position_ < count; ++position_) current_.apply(events_[position_]);
  return current_;
}

const ReplayState& ReplayModel::seekToSequence(uint64_t sequence) {
  auto it = std::lower_bound(events_.begin(), events_.end(), sequence,
                             [](const Event& event, uint64_t s) { return event.sequence < s; });
  return seekToIndex(static_cast<size_t>(it - events_.begin()));
}

} // namespace tessera
