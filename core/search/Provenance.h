// Remembers which rule application, at which step, created each e-node of the committed e-graph,
// and forwards the e-graph's changes to the event stream. Attach it with EGraph::setListener only
// while committed changes are made (never during an MCTS simulation that is rolled back).
#pragma once

#include "egraph/EGraph.h"
#include "events/EventSink.h"
#include "rewrite/Rule.h"
#include "search/EGraphExtraction.h"
#include "search/Strategy.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

class ProvenanceRecorder : public EGraphListener {
public:
  explicit ProvenanceRecorder(EventStream& events) : events_(events) {}

  void nodeAdded(const ENode& node, EClassId eclass) override;
  void classesMerged(EClassId kept, EClassId absorbed) override;

  // The nodes added so far are the original model's (seeding): they stay in the event stream but
  // belong to no rule application.
  void originalSeeded() { pending_.clear(); }

  // Rebasing: a fresh e-graph seeded with a candidate graph. Between the two calls the seed's
  // e-nodes are held back, so that EGraphRebased (carrying each one's origin, from `origins` by
  // graph NodeId) precedes them in the event stream; the new seed keeps the candidate's provenance.
  void beginRebase();
  void finishRebase(int step, const SeededGraph& seed, const std::vector<NodeOrigin>& origins);

  // Attributes the nodes added since the last call to this application and emits RuleApplied.
  void ruleApplied(const Rule& rule, const RuleMatch& match, const RuleApplication& application, int step);

  // The origin of each chosen e-node (canonicalised against the e-graph as it is now).
  std::vector<NodeOrigin> originsOf(const EGraph& egraph, const std::vector<ENode>& nodes) const;

  // The extracted graph as a run's candidate: its cost under `cost` and each node's origin.
  Candidate candidate(const EGraph& egraph, ExtractedGraph extracted, CostModel& cost, int step) const;

private:
  EventStream& events_;
  std::vector<ENode> pending_;
  bool rebasing_ = false;
  std::vector<ENodeAdded> held_; // the rebased seed's events, until finishRebase
  std::vector<std::pair<ENode, NodeOrigin>> recorded_;
  std::vector<std::pair<ENode, NodeOrigin>> seeded_; // a rebased seed's nodes that came from rules
};

} // namespace tessera
