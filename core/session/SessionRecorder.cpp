#include "session/SessionRecorder.h"

#include "session/Session.h"

#include <chrono>

namespace tessera {

namespace {
// How far the writer may fall behind, in batches, before receive() waits for it.
constexpr size_t kMaxQueuedBatches = 16;
} // namespace

SessionRecorder::SessionRecorder(Session& session, int64_t runId) : SessionRecorder(session, runId, Options{}) {}

SessionRecorder::SessionRecorder(Session& session, int64_t runId, Options options)
    : session_(session), runId_(runId), options_(options) {
  if (options_.batchEvents == 0) options_.batchEvents = 1;
  queue_.reserve(options_.batchEvents);
  writer_ = std::thread([this] { writeLoop(); });
}

SessionRecorder::~SessionRecorder() { stopWriter(); }

void SessionRecorder::receive(const Event& event) {
  std::unique_lock lock(mutex_);
  if (error_ || stopping_) return;
  committed_.wait(lock, [this] { return queue_.size() < kMaxQueuedBatches * options_.batchEvents || error_; });
  queue_.push_back(event);
  ++received_;
  if (queue_.size() >= options_.batchEvents) wake_.notify_one();
}

void SessionRecorder::writeLoop() {
  auto interval = std::chrono::duration<double>(options_.batchSeconds);
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, interval, [this] {
      return stopping_ || queue_.size() >= options_.batchEvents || (flushTarget_ > recorded_ && !queue_.empty());
    });
    if (error_) queue_.clear(); // recording has stopped: nothing more is written
    if (queue_.empty()) {
      if (stopping_) return;
      continue;
    }
    std::vector<Event> batch;
    batch.swap(queue_);
    queue_.reserve(options_.batchEvents);
    lock.unlock();
    std::exception_ptr failure;
    try {
      session_.appendEvents(runId_, batch);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure && !error_) error_ = failure;
    if (!failure) recorded_ += batch.size();
    committed_.notify_all();
  }
}

void SessionRecorder::flush() {
  std::unique_lock lock(mutex_);
  flushTarget_ = received_;
  wake_.notify_one();
  committed_.wait(lock, [this] { return recorded_ >= flushTarget_ || error_ || !writer_.joinable(); });
  if (error_) std::rethrow_exception(error_);
}

void SessionRecorder::stopWriter() {
  {
    std::lock_guard lock(mutex_);
    if (!writer_.joinable()) return;
    stopping_ = true;
    flushTarget_ = received_;
  }
  wake_.notify_one();
  writer_.join();
}

void SessionRecorder::finish() {
  stopWriter();
  std::lock_guard lock(mutex_);
  if (error_) std::rethrow_exception(error_);
}

} // namespace tessera
