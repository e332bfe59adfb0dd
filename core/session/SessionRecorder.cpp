#include "session/SessionRecorder.h"

#include "session/Session.h"

namespace tessera {

SessionRecorder::SessionRecorder(Session& session, int64_t runId) : SessionRecorder(session, runId, Options{}) {}

SessionRecorder::SessionRecorder(Session& session, int64_t runId, Options options)
    : session_(session), runId_(runId), options_(options), lastFlush_(std::chrono::steady_clock::now()) {
  pending_.reserve(options_.batchEvents);
}

SessionRecorder::~SessionRecorder() { flushNoThrow(); }

void SessionRecorder::receive(const Event& event) {
  if (error_) return;
  pending_.push_back(event);
  if (pending_.size() >= options_.batchEvents) {
    flushNoThrow();
    return;
  }
  std::chrono::duration<double> sinceFlush = std::chrono::steady_clock::now() - lastFlush_;
  if (sinceFlush.count() >= options_.batchSeconds) flushNoThrow();
}

void SessionRecorder::flush() {
  if (error_) std::rethrow_exception(error_);
  lastFlush_ = std::chrono::steady_clock::now();
  if (pending_.empty()) return;
  session_.appendEvents(runId_, pending_);
  recorded_ += pending_.size();
  pending_.clear();
}

void SessionRecorder::flushNoThrow() {
  try {
    flush();
  } catch (...) {
    if (!error_) error_ = std::current_exception();
    pending_.clear();
  }
}

void SessionRecorder::finish() {
  flush();
}

} // namespace tessera
