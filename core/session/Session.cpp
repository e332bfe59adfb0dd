#include "session/Session.h"

#include "ir/Graph.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "search/Candidate.h"
#include "support/Database.h"
#include "session/EventCodec.h"
#include "session/SessionSchema.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <unordered_set>

namespace tessera {

namespace {

double unixSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

int64_t clampSequence(uint64_t sequence) {
  return sequence > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                               : static_cast<int64_t>(sequence);
}

// Provenance finds nodes by name in the graph read back, so every node gets a unique one first.
Graph withNamedNodes(const Graph& graph) {
  Graph named = graph;
  std::unordered_set<std::string> taken;
  for (const Node& node : graph.nodes())
    if (!node.name.empty()) taken.insert(node.name);
  for (NodeId id = 0; id < named.size(); ++id) {
    Node& node = named.mutableNode(id);
    if (!node.name.empty()) continue;
    std::string name = std::string(opName(node.kind)) + "_" + std::to_string(id);
    while (taken.count(name)) name += "_";
    taken.insert(name);
    node.name = name;
  }
  return named;
}

} // namespace

struct Session::State {
  std::unique_ptr<sql::Database> db;
  // Reused by every append; declared after db so they are finalized before it closes.
  std::optional<sql::Statement> insertEvent;
  std::optional<sql::Statement> insertDecision;
};

Session::Session(std::unique_ptr<State> state) : state_(std::move(state)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

Session Session::open(const std::string& path) {
  int version = session_schema::checkFile(path);
  auto state = std::make_unique<State>();
  state->db = std::make_unique<sql::Database>(path, sql::Database::Mode::ReadWrite);
  if (version < session_schema::kCurrentVersion) session_schema::migrate(*state->db);
  return Session(std::move(state));
}

Session Session::create(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) throw errorInFile(path, "already exists; open it instead of creating it");
  auto state = std::make_unique<State>();
  state->db = std::make_unique<sql::Database>(path, sql::Database::Mode::Create);
  session_schema::migrate(*state->db);
  return Session(std::move(state));
}

Session Session::openOrCreate(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) ? open(path) : create(path);
}

const std::string& Session::path() const { return state_->db->path(); }

sql::Database& Session::database() { return *state_->db; }

int64_t Session::addModel(const std::string& name, const std::string& sourcePath, const Graph& graph) {
  std::string bytes = onnx_io::exportOnnxBytes(graph);
  sql::Statement insert(*state_->db, "INSERT INTO models (name, source_path, op_count, added_at, onnx) VALUES (?, ?, ?, ?, ?)");
  insert.bind(1, name).bind(2, sourcePath).bind(3, static_cast<int64_t>(graph.opCount())).bind(4, unixSeconds()).bindBlob(5, bytes);
  insert.run();
  return state_->db->lastInsertId();
}

std::vector<ModelRecord> Session::models() {
  sql::Statement query(*state_->db, "SELECT id, name, source_path, op_count, added_at FROM models ORDER BY id");
  std::vector<ModelRecord> models;
  while (query.step())
    models.push_back({query.columnInt(0), query.columnText(1), query.columnText(2), static_cast<size_t>(query.columnInt(3)),
                      query.columnDouble(4)});
  return models;
}

Graph Session::loadModel(int64_t modelId) {
  sql::Statement query(*state_->db, "SELECT onnx FROM models WHERE id = ?");
  query.bind(1, modelId);
  if (!query.step()) throw errorInFile(path(), "no model " + std::to_string(modelId));
  return onnx_io::importOnnxBytes(query.columnBlob(0), path() + " (model " + std::to_string(modelId) + ")");
}

int64_t Session::beginRun(const RunInfo& info) {
  nlohmann::json parameters = info.parameters;
  sql::Statement insert(*state_->db,
                        "INSERT INTO runs (model_id, strategy, parameters, seed, cost_spec, started_at) VALUES (?, ?, ?, ?, ?, ?)");
  insert.bind(1, info.modelId).bind(2, info.strategy).bind(3, parameters.dump()).bind(4, static_cast<int64_t>(info.seed));
  insert.bind(5, info.costSpec).bind(6, unixSeconds());
  insert.run();
  return state_->db->lastInsertId();
}

void Session::finishRun(int64_t runId, const RunSummary& summary) {
  sql::Statement update(*state_->db,
                        "UPDATE runs SET finished_at = ?, stop_reason = ?, original_cost_ms = ?, best_cost_ms = ?, speedup_pct = ?,"
                        " enodes = ?, eclasses = ?, steps = ?, verified = ?, in_sample = ? WHERE id = ?");
  update.bind(1, unixSeconds()).bind(2, summary.stopReason).bind(3, summary.originalCostMs).bind(4, summary.bestCostMs);
  update.bind(5, summary.speedupPct).bind(6, static_cast<int64_t>(summary.enodes)).bind(7, static_cast<int64_t>(summary.eclasses));
  update.bind(8, static_cast<int64_t>(summary.steps));
  if (summary.verified)
    update.bind(9, static_cast<int64_t>(*summary.verified));
  else
    update.bindNull(9);
  if (summary.inSample)
    update.bind(10, static_cast<int64_t>(*summary.inSample));
  else
    update.bindNull(10);
  update.bind(11, runId);
  update.run();
  if (state_->db->changes() == 0) throw errorInFile(path(), "no run " + std::to_string(runId));
}

namespace {

constexpr const char* kRunColumns =
    "SELECT id, model_id, strategy, parameters, seed, cost_spec, started_at, finished_at, stop_reason, original_cost_ms,"
    " best_cost_ms, speedup_pct, enodes, eclasses, steps, verified,"
    " (SELECT count(*) FROM events WHERE events.run_id = runs.id), in_sample FROM runs";

RunRecord readRun(const sql::Statement& row, const std::string& path) {
  RunRecord run;
  run.id = row.columnInt(0);
  run.info.modelId = row.columnInt(1);
  run.info.strategy = row.columnText(2);
  nlohmann::json parameters = nlohmann::json::parse(row.columnText(3), nullptr, false);
  if (!parameters.is_object()) throw errorInFile(path, "run " + std::to_string(run.id) + ": parameters are not a JSON object");
  for (const auto& [name, value] : parameters.items())
    run.info.parameters[name] = value.is_string() ? value.get<std::string>() : value.dump();
  run.info.seed = static_cast<uint64_t>(row.columnInt(4));
  run.info.costSpec = row.columnText(5);
  run.startedAt = row.columnDouble(6);
  run.eventCount = static_cast<size_t>(row.columnInt(16));
  if (row.columnIsNull(7)) return run;
  run.finishedAt = row.columnDouble(7);
  RunSummary summary;
  summary.stopReason = row.columnText(8);
  summary.originalCostMs = row.columnDouble(9);
  summary.bestCostMs = row.columnDouble(10);
  summary.speedupPct = row.columnDouble(11);
  summary.enodes = static_cast<size_t>(row.columnInt(12));
  summary.eclasses = static_cast<size_t>(row.columnInt(13));
  summary.steps = static_cast<int>(row.columnInt(14));
  if (!row.columnIsNull(15)) summary.verified = row.columnInt(15) != 0;
  if (!row.columnIsNull(17)) summary.inSample = row.columnInt(17) != 0;
  run.summary = summary;
  return run;
}

} // namespace

std::vector<RunRecord> Session::runs() {
  sql::Statement query(*state_->db, std::string(kRunColumns) + " ORDER BY id");
  std::vector<RunRecord> runs;
  while (query.step()) runs.push_back(readRun(query, path()));
  return runs;
}

std::optional<RunRecord> Session::run(int64_t runId) {
  sql::Statement query(*state_->db, std::string(kRunColumns) + " WHERE id = ?");
  query.bind(1, runId);
  if (!query.step()) return std::nullopt;
  return readRun(query, path());
}

int64_t Session::addCandidate(int64_t runId, int index, const Candidate& candidate) {
  const Graph& graph = candidate.graph;
  if (!candidate.origins.empty() && candidate.origins.size() != graph.size())
    throw Error("candidate " + std::to_string(index) + " has " + std::to_string(candidate.origins.size()) + " origins for " +
                std::to_string(graph.size()) + " nodes");
  Graph named = withNamedNodes(graph);
  std::string bytes = onnx_io::exportOnnxBytes(named);

  sql::Transaction transaction(*state_->db);
  sql::Statement insert(*state_->db, "INSERT INTO candidates (run_id, idx, cost_ms, method, step, op_count, onnx)"
                                     " VALUES (?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, runId).bind(2, static_cast<int64_t>(index)).bind(3, candidate.costMs).bind(4, candidate.method);
  insert.bind(5, static_cast<int64_t>(candidate.step)).bind(6, static_cast<int64_t>(graph.opCount())).bindBlob(7, bytes);
  insert.run();
  int64_t candidateId = state_->db->lastInsertId();

  sql::Statement origin(*state_->db, "INSERT INTO node_origins (candidate_id, node_index, node_name, rule, step) VALUES (?, ?, ?, ?, ?)");
  for (NodeId id = 0; id < candidate.origins.size(); ++id) {
    const NodeOrigin& from = candidate.origins[id];
    origin.bind(1, candidateId).bind(2, static_cast<int64_t>(id)).bind(3, named.node(id).name).bind(4, from.rule);
    origin.bind(5, static_cast<int64_t>(from.step)).run();
  }
  transaction.commit();
  return candidateId;
}

std::vector<CandidateRecord> Session::candidates(std::optional<int64_t> runId) {
  std::string sql = "SELECT id, run_id, idx, cost_ms, method, step, op_count FROM candidates";
  sql += runId ? " WHERE run_id = ? ORDER BY run_id, idx" : " ORDER BY run_id, idx";
  sql::Statement query(*state_->db, sql);
  if (runId) query.bind(1, *runId);
  std::vector<CandidateRecord> candidates;
  while (query.step())
    candidates.push_back({query.columnInt(0), query.columnInt(1), static_cast<int>(query.columnInt(2)), query.columnDouble(3),
                          query.columnText(4), static_cast<int>(query.columnInt(5)), static_cast<size_t>(query.columnInt(6))});
  return candidates;
}

Graph Session::loadCandidate(int64_t candidateId) {
  sql::Statement query(*state_->db, "SELECT onnx FROM candidates WHERE id = ?");
  query.bind(1, candidateId);
  if (!query.step()) throw errorInFile(path(), "no candidate " + std::to_string(candidateId));
  return onnx_io::importOnnxBytes(query.columnBlob(0), path() + " (candidate " + std::to_string(candidateId) + ")");
}

std::vector<ProvenanceRecord> Session::provenance(int64_t candidateId) {
  sql::Statement query(*state_->db,
                       "SELECT node_index, node_name, rule, step FROM node_origins WHERE candidate_id = ? ORDER BY node_index");
  query.bind(1, candidateId);
  std::vector<ProvenanceRecord> records;
  while (query.step())
    records.push_back({static_cast<uint32_t>(query.columnInt(0)), query.columnText(1), query.columnText(2),
                       static_cast<int>(query.columnInt(3))});
  return records;
}

void Session::appendEvents(int64_t runId, std::span<const Event> events) {
  if (events.empty()) return;
  sql::Database& db = *state_->db;
  if (!state_->insertEvent) {
    state_->insertEvent.emplace(db, "INSERT INTO events (run_id, sequence, seconds, kind, payload) VALUES (?, ?, ?, ?, ?)");
    state_->insertDecision.emplace(db, "INSERT INTO decisions (run_id, step, kind, rule, seconds) VALUES (?, ?, ?, ?, ?)");
  }
  sql::Transaction transaction(db);
  for (const Event& event : events) {
    state_->insertEvent->bind(1, runId).bind(2, clampSequence(event.sequence)).bind(3, event.seconds);
    state_->insertEvent->bind(4, eventKindName(event.kind())).bind(5, event_codec::encodePayload(event.payload)).run();
    const auto* decision = std::get_if<UserDecision>(&event.payload);
    if (!decision) continue;
    state_->insertDecision->bind(1, runId).bind(2, static_cast<int64_t>(decision->step)).bind(3, decisionName(decision->kind));
    state_->insertDecision->bind(4, decision->rule).bind(5, event.seconds).run();
  }
  transaction.commit();
}

std::vector<Event> Session::events(int64_t runId, uint64_t fromSequence, uint64_t toSequence) {
  sql::Statement query(*state_->db, "SELECT sequence, seconds, kind, payload FROM events"
                                    " WHERE run_id = ? AND sequence >= ? AND sequence < ? ORDER BY sequence");
  query.bind(1, runId).bind(2, clampSequence(fromSequence)).bind(3, clampSequence(toSequence));
  std::vector<Event> events;
  while (query.step()) {
    Event event;
    event.sequence = static_cast<uint64_t>(query.columnInt(0));
    event.seconds = query.columnDouble(1);
    try {
      event.payload = event_codec::decodePayload(query.columnText(2), query.columnText(3));
    } catch (const Error& e) {
      throw errorInFile(path(), "run " + std::to_string(runId) + ", event " + std::to_string(event.sequence) + ": " + e.what());
    }
    events.push_back(std::move(event));
  }
  return events;
}

size_t Session::eventCount(int64_t runId) {
  sql::Statement query(*state_->db, "SELECT count(*) FROM events WHERE run_id = ?");
  query.bind(1, runId);
  query.step();
  return static_cast<size_t>(query.columnInt(0));
}

std::vector<DecisionRecord> Session::decisions(int64_t runId) {
  sql::Statement query(*state_->db, "SELECT run_id, step, kind, rule, seconds FROM decisions WHERE run_id = ? ORDER BY id");
  query.bind(1, runId);
  std::vector<DecisionRecord> records;
  while (query.step())
    records.push_back({query.columnInt(0), static_cast<int>(query.columnInt(1)), query.columnText(2), query.columnText(3),
                       query.columnDouble(4)});
  return records;
}

void Session::recordOpCosts(const std::string& device, const std::map<std::string, double>& msBySignature) {
  sql::Transaction transaction(*state_->db);
  sql::Statement insert(*state_->db, "INSERT OR REPLACE INTO op_costs (device, signature, ms) VALUES (?, ?, ?)");
  for (const auto& [signature, ms] : msBySignature) insert.bind(1, device).bind(2, signature).bind(3, ms).run();
  transaction.commit();
}

std::map<std::string, double> Session::opCosts(const std::string& device) {
  sql::Statement query(*state_->db, "SELECT signature, ms FROM op_costs WHERE device = ?");
  query.bind(1, device);
  std::map<std::string, double> costs;
  while (query.step()) costs[query.columnText(0)] = query.columnDouble(1);
  return costs;
}

} // namespace tessera
