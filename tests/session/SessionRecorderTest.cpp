// The recorder: batches a run's events into the log, flushes on time and at the end, survives a
// failing store, and a writer killed with SIGKILL leaves a sound file holding a prefix of its log.
#include "session/SessionRecorder.h"

#include "SessionTestSupport.h"
#include "support/Database.h"
#include "session/Session.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace tessera {
namespace {

struct RecordedRun {
  std::string path;
  Session session;
  int64_t runId;
};

// The writer commits on its own thread: wait (boundedly) until `count` events are in the log.
size_t waitForEvents(Session& reader, int64_t runId, size_t count) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  size_t seen = reader.eventCount(runId);
  while (seen < count && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    seen = reader.eventCount(runId);
  }
  return seen;
}

RecordedRun startRun(const std::string& tag) {
  std::string path = test::tempSessionPath(tag);
  Session session = Session::create(path);
  int64_t modelId = session.addModel("vgg19", "vgg19.onnx", test::sampleModel("vgg19"));
  int64_t runId = session.beginRun(RunInfo{modelId, "mcts", {}, 1, "analytic:h200"});
  return {path, std::move(session), runId};
}

TEST(SessionRecorder, BatchesBySizeAndFlushesTheRestOnFinish) {
  RecordedRun run = startRun("batches");
  Session reader = Session::open(run.path);
  std::vector<Event> events = test::manyEvents(2500);
  SessionRecorder recorder(run.session, run.runId, SessionRecorder::Options{1000, 3600});
  for (size_t i = 0; i < 999; ++i) recorder.receive(events[i]);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(reader.eventCount(run.runId), 0u) << "nothing before the first full batch";
  recorder.receive(events[999]);
  EXPECT_EQ(waitForEvents(reader, run.runId, 1000), 1000u);
  for (size_t i = 1000; i < events.size(); ++i) recorder.receive(events[i]);
  // The writer takes whatever is queued when it wakes: at least the second full batch, maybe more.
  EXPECT_GE(waitForEvents(reader, run.runId, 2000), 2000u);
  recorder.flush();
  EXPECT_EQ(reader.eventCount(run.runId), 2500u) << "flush returns once everything received is committed";
  recorder.finish();
  EXPECT_EQ(recorder.recorded(), 2500u);
  std::vector<Event> stored = reader.events(run.runId);
  ASSERT_EQ(stored.size(), events.size());
  for (size_t i = 0; i < stored.size(); ++i) ASSERT_TRUE(test::sameEvent(stored[i], events[i])) << i;
  EXPECT_EQ(reader.decisions(run.runId).size(), test::decisionsAmong(test::manyEvents(2500)));
  recorder.receive(test::manyEvents(1, 2500)[0]);
  EXPECT_EQ(reader.eventCount(run.runId), 2500u) << "after finish nothing more is recorded";
}

TEST(SessionRecorder, CommitsAfterItsIntervalAndInItsDestructor) {
  RecordedRun run = startRun("interval");
  Session reader = Session::open(run.path);
  std::vector<Event> events = test::manyEvents(3);
  {
    SessionRecorder recorder(run.session, run.runId, SessionRecorder::Options{1000000, 0.02});
    recorder.receive(events[0]);
    recorder.receive(events[1]);
    EXPECT_EQ(waitForEvents(reader, run.runId, 2), 2u) << "the interval passed: both are committed";
    recorder.receive(events[2]);
  }
  EXPECT_EQ(run.session.eventCount(run.runId), 3u) << "the destructor committed the last one";
}

TEST(SessionRecorder, AFailingStoreStopsRecordingWithoutThrowingIntoTheSearch) {
  RecordedRun run = startRun("failing");
  std::vector<Event> events = test::manyEvents(10);
  run.session.appendEvents(run.runId, std::vector<Event>{events[5]});
  SessionRecorder recorder(run.session, run.runId, SessionRecorder::Options{4, 3600});
  for (size_t i = 0; i < 4; ++i) EXPECT_NO_THROW(recorder.receive(events[i]));
  EXPECT_NO_THROW(recorder.flush());
  for (size_t i = 4; i < events.size(); ++i) EXPECT_NO_THROW(recorder.receive(events[i]));
  EXPECT_THROW(recorder.finish(), Error) << "sequence 5 was taken: the second batch failed";
  EXPECT_EQ(recorder.recorded(), 4u);
  EXPECT_EQ(run.session.eventCount(run.runId), 5u);
}

// The child writes events for ever in small batches; the parent kills it mid-write.
TEST(SessionRecorder, AWriterKilledMidRunLeavesASoundPrefix) {
  std::string path = test::tempSessionPath("killed");
  int64_t runId = 0;
  {
    Session session = Session::create(path);
    runId = session.beginRun(RunInfo{session.addModel("vgg19", "vgg19.onnx", test::sampleModel("vgg19")), "mcts", {}, 1, "x"});
  }
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    try {
      Session session = Session::open(path);
      SessionRecorder recorder(session, runId, SessionRecorder::Options{97, 3600});
      bool told = false;
      for (uint64_t sequence = 0;; ++sequence) {
        std::vector<Event> one = test::manyEvents(1, sequence);
        recorder.receive(one[0]);
        if (!told && recorder.recorded() >= 5000) told = write(ready[1], "k", 1) == 1;
      }
    } catch (...) {
    }
    _exit(3);
  }
  close(ready[1]);
  char signal = 0;
  ASSERT_EQ(read(ready[0], &signal, 1), 1) << "the child died before writing";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  close(ready[0]);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the child must die by SIGKILL, mid-run";

  Session session = Session::open(path);
  sql::Statement check(session.database(), "PRAGMA integrity_check");
  ASSERT_TRUE(check.step());
  EXPECT_EQ(check.columnText(0), "ok");
  std::vector<Event> events = session.events(runId);
  ASSERT_GE(events.size(), 5000u);
  for (size_t i = 0; i < events.size(); ++i) ASSERT_EQ(events[i].sequence, i) << "a prefix, without holes";
  EXPECT_FALSE(session.runs().at(0).finishedAt) << "the run never finished";
}

} // namespace
} // namespace tessera
