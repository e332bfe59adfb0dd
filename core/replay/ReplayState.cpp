#include "replay/ReplayState.h"

#include <type_traits>

namespace tessera {

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

// A committed step that applied a rule (not an eqsat iteration, not an MCTS rebase).
bool isRuleAction(const std::string& action) { return !action.empty() && action != "iteration" && action != kRebaseAction; }
} // namespace

void ReplayState::apply(const Event& event) {
  const uint64_t sequence = event.sequence;
  // Any event other than e-graph growth marks the end of the seed (the original model's nodes).
  const EventKind kind = event.kind();
  if (kind != EventKind::ENodeAdded && kind != EventKind::ClassesMerged && kind != EventKind::RuleApplied &&
      kind != EventKind::RunStateChanged && kind != EventKind::EGraphRebased && egraph.numNodes() > 0)
    egraph.closeSeed();

  std::visit(Overloaded{
                 [&](const ENodeAdded& e) { egraph.addNode(e.eclass, e.node, sequence); },
                 [&](const ClassesMerged& e) { egraph.merge(e.kept, e.absorbed, sequence); },
                 [&](const RuleApplied& e) {
                   egraph.attributePending(e.rule, e.step, e.newNodes, e.results);
                   RuleStatistics& stats = rules[e.rule];
                   ++stats.applications;
                   stats.newNodes += e.newNodes;
                   stats.lastStep = e.step;
                 },
                 [&](const MctsNodeCreated& e) { tree.created(e, sequence); },
                 [&](const MctsNodeVisited& e) { tree.visited(e.id, sequence); },
                 [&](const MctsBackedUp& e) { tree.backedUp(e.id, e.visits, e.totalValue, e.reward, sequence); },
                 [&](const StepCommitted& e) {
                   steps.push_back(CommittedStep{e, sequence, event.seconds});
                   if (isRuleAction(e.action)) {
                     RuleStatistics& stats = rules[e.action];
                     ++stats.commits;
                     stats.lastStep = e.step;
                   }
                   if (e.mctsNode != 0 || tree.has(e.mctsNode)) tree.committed(e.mctsNode, e.step, sequence);
                 },
                 [&](const CandidateExtracted& e) {
                   candidates.push_back(CostPoint{sequence, event.seconds, e.step, e.costMs});
                 },
                 [&](const BestCostChanged& e) {
                   if (bestCost.empty()) bestCost.push_back(CostPoint{0, 0, -1, e.previousMs});
                   bestCost.push_back(CostPoint{sequence, event.seconds, e.step, e.costMs});
                   if (const CommittedStep* step = committedStep(e.step);
                       step && isRuleAction(step->commit.action))
                     rules[step->commit.action].costEffectMs += e.costMs - e.previousMs;
                 },
                 [&](const RunStateChanged& e) {
                   runState = e.state;
                   if (!e.reason.empty()) stopReason = e.reason;
                 },
                 [&](const EGraphRebased& e) { egraph.rebase(e.seed); },
                 [&](const AgentDecided& e) { agentDecisions.push_back(e); },
                 [&](const UserDecision& e) {
                   decisions.push_back(RecordedDecision{e, sequence});
                   switch (e.kind) {
                   case DecisionKind::Pin: pinned.insert(e.rule); break;
                   case DecisionKind::Unpin: pinned.erase(e.rule); break;
                   case DecisionKind::Veto: vetoed.insert(e.rule); break;
                   case DecisionKind::Unveto: vetoed.erase(e.rule); break;
                   default: break;
                   }
                 },
             },
             event.payload);
  ++eventsApplied;
  nextSequence = sequence + 1;
  seconds = event.seconds;
}

std::optional<double> ReplayState::currentBestMs() const {
  if (bestCost.empty()) return std::nullopt;
  return bestCost.back().costMs;
}

const CommittedStep* ReplayState::committedStep(int step) const {
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (it->commit.step == step) return &*it;
  return nullptr;
}

std::optional<double> ReplayState::bestBeforeStep(int step) const {
  std::optional<double> best;
  for (const CostPoint& point : bestCost)
    if (point.step < step) best = point.costMs;
  return best;
}

std::optional<double> ReplayState::bestAfterStep(int step) const {
  std::optional<double> best;
  for (const CostPoint& point : bestCost)
    if (point.step <= step) best = point.costMs;
  return best;
}

} // namespace tessera
