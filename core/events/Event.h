// What a search reports as it runs: one typed record per thing that happened. The event log of a
// session, the live views and the replay timeline are all built from these and nothing else.
#pragma once

#include "egraph/ENode.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tessera {

// An e-node entered the e-graph in a committed state (never during an MCTS simulation that is
// rolled back). The node is as added; its children may since have been merged.
struct ENodeAdded {
  EClassId eclass = 0;
  ENode node;
};

struct ClassesMerged {
  EClassId kept = 0;
  EClassId absorbed = 0;
};

// One successful application of a rule: the classes it matched and the e-nodes it created.
struct RuleApplied {
  std::string rule;
  int step = 0;
  std::vector<EClassId> matched;   // the matched root class of each source pattern
  std::vector<EClassId> results;   // the class each right-hand side landed in
  uint32_t newNodes = 0;
};

// MCTS tree: node ids are dense and unique within a run (0 is the first root; a committed node
// becomes the next root and keeps its id). `action` is the rule that
// leads from the parent to the node (empty for the root).
struct MctsNodeCreated {
  uint32_t id = 0;
  uint32_t parent = 0;
  std::string action;
  int depth = 0;
  size_t enodes = 0; // e-graph size in the node's state
  // PUCT: the learned guide's prior of `action` at the parent, so a view can show where the search
  // overruled the network. Absent for plain MCTS, roots and rebases (and in logs older than it).
  std::optional<double> prior;
};

struct MctsNodeVisited {
  uint32_t id = 0;
};

struct MctsBackedUp {
  uint32_t id = 0;
  uint32_t visits = 0;
  double totalValue = 0; // Q; mean value is totalValue / visits
  double reward = 0;     // the reward this backup carried
};

// The action of a committed step that rebased the e-graph onto the best graph (see EGraphRebased).
inline constexpr std::string_view kRebaseAction = "rebase";

// The search made a decision for good: MCTS committed an action, saturation finished an
// iteration, TASO accepted a graph.
struct StepCommitted {
  int step = 0;
  std::string action;       // rule name (MCTS, TASO), "iteration" (eqsat), kRebaseAction (MCTS)
  uint32_t mctsNode = 0;    // the committed MCTS node, 0 for other strategies
  uint32_t visits = 0;
  double meanValue = 0;
  size_t enodes = 0;
  size_t eclasses = 0;
};

struct CandidateExtracted {
  int candidate = 0; // index into the run's candidate list
  int step = 0;
  double costMs = 0;
  std::string method;
};

struct BestCostChanged {
  int step = 0;
  double previousMs = 0;
  double costMs = 0;
};

// Where a node of a rebased e-graph's seed came from (empty rule: the original model).
struct SeedOrigin {
  std::string rule;
  int step = -1;
  friend bool operator==(const SeedOrigin&, const SeedOrigin&) = default;
};

// The e-graph was replaced by a fresh one seeded with the best graph so far (MCTS, when the node
// limit is reached): e-node and class ids start over. The ENodeAdded events that follow build the
// new seed; `seed` gives the origin of each of them, in that order.
struct EGraphRebased {
  int step = 0;
  std::vector<SeedOrigin> seed;
};

// One rewrite an RL agent could take, as it saw it when deciding.
struct AgentCandidate {
  std::string rule;               // the rule's name; kAgentStopAction for stop
  std::vector<uint32_t> location; // ids of the current graph's ops the rule matched (empty for stop)
  // Those of `location` that are still the model's own ops, as ids of the original graph (ids of
  // the current graph change with every rewrite; the original's are what a view of the model shows).
  std::vector<uint32_t> originalOps;
  double costDeltaMs = 0;         // the rewritten graph's cost minus the current graph's
  double probability = 0;         // under the agent's policy
  friend bool operator==(const AgentCandidate&, const AgentCandidate&) = default;
};

inline constexpr std::string_view kAgentStopAction = "stop";
// A decision carries at most this many candidates: logs stay small when a state lists 64 rewrites.
inline constexpr size_t kAgentDecisionTopN = 10;

// An RL agent (X-RLflow) chose its action at `step`: its value estimate of the state and its most
// probable candidates, most probable first, always holding the one it took (`chosen` indexes
// `candidates`; a chosen candidate outside the top N takes the last place).
struct AgentDecided {
  int step = 0;
  double value = 0;
  uint32_t listed = 0; // candidates the agent chose among, stop included, before the cap
  std::vector<AgentCandidate> candidates;
  int chosen = 0;
};

enum class RunState { Started, Paused, Resumed, Stopped, Finished };
std::string_view runStateName(RunState state);

struct RunStateChanged {
  RunState state = RunState::Started;
  std::string reason; // the stop reason when finished or stopped
};

enum class DecisionKind { Pin, Unpin, Veto, Unveto, Pause, Resume, Step, Stop };
std::string_view decisionName(DecisionKind kind);

// A person's decision, recorded at the step where it takes effect.
struct UserDecision {
  DecisionKind kind = DecisionKind::Pause;
  std::string rule; // for pin/veto
  int step = 0;
};

using EventPayload = std::variant<ENodeAdded, ClassesMerged, RuleApplied, MctsNodeCreated, MctsNodeVisited, MctsBackedUp,
                                  StepCommitted, CandidateExtracted, BestCostChanged, RunStateChanged, UserDecision,
                                  EGraphRebased, AgentDecided>;

// The payload's index in EventPayload, stored in the session's event log.
enum class EventKind : uint8_t {
  ENodeAdded,
  ClassesMerged,
  RuleApplied,
  MctsNodeCreated,
  MctsNodeVisited,
  MctsBackedUp,
  StepCommitted,
  CandidateExtracted,
  BestCostChanged,
  RunStateChanged,
  UserDecision,
  EGraphRebased,
  AgentDecided,
  Count
};
std::string_view eventKindName(EventKind kind); // "enode_added", "classes_merged", ...

struct Event {
  uint64_t sequence = 0; // 0-based, in emission order within a run
  double seconds = 0;    // since the run started
  EventPayload payload;

  EventKind kind() const { return static_cast<EventKind>(payload.index()); }
};

} // namespace tessera
