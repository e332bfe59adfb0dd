#include "GraphDiff.h"

#include <cassert>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

namespace tessera::views {

namespace {

bool isSource(OpKind kind) { return kind == OpKind::Input || kind == OpKind::Weight; }

// Inputs of `node` expressed as first-graph values; nullopt when one has no counterpart yet.
std::optional<std::vector<ValueRef>> inputsInBefore(const Node& node, const GraphDiff& diff) {
  std::vector<ValueRef> mapped;
  mapped.reserve(node.inputs.size());
  for (ValueRef input : node.inputs) {
    if (input.isNone()) {
      mapped.push_back(input);
      continue;
    }
    const std::optional<NodeId>& counterpart = diff.afterToBefore[input.node];
    if (!counterpart) return std::nullopt;
    mapped.push_back({*counterpart, input.port});
  }
  return mapped;
}

// What a node computes, with its inputs named in first-graph ids: equal keys mean equal nodes.
std::string structureKey(const Node& node, const std::vector<ValueRef>& inputs) {
  std::string key(opName(node.kind));
  if (node.opaque) key += ":" + node.opaque->domain + "::" + node.opaque->opType;
  key += "(";
  for (ValueRef input : inputs) key += input.isNone() ? "-," : std::to_string(input.node) + "." + std::to_string(input.port) + ",";
  key += ")" + node.attrs.toString() + "->";
  for (const TensorType& type : node.outputTypes) key += type.toString() + ";";
  if (isSource(node.kind)) key += "#" + node.name; // sources are identified by name and type only
  return key;
}

// True when `now` (a first-graph value) is what `was` read through nodes the second graph no
// longer has: a relu fused away leaves its consumer reading the conv, which is not a change of
// the consumer. Only removed nodes are looked through, a few levels deep.
bool bypassesRemoved(const Graph& before, const GraphDiff& diff, ValueRef was, ValueRef now) {
  constexpr int kMaxDepth = 4;
  std::vector<ValueRef> frontier{was};
  for (int depth = 0; depth < kMaxDepth && !frontier.empty(); ++depth) {
    std::vector<ValueRef> next;
    for (ValueRef value : frontier) {
      if (value == now) return true;
      if (value.isNone() || diff.beforeToAfter[value.node]) continue; // still present: not bypassed
      for (ValueRef input : before.node(value.node).inputs) next.push_back(input);
    }
    frontier = std::move(next);
  }
  return false;
}

bool sameNode(const Graph& before, const GraphDiff& diff, NodeId aId, const Node& b, const std::vector<ValueRef>* bInputsInA) {
  const Node& a = before.node(aId);
  if (a.kind != b.kind || !(a.attrs == b.attrs) || a.outputTypes != b.outputTypes) return false;
  if (a.opaque && b.opaque && (a.opaque->domain != b.opaque->domain || a.opaque->opType != b.opaque->opType)) return false;
  if (!bInputsInA) return a.inputs.empty() && b.inputs.empty();
  if (a.inputs.size() != bInputsInA->size()) return false;
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i] != (*bInputsInA)[i] && !bypassesRemoved(before, diff, a.inputs[i], (*bInputsInA)[i])) return false;
  return true;
}

void link(GraphDiff& diff, NodeId a, NodeId b) {
  assert(!diff.beforeToAfter[a] && !diff.afterToBefore[b] && "each node has at most one counterpart");
  diff.beforeToAfter[a] = b;
  diff.afterToBefore[b] = a;
}

} // namespace

GraphDiff diffGraphs(const Graph& before, const Graph& after) {
  GraphDiff diff;
  diff.beforeToAfter.assign(before.size(), std::nullopt);
  diff.afterToBefore.assign(after.size(), std::nullopt);

  // 1. By name (and kind family: a source never matches an op).
  std::multimap<std::string, NodeId> beforeByName;
  for (NodeId a = 0; a < before.size(); ++a)
    if (!before.node(a).name.empty()) beforeByName.emplace(before.node(a).name, a);
  for (NodeId b = 0; b < after.size(); ++b) {
    const Node& node = after.node(b);
    if (node.name.empty()) continue;
    auto [first, last] = beforeByName.equal_range(node.name);
    for (auto it = first; it != last; ++it) {
      if (diff.beforeToAfter[it->second] || isSource(before.node(it->second).kind) != isSource(node.kind)) continue;
      link(diff, it->second, b);
      break;
    }
  }

  // 2. By structure, inputs first, so that a node's inputs have their counterparts when it is reached.
  std::unordered_multimap<std::string, NodeId> unmatchedBefore;
  for (NodeId a = 0; a < before.size(); ++a) {
    if (diff.beforeToAfter[a]) continue;
    unmatchedBefore.emplace(structureKey(before.node(a), before.node(a).inputs), a);
  }
  std::vector<NodeId> order;
  try {
    order = after.topologicalOrder();
  } catch (...) {
    for (NodeId b = 0; b < after.size(); ++b) order.push_back(b); // a cyclic graph still gets a best-effort diff
  }
  for (NodeId b : order) {
    if (diff.afterToBefore[b]) continue;
    const Node& node = after.node(b);
    std::optional<std::vector<ValueRef>> inputs = inputsInBefore(node, diff);
    if (!inputs) continue;
    auto it = unmatchedBefore.find(structureKey(node, *inputs));
    if (it == unmatchedBefore.end()) continue;
    link(diff, it->second, b);
    unmatchedBefore.erase(it);
  }

  // 3. Loosely: the same op on some of the same inputs is this node rewritten (a conv that absorbed
  // its relu, a concat fed by a fused conv), whatever the optimiser named it. It will show as changed.
  std::map<std::tuple<OpKind, size_t, NodeId, uint32_t>, std::vector<NodeId>> byInput; // (kind, position, input) -> consumers
  for (NodeId a = 0; a < before.size(); ++a) {
    if (diff.beforeToAfter[a] || isSource(before.node(a).kind)) continue;
    const Node& node = before.node(a);
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (!node.inputs[i].isNone()) byInput[{node.kind, i, node.inputs[i].node, node.inputs[i].port}].push_back(a);
  }
  for (NodeId b : order) {
    const Node& node = after.node(b);
    if (diff.afterToBefore[b] || isSource(node.kind)) continue;
    std::map<NodeId, int> agreeing; // candidate -> inputs in common
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      ValueRef input = node.inputs[i];
      if (input.isNone() || !diff.afterToBefore[input.node]) continue;
      auto it = byInput.find({node.kind, i, *diff.afterToBefore[input.node], input.port});
      if (it == byInput.end()) continue;
      for (NodeId a : it->second)
        if (!diff.beforeToAfter[a] && before.node(a).outputTypes == node.outputTypes) ++agreeing[a];
    }
    NodeId best = 0;
    int bestCount = 0;
    for (auto [a, count] : agreeing)
      if (count > bestCount) { // ties keep the earliest node, which is the usual topological twin
        best = a;
        bestCount = count;
      }
    if (bestCount > 0) link(diff, best, b);
  }

  // 4. Statuses.
  diff.before.assign(before.size(), DiffStatus::Removed);
  diff.after.assign(after.size(), DiffStatus::Added);
  for (NodeId b = 0; b < after.size(); ++b) {
    if (!diff.afterToBefore[b]) {
      ++diff.added;
      continue;
    }
    NodeId a = *diff.afterToBefore[b];
    std::optional<std::vector<ValueRef>> inputs = inputsInBefore(after.node(b), diff);
    DiffStatus status = sameNode(before, diff, a, after.node(b), inputs ? &*inputs : nullptr) ? DiffStatus::Same
                                                                                               : DiffStatus::Changed;
    diff.before[a] = diff.after[b] = status;
    diff.changed += status == DiffStatus::Changed;
  }
  for (NodeId a = 0; a < before.size(); ++a) diff.removed += !diff.beforeToAfter[a];
  return diff;
}

} // namespace tessera::views
