// Schema versions: older files are migrated step by step (data kept, v1 decisions copied out of
// the event log), newer ones are refused without a byte changed.
#include "session/SessionSchema.h"

#include "SessionTestSupport.h"
#include "support/Database.h"
#include "session/EventCodec.h"
#include "session/Session.h"
#include "support/Error.h"

#include <gtest/gtest.h>

namespace tessera {
namespace {

bool hasTable(sql::Database& db, const std::string& table) {
  sql::Statement query(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
  query.bind(1, table);
  query.step();
  return query.columnInt(0) == 1;
}

TEST(SessionSchema, ATaggedEmptyFileIsMigratedToTheCurrentVersion) {
  std::string path = test::tempSessionPath("v0");
  {
    sql::Database db(path, sql::Database::Mode::Create);
    db.execute("PRAGMA application_id=" + std::to_string(session_schema::kApplicationId));
  }
  EXPECT_EQ(session_schema::checkFile(path), 0);
  Session session = Session::open(path);
  EXPECT_EQ(session.database().queryInt("PRAGMA user_version"), session_schema::kCurrentVersion);
  for (const char* table : {"models", "runs", "events", "candidates", "node_origins", "decisions", "op_costs"})
    EXPECT_TRUE(hasTable(session.database(), table)) << table;
  EXPECT_TRUE(session.runs().empty());
}

TEST(SessionSchema, AVersionOneFileKeepsItsDataAndGainsDecisionsFromItsLog) {
  std::string path = test::tempSessionPath("v1");
  std::vector<Event> events = test::eventsOfEveryKind();
  {
    sql::Database db(path, sql::Database::Mode::Create);
    session_schema::migrate(db, 1);
    EXPECT_FALSE(hasTable(db, "decisions"));
    db.execute("INSERT INTO models (id, name, source_path, op_count, added_at, onnx) VALUES (1, 'm', 'm.onnx', 3, 0, x'00')");
    db.execute("INSERT INTO runs (id, model_id, strategy, parameters, seed, cost_spec, started_at)"
               " VALUES (1, 1, 'mcts', '{}', 5, 'analytic:h200', 0)");
    sql::Statement insert(db, "INSERT INTO events (run_id, sequence, seconds, kind, payload) VALUES (1, ?, ?, ?, ?)");
    for (const Event& event : events) {
      insert.bind(1, static_cast<int64_t>(event.sequence)).bind(2, event.seconds).bind(3, eventKindName(event.kind()));
      insert.bind(4, event_codec::encodePayload(event.payload)).run();
    }
  }
  EXPECT_EQ(session_schema::checkFile(path), 1);

  Session session = Session::open(path);
  EXPECT_EQ(session.database().queryInt("PRAGMA user_version"), session_schema::kCurrentVersion);
  ASSERT_EQ(session.runs().size(), 1u);
  EXPECT_EQ(session.runs()[0].info.seed, 5u);
  EXPECT_EQ(session.eventCount(1), events.size());
  std::vector<DecisionRecord> decisions = session.decisions(1);
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].kind, "veto");
  EXPECT_EQ(decisions[0].rule, "matmul-assoc");
  EXPECT_EQ(decisions[0].step, 6);
  session.recordOpCosts("cpu", {{"Relu", 1.0}});
  EXPECT_EQ(session.opCosts("cpu").size(), 1u);
}

TEST(SessionSchema, AVersionThreeFileKeepsItsRunsWhichCannotSayWhetherTheyAreInSample) {
  std::string path = test::tempSessionPath("v3");
  {
    sql::Database db(path, sql::Database::Mode::Create);
    session_schema::migrate(db, 3);
    db.execute("INSERT INTO models (id, name, source_path, op_count, added_at, onnx) VALUES (1, 'm', 'm.onnx', 3, 0, x'00')");
    db.execute("INSERT INTO runs (id, model_id, strategy, parameters, seed, cost_spec, started_at, finished_at, stop_reason,"
               " original_cost_ms, best_cost_ms, speedup_pct, enodes, eclasses, steps, verified)"
               " VALUES (1, 1, 'xrlflow', '{}', 1, 'analytic:h200', 0, 1, 'saturated', 2, 1, 50, 0, 0, 4, 1)");
  }
  EXPECT_EQ(session_schema::checkFile(path), 3);

  Session session = Session::open(path);
  EXPECT_EQ(session.database().queryInt("PRAGMA user_version"), session_schema::kCurrentVersion);
  ASSERT_EQ(session.runs().size(), 1u);
  ASSERT_TRUE(session.runs()[0].summary);
  EXPECT_DOUBLE_EQ(session.runs()[0].summary->speedupPct, 50);
  EXPECT_FALSE(session.runs()[0].summary->inSample);
}

TEST(SessionSchema, MigratingTwiceChangesNothing) {
  std::string path = test::tempSessionPath("twice");
  { Session::create(path); }
  sql::Database db(path, sql::Database::Mode::ReadWrite);
  session_schema::migrate(db);
  EXPECT_EQ(db.queryInt("PRAGMA user_version"), session_schema::kCurrentVersion);
  EXPECT_EQ(db.queryInt("SELECT count(*) FROM decisions"), 0);
}

TEST(SessionSchema, ANewerFileIsRefusedAndLeftAlone) {
  std::string path = test::tempSessionPath("newer");
  { Session::create(path); }
  {
    sql::Database db(path, sql::Database::Mode::ReadWrite);
    db.execute("PRAGMA user_version=" + std::to_string(session_schema::kCurrentVersion + 1));
  }
  std::string before = test::fileBytes(path);
  try {
    Session::open(path);
    FAIL() << "a newer file opened";
  } catch (const Error& e) {
    std::string expected = "written by a newer Tessera (schema " + std::to_string(session_schema::kCurrentVersion + 1) + " > " +
                           std::to_string(session_schema::kCurrentVersion) + ")";
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::fileBytes(path), before);
}

} // namespace
} // namespace tessera
