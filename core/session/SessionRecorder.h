// Writes a running search's events into its session: an EventSink on the search thread that
// batches events into transactions (every `batchEvents` events or `batchSeconds`, and on finish),
// so a run killed mid-way leaves everything up to its last batch. Prepared statements are reused.
#pragma once

#include "events/EventSink.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <vector>

namespace tessera {

class Session;

class SessionRecorder : public EventSink {
public:
  struct Options {
    size_t batchEvents = 4096;
    double batchSeconds = 0.1;
  };

  // The session must outlive the recorder and must not be used by another thread meanwhile.
  SessionRecorder(Session& session, int64_t runId);
  SessionRecorder(Session& session, int64_t runId, Options options);
  // Flushes what is pending; errors are dropped here (call finish() to see them).
  ~SessionRecorder() override;

  // Never throws: a failing disk must not stop a search. The first error stops recording and is
  // rethrown by finish().
  void receive(const Event& event) override;

  // Commits what is pending now.
  void flush();
  // Flushes and rethrows the first error recording met, if any.
  void finish();

  uint64_t recorded() const { return recorded_; } // events committed so far

private:
  void flushNoThrow();

  Session& session_;
  int64_t runId_;
  Options options_;
  std::vector<Event> pending_;
  std::chrono::steady_clock::time_point lastFlush_;
  uint64_t recorded_ = 0;
  std::exception_ptr error_;
};

} // namespace tessera
