// Where a search sends its events. A strategy holds an EventStream, which stamps sequence numbers
// and times and builds nothing when nobody listens, so events cost nothing in a plain CLI run.
#pragma once

#include "events/Event.h"

#include <bitset>
#include <chrono>
#include <mutex>
#include <vector>

namespace tessera {

class EventSink {
public:
  virtual ~EventSink() = default;
  virtual void receive(const Event& event) = 0;
  // Kinds this sink wants; fine-grained ones (every e-node, every MCTS visit) are opt-in.
  virtual bool wants(EventKind kind) const { (void)kind; return true; }
};

// What strategies write to: stamps and forwards to every attached sink that wants the kind.
class EventStream {
public:
  EventStream();
  void attach(EventSink* sink); // not owned; null is ignored
  bool wants(EventKind kind) const { return wanted_[static_cast<size_t>(kind)]; }
  bool hasListeners() const { return !sinks_.empty(); }

  // Publishes when someone wants the payload's kind. The payload is built by the caller; for costly
  // payloads check wants() first.
  void publish(EventPayload payload);
  uint64_t published() const { return next_; }
  double secondsSinceStart() const;

private:
  std::vector<EventSink*> sinks_;
  std::bitset<static_cast<size_t>(EventKind::Count)> wanted_;
  uint64_t next_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// A thread-safe buffer between a search thread and a consumer that drains it in batches (the GUI
// polls it on a timer, so the UI thread gets one batch per frame, never one signal per e-node).
class EventQueue : public EventSink {
public:
  explicit EventQueue(std::bitset<static_cast<size_t>(EventKind::Count)> kinds = ~std::bitset<static_cast<size_t>(EventKind::Count)>());
  void receive(const Event& event) override;
  bool wants(EventKind kind) const override { return kinds_[static_cast<size_t>(kind)]; }
  std::vector<Event> drain(); // everything received since the last drain, in order
  size_t pending() const;

private:
  std::bitset<static_cast<size_t>(EventKind::Count)> kinds_;
  mutable std::mutex mutex_;
  std::vector<Event> buffer_;
};

// Collects everything in memory (tests, replay of a finished run).
class EventRecorder : public EventSink {
public:
  void receive(const Event& event) override { events.push_back(event); }
  std::vector<Event> events;
};

} // namespace tessera
