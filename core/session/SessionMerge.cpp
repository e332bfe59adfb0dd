// Session merging in SQL: the other file attached, rows copied with their new ids mapped.
#include "session/SessionMerge.h"

#include "session/Session.h"
#include "support/Database.h"
#include "support/Error.h"

#include <vector>

namespace tessera {

namespace {

// The model of `from`'s model `shardModel` in `into`: an equal one, else a copy.
int64_t mergedModel(sql::Database& db, int64_t shardModel) {
  sql::Statement same(db, "SELECT m.id FROM main.models m, shard.models s WHERE s.id = ?1 AND m.name = s.name AND m.onnx = s.onnx "
                          "ORDER BY m.id LIMIT 1");
  same.bind(1, shardModel);
  if (same.step()) return same.columnInt(0);
  sql::Statement copy(db, "INSERT INTO main.models (name, source_path, op_count, added_at, onnx) "
                          "SELECT name, source_path, op_count, added_at, onnx FROM shard.models WHERE id = ?1");
  copy.bind(1, shardModel).run();
  return db.lastInsertId();
}

bool alreadyMerged(sql::Database& db, int64_t shardRun) {
  sql::Statement same(db, "SELECT 1 FROM main.runs m, shard.runs s WHERE s.id = ?1 AND m.strategy = s.strategy AND "
                          "m.parameters = s.parameters AND m.seed = s.seed AND m.started_at = s.started_at");
  same.bind(1, shardRun);
  return same.step();
}

int64_t copyRun(sql::Database& db, int64_t shardRun, int64_t model) {
  sql::Statement run(db, "INSERT INTO main.runs (model_id, strategy, parameters, seed, cost_spec, started_at, finished_at, stop_reason, "
                         "original_cost_ms, best_cost_ms, speedup_pct, enodes, eclasses, steps, verified, in_sample) "
                         "SELECT ?2, strategy, parameters, seed, cost_spec, started_at, finished_at, stop_reason, original_cost_ms, "
                         "best_cost_ms, speedup_pct, enodes, eclasses, steps, verified, in_sample FROM shard.runs WHERE id = ?1");
  run.bind(1, shardRun).bind(2, model).run();
  const int64_t merged = db.lastInsertId();
  for (const char* sql : {"INSERT INTO main.events (run_id, sequence, seconds, kind, payload) "
                          "SELECT ?2, sequence, seconds, kind, payload FROM shard.events WHERE run_id = ?1",
                          "INSERT INTO main.decisions (run_id, step, kind, rule, seconds) "
                          "SELECT ?2, step, kind, rule, seconds FROM shard.decisions WHERE run_id = ?1 ORDER BY id"}) {
    sql::Statement rows(db, sql);
    rows.bind(1, shardRun).bind(2, merged).run();
  }
  std::vector<int64_t> candidates;
  sql::Statement list(db, "SELECT id FROM shard.candidates WHERE run_id = ?1 ORDER BY id");
  list.bind(1, shardRun);
  while (list.step()) candidates.push_back(list.columnInt(0));
  for (int64_t candidate : candidates) {
    sql::Statement copy(db, "INSERT INTO main.candidates (run_id, idx, cost_ms, method, step, op_count, onnx) "
                            "SELECT ?2, idx, cost_ms, method, step, op_count, onnx FROM shard.candidates WHERE id = ?1");
    copy.bind(1, candidate).bind(2, merged).run();
    const int64_t mergedCandidate = db.lastInsertId();
    sql::Statement origins(db, "INSERT INTO main.node_origins (candidate_id, node_index, node_name, rule, step) "
                               "SELECT ?2, node_index, node_name, rule, step FROM shard.node_origins WHERE candidate_id = ?1");
    origins.bind(1, candidate).bind(2, mergedCandidate).run();
  }
  return merged;
}

} // namespace

size_t mergeSession(Session& into, const std::string& from) {
  Session::open(from); // checks the file (a Tessera session, a schema this build reads) and brings it up to date
  sql::Database& db = into.database();
  {
    sql::Statement attach(db, "ATTACH DATABASE ?1 AS shard");
    attach.bind(1, from).run();
  }
  size_t copied = 0;
  try {
    sql::Transaction transaction(db);
    std::vector<std::pair<int64_t, int64_t>> runs; // shard run, its model
    {
      sql::Statement list(db, "SELECT id, model_id FROM shard.runs ORDER BY id");
      while (list.step()) runs.emplace_back(list.columnInt(0), list.columnInt(1));
    }
    for (const auto& [run, model] : runs) {
      if (alreadyMerged(db, run)) continue;
      copyRun(db, run, mergedModel(db, model));
      ++copied;
    }
    db.execute("INSERT OR IGNORE INTO main.op_costs (device, signature, ms) SELECT device, signature, ms FROM shard.op_costs");
    transaction.commit();
  } catch (const Error& e) {
    db.execute("DETACH DATABASE shard");
    throw errorInFile(from, std::string("cannot merge it into ") + into.path() + ": " + e.what());
  }
  db.execute("DETACH DATABASE shard");
  return copied;
}

} // namespace tessera
