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

bool sameNode(const Node& a, const Node& b, const std::vector<ValueRef>* bInputsInA) {
  if (a.kind != b.kind || !(a.attrs == b.attrs) || a.outputTypes != b.outputTypes) return false;
  if (a.opaque && b.opaque && (a.opaque->domain != b.opaque->domain || a.opaque->opType != b.opaque->opType)) return false;
  if (!bInputsInA) return a.inputs.empty() && b.inputs.empty();
  return a.inputs == *bInputsInA;
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

  // 3. Statuses.
  diff.before.assign(before.size(), DiffStatus::Removed);
  diff.after.assign(after.size(), DiffStatus::Added);
  for (NodeId b = 0; b < after.size(); ++b) {
    if (!diff.afterToBefore[b]) {
      ++diff.added;
      continue;
    }
    NodeId a = *diff.afterToBefore[b];
    std::optional<std::vector<ValueRef>> inputs = inputsInBefore(after.node(b), diff);
    DiffStatus status = sameNode(before.node(a), after.node(b), inputs ? &*inputs : nullptr) ? DiffStatus::Same
                                                                                             : DiffStatus::Changed;
    diff.before[a] = diff.after[b] = status;
    diff.changed += status == DiffStatus::Changed;
  }
  for (NodeId a = 0; a < before.size(); ++a) diff.removed += !diff.beforeToAfter[a];
  return diff;
}

} // namespace tessera::views
