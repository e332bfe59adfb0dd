#include "events/EventSink.h"

#include <utility>

namespace tessera {

EventStream::EventStream() : start_(std::chrono::steady_clock::now()) {}

void EventStream::attach(EventSink* sink) {
  if (!sink) return;
  sinks_.push_back(sink);
  for (size_t kind = 0; kind < wanted_.size(); ++kind)
    if (sink->wants(static_cast<EventKind>(kind))) wanted_.set(kind);
}

double EventStream::secondsSinceStart() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void EventStream::publish(EventPayload payload) {
  const EventKind kind = static_cast<EventKind>(payload.index());
  if (!wants(kind)) return;
  Event event{next_++, secondsSinceStart(), std::move(payload)};
  for (EventSink* sink : sinks_)
    if (sink->wants(kind)) sink->receive(event);
}

EventQueue::EventQueue(std::bitset<static_cast<size_t>(EventKind::Count)> kinds) : kinds_(kinds) {}

void EventQueue::receive(const Event& event) {
  std::lock_guard lock(mutex_);
  buffer_.push_back(event);
}

std::vector<Event> EventQueue::drain() {
  std::lock_guard lock(mutex_);
  return std::exchange(buffer_, {});
}

size_t EventQueue::pending() const {
  std::lock_guard lock(mutex_);
  return buffer_.size();
}

} // namespace tessera
