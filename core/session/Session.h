// A session: one SQLite file (.tsession) holding the models, runs, event logs, candidate graphs
// with their provenance, measured op costs and user decisions of a user's work, so that it can be
// reopened, listed and replayed. One Session is one connection: use it from one thread at a time
// and open a second Session on the same file to read while another thread writes (WAL).
#pragma once

#include "events/Event.h"
#include "session/SessionRecords.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

class Graph;
struct Candidate;

namespace sql {
class Database;
}

class Session {
public:
  // Opens an existing session, migrating an older schema. Before anything is written the file is
  // checked read-only; a missing file, one that is not SQLite, not a Tessera session, truncated,
  // corrupt or written by a newer Tessera throws tessera::Error naming the file and the problem,
  // and the file is left as it was.
  static Session open(const std::string& path);
  // Creates a new, empty session; throws if the file already exists.
  static Session create(const std::string& path);
  static Session openOrCreate(const std::string& path);

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();

  const std::string& path() const;

  // Models: the graph is stored as ONNX bytes.
  int64_t addModel(const std::string& name, const std::string& sourcePath, const Graph& graph);
  std::vector<ModelRecord> models();
  Graph loadModel(int64_t modelId);

  // Runs.
  int64_t beginRun(const RunInfo& info);
  void finishRun(int64_t runId, const RunSummary& summary);
  std::vector<RunRecord> runs();
  std::optional<RunRecord> run(int64_t runId);

  // Candidates: the listing carries no graphs; loadCandidate reads one on demand.
  int64_t addCandidate(int64_t runId, int index, const Candidate& candidate);
  std::vector<CandidateRecord> candidates(std::optional<int64_t> runId = std::nullopt);
  Graph loadCandidate(int64_t candidateId);
  std::vector<ProvenanceRecord> provenance(int64_t candidateId);

  // The event log: appends in one transaction (SessionRecorder batches for a running search).
  // UserDecision events are also written to the decisions table.
  void appendEvents(int64_t runId, std::span<const Event> events);
  // Events with fromSequence <= sequence < toSequence, in order.
  std::vector<Event> events(int64_t runId, uint64_t fromSequence = 0,
                            uint64_t toSequence = std::numeric_limits<uint64_t>::max());
  size_t eventCount(int64_t runId);
  std::vector<DecisionRecord> decisions(int64_t runId);

  // Measured op costs by device and op signature (as CostCache keys them).
  void recordOpCosts(const std::string& device, const std::map<std::string, double>& msBySignature);
  std::map<std::string, double> opCosts(const std::string& device);

  // The connection, for schema tests and tools; prefer the functions above.
  sql::Database& database();

private:
  struct State;
  explicit Session(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

} // namespace tessera
