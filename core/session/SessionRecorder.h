// Writes a running search's events into its session. receive() only queues (the search thread
// pays a copy, not the JSON encoding or SQLite); a writer thread commits the queue in
// transactions every `batchEvents` events or `batchSeconds`, and on flush/finish, so a run killed
// mid-way leaves everything up to its last batch. Prepared statements are reused.
#pragma once

#include "events/EventSink.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera {

class Session;

class SessionRecorder : public EventSink {
public:
  struct Options {
    size_t batchEvents = 4096;
    double batchSeconds = 0.1;
  };

  // The recorder's writer thread uses the session until finish() or the destructor: no other
  // thread may use it meanwhile. The session must outlive the recorder.
  SessionRecorder(Session& session, int64_t runId);
  SessionRecorder(Session& session, int64_t runId, Options options);
  // Commits what is queued; errors are dropped here (call finish() to see them).
  ~SessionRecorder() override;

  // Never throws: a failing disk must not stop a search. The first error stops recording and is
  // rethrown by flush() and finish(). Blocks only when the writer is far behind (bounded memory).
  void receive(const Event& event) override;

  // Returns once everything received so far is committed.
  void flush();
  // Commits what is queued, stops the writer and rethrows the first error recording met. Events
  // received afterwards are dropped; the session is the caller's again.
  void finish();

  uint64_t recorded() const { return recorded_; } // events committed so far

private:
  void writeLoop();
  void stopWriter();

  Session& session_;
  int64_t runId_;
  Options options_;
  std::mutex mutex_;
  std::condition_variable wake_;      // to the writer: a batch is ready, a flush is wanted, stop
  std::condition_variable committed_; // from the writer: a batch is committed (or failed)
  std::vector<Event> queue_;
  uint64_t received_ = 0;
  uint64_t flushTarget_ = 0;
  bool stopping_ = false;
  std::atomic<uint64_t> recorded_{0};
  std::exception_ptr error_;
  std::thread writer_;
};

} // namespace tessera
