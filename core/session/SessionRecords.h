// What a session stores, as plain rows: models, runs, candidates (without their graphs, which
// load on demand), per-node provenance and user decisions. The Session reads and writes these.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tessera {

struct ModelRecord {
  int64_t id = 0;
  std::string name;
  std::string sourcePath;
  size_t opCount = 0;
  double addedAt = 0; // unix seconds
};

// What is known when a run starts.
struct RunInfo {
  int64_t modelId = 0;
  std::string strategy;                          // greedy, taso, eqsat, mcts
  std::map<std::string, std::string> parameters; // stored as a JSON object
  uint64_t seed = 1;
  std::string costSpec;                          // e.g. "analytic:h200"
};

// What is known when a run ends.
struct RunSummary {
  std::string stopReason;
  double originalCostMs = 0;
  double bestCostMs = 0;
  double speedupPct = 0;
  size_t enodes = 0;
  size_t eclasses = 0;
  int steps = 0;
  std::optional<bool> verified; // empty when verification did not run
  // An agent's or a guided search's run: whether its checkpoint trained on this model (the
  // figure is then in-sample). Empty for the other strategies and for older sessions.
  std::optional<bool> inSample;
};

struct RunRecord {
  int64_t id = 0;
  RunInfo info;
  double startedAt = 0;             // unix seconds
  std::optional<double> finishedAt; // empty while running (or when the run was killed)
  std::optional<RunSummary> summary;
  size_t eventCount = 0;

  double durationSeconds() const { return finishedAt ? *finishedAt - startedAt : 0; }
};

struct CandidateRecord {
  int64_t id = 0;
  int64_t runId = 0;
  int index = 0; // the candidate's index within its run
  double costMs = 0;
  std::string method;
  int step = 0;
  size_t opCount = 0;
};

// Where one node of a stored candidate came from. `nodeName` is the node's name in the stored
// graph (every node is named before it is stored), so it finds the node in loadCandidate's graph.
struct ProvenanceRecord {
  uint32_t nodeIndex = 0; // NodeId in the candidate graph as it was added
  std::string nodeName;
  std::string rule;       // empty: from the original model
  int step = -1;
};

struct DecisionRecord {
  int64_t runId = 0;
  int step = 0;
  std::string kind;   // decisionName(): pin, veto, pause, ...
  std::string rule;   // for pin/veto
  double seconds = 0; // since the run started
};

} // namespace tessera
