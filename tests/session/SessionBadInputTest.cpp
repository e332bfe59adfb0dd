// Files that are not sessions, or damaged ones: a clear tessera::Error naming the file and the
// problem, never a crash, and the file left byte for byte as it was.
#include "session/Session.h"

#include "SessionTestSupport.h"
#include "support/Database.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

namespace tessera {
namespace {

// Opens `path`, expects an Error mentioning the file and `problem`, and no change to the file.
void expectRefused(const std::string& path, const std::string& problem) {
  std::string before = test::fileBytes(path);
  try {
    Session::open(path);
    ADD_FAILURE() << path << " opened";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;
    EXPECT_NE(message.find(problem), std::string::npos) << message;
  }
  EXPECT_EQ(test::fileBytes(path), before) << "the file changed";
}

// A small real session, checkpointed into its main file.
std::string realSession(const std::string& tag) {
  std::string path = test::tempSessionPath(tag);
  Session session = Session::create(path);
  Graph model = test::sampleModel("vgg19");
  int64_t runId = session.beginRun(RunInfo{session.addModel("vgg19", "vgg19.onnx", model), "mcts", {{"a", "b"}}, 3, "analytic:h200"});
  session.appendEvents(runId, test::manyEvents(300));
  session.addCandidate(runId, 0, test::sampleCandidate(model, 1.5, 2));
  session.finishRun(runId, RunSummary{"steps", 2, 1.5, 25, 100, 50, 3, true});
  return path;
}

TEST(SessionBadInput, AMissingFile) {
  std::string path = test::tempSessionPath("missing");
  try {
    Session::open(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": no such session file"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path)) << "open must not create";
}

TEST(SessionBadInput, AFileThatIsNotSqlite) {
  std::string path = test::tempSessionPath("text");
  test::writeBytes(path, std::string("ir_version: 7\nproducer_name: \"not a session\"\n") + std::string(200, 'x'));
  expectRefused(path, "not a Tessera session (not an SQLite database)");
  test::writeBytes(path, "tiny");
  expectRefused(path, "not an SQLite database");
  test::writeBytes(path, "");
  expectRefused(path, "is empty");
}

TEST(SessionBadInput, AnotherApplicationsSqliteFile) {
  std::string path = test::tempSessionPath("other");
  {
    sql::Database db(path, sql::Database::Mode::Create);
    db.execute("PRAGMA journal_mode=DELETE; PRAGMA application_id=1234; CREATE TABLE t (x); INSERT INTO t VALUES (1)");
  }
  expectRefused(path, "not a Tessera session (SQLite application_id 0x4d2)");
}

TEST(SessionBadInput, ADirectory) {
  std::string path = test::tempSessionPath("dir");
  std::filesystem::create_directories(path);
  EXPECT_THROW(Session::open(path), Error);
}

TEST(SessionBadInput, ATruncatedFile) {
  std::string path = realSession("truncated");
  std::string bytes = test::fileBytes(path);
  ASSERT_GT(bytes.size(), 8192u);
  test::writeBytes(path, bytes.substr(0, bytes.size() / 2));
  expectRefused(path, "is truncated");
  test::writeBytes(path, bytes.substr(0, bytes.size() - 100));
  expectRefused(path, "is truncated");
}

TEST(SessionBadInput, ACorruptPage) {
  std::string path = realSession("corrupt");
  std::string bytes = test::fileBytes(path);
  // Scribble over the second page (a table's b-tree root), leaving the header intact.
  for (size_t i = 4096; i < 4096 + 600 && i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 31);
  test::writeBytes(path, bytes);
  expectRefused(path, "corrupt");
}

// Random byte flips and truncations of a real session: each open and read either works or
// throws tessera::Error.
TEST(SessionBadInput, FlippedBytesAndTruncationsNeverCrash) {
  std::string original = test::fileBytes(realSession("fuzz-source"));
  std::mt19937 random(20240611);
  std::string path = test::tempSessionPath("fuzz");
  int opened = 0;
  int refused = 0;
  for (int trial = 0; trial < 120; ++trial) {
    std::string bytes = original;
    if (trial % 4 == 3) {
      bytes.resize(std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(random));
    } else {
      int flips = std::uniform_int_distribution<int>(1, 16)(random);
      // Half the trials aim at the header and the schema page, where damage matters most.
      size_t range = trial % 2 ? bytes.size() : std::min<size_t>(bytes.size(), 8192);
      for (int i = 0; i < flips; ++i)
        bytes[std::uniform_int_distribution<size_t>(0, range - 1)(random)] ^= static_cast<char>(1 << (i % 8));
    }
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
    test::writeBytes(path, bytes);
    try {
      Session session = Session::open(path);
      for (const RunRecord& run : session.runs()) {
        session.events(run.id);
        session.decisions(run.id);
      }
      for (const CandidateRecord& candidate : session.candidates()) {
        session.provenance(candidate.id);
        session.loadCandidate(candidate.id);
      }
      session.models();
      ++opened;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      ++refused;
    }
  }
  EXPECT_GT(opened, 0) << "some flips land in unused bytes";
  EXPECT_GT(refused, 0);
}

} // namespace
} // namespace tessera
