#include "ir/Graph.h"

#include "ir/CanonicalAttributes.h"
#include "ir/ShapeInference.h"
#include "support/Error.h"

#include <algorithm>
#include <cassert>

namespace tessera {

std::string describeNode(const Node& node) { return "node '" + node.name + "' (" + std::string(opName(node.kind)) + ")"; }

namespace {
std::string defaultName(OpKind kind, size_t id) { return std::string(opName(kind)) + "_" + std::to_string(id); }
} // namespace

NodeId Graph::addInput(std::string name, TensorType type) {
  Node node;
  node.kind = OpKind::Input;
  node.name = std::move(name);
  node.outputTypes = {std::move(type)};
  node.outputNames = {node.name};
  nodes_.push_back(std::move(node));
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Graph::addWeight(std::string name, Tensor value) {
  Node node;
  node.kind = OpKind::Weight;
  node.name = std::move(name);
  node.outputTypes = {value.type()};
  node.outputNames = {node.name};
  node.weight = std::make_shared<const Tensor>(std::move(value));
  nodes_.push_back(std::move(node));
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Graph::addNode(OpKind kind, std::vector<ValueRef> inputs, Attributes attrs, std::string name) {
  assert(kind != OpKind::Input && kind != OpKind::Weight && kind != OpKind::Opaque && "use the dedicated adders");
  Node node;
  node.kind = kind;
  node.name = name.empty() ? defaultName(kind, nodes_.size()) : std::move(name);
  std::vector<TensorType> inputTypes;
  inputTypes.reserve(inputs.size());
  for (const ValueRef& input : inputs) {
    if (input.isNone() || input.node >= nodes_.size() || input.port >= nodes_[input.node].outputTypes.size())
      throw Error("node '" + node.name + "' (" + std::string(opName(kind)) + ") has an input that does not exist");
    inputTypes.push_back(typeOf(input));
  }
  try {
    node.outputTypes = inferOutputTypes(kind, attrs, inputTypes);
    node.attrs = canonicalAttributes(kind, attrs, inputTypes);
  } catch (const Error& e) {
    throw Error("node '" + node.name + "' (" + std::string(opName(kind)) + "): " + e.what());
  }
  node.inputs = std::move(inputs);
  node.outputNames.resize(node.outputTypes.size());
  nodes_.push_back(std::move(node));
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Graph::addOpaque(OpaqueOp op, std::vector<ValueRef> inputs, std::vector<TensorType> outputTypes, std::string name) {
  Node node;
  node.kind = OpKind::Opaque;
  node.name = name.empty() ? op.opType + "_" + std::to_string(nodes_.size()) : std::move(name);
  for (const ValueRef& input : inputs)
    if (!input.isNone() && (input.node >= nodes_.size() || input.port >= nodes_[input.node].outputTypes.size()))
      throw Error("node '" + node.name + "' (" + op.opType + ") has an input that does not exist");
  node.inputs = std::move(inputs);
  node.outputTypes = std::move(outputTypes);
  node.outputNames.resize(node.outputTypes.size());
  node.opaque = std::make_shared<const OpaqueOp>(std::move(op));
  nodes_.push_back(std::move(node));
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Graph::addOutput(ValueRef value, std::string name) {
  assert(value.node < nodes_.size() && "graph output must refer to an existing node");
  outputs_.push_back({value, std::move(name)});
}

std::vector<NodeId> Graph::inputNodes() const {
  std::vector<NodeId> ids;
  for (NodeId id = 0; id < nodes_.size(); ++id)
    if (nodes_[id].kind == OpKind::Input) ids.push_back(id);
  return ids;
}

std::vector<NodeId> Graph::weightNodes() const {
  std::vector<NodeId> ids;
  for (NodeId id = 0; id < nodes_.size(); ++id)
    if (nodes_[id].kind == OpKind::Weight) ids.push_back(id);
  return ids;
}

std::optional<NodeId> Graph::findNode(std::string_view name) const {
  for (NodeId id = 0; id < nodes_.size(); ++id)
    if (nodes_[id].name == name) return id;
  return std::nullopt;
}

size_t Graph::opCount() const {
  return static_cast<size_t>(std::count_if(nodes_.begin(), nodes_.end(), [](const Node& n) {
    return n.kind != OpKind::Input && n.kind != OpKind::Weight;
  }));
}

namespace {
enum class Mark : uint8_t { Unvisited, OnStack, Done };

// Iterative DFS over input edges; returns the nodes on the first cycle found, else fills `order`.
std::vector<NodeId> depthFirst(const std::vector<Node>& nodes, std::vector<NodeId>* order) {
  std::vector<Mark> mark(nodes.size(), Mark::Unvisited);
  std::vector<std::pair<NodeId, size_t>> stack; // node, next input to visit
  for (NodeId start = 0; start < nodes.size(); ++start) {
    if (mark[start] != Mark::Unvisited) continue;
    stack.push_back({start, 0});
    mark[start] = Mark::OnStack;
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const auto& inputs = nodes[id].inputs;
      if (next < inputs.size()) {
        ValueRef input = inputs[next++];
        if (input.isNone()) continue;
        if (mark[input.node] == Mark::OnStack) {
          std::vector<NodeId> cycle;
          auto it = std::find_if(stack.begin(), stack.end(), [&](const auto& e) { return e.first == input.node; });
          for (; it != stack.end(); ++it) cycle.push_back(it->first);
          return cycle;
        }
        if (mark[input.node] == Mark::Unvisited) {
          mark[input.node] = Mark::OnStack;
          stack.push_back({input.node, 0});
        }
        continue;
      }
      mark[id] = Mark::Done;
      if (order) order->push_back(id);
      stack.pop_back();
    }
  }
  return {};
}
} // namespace

std::vector<NodeId> Graph::topologicalOrder() const {
  std::vector<NodeId> order;
  order.reserve(nodes_.size());
  std::vector<NodeId> cycle = depthFirst(nodes_, &order);
  if (!cycle.empty()) throw Error("graph has a cycle through node '" + nodes_[cycle.front()].name + "'");
  return order;
}

std::vector<NodeId> Graph::findCycle() const { return depthFirst(nodes_, nullptr); }

void Graph::reinferTypes() {
  for (NodeId id : topologicalOrder()) {
    Node& node = nodes_[id];
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight || node.kind == OpKind::Opaque) continue;
    std::vector<TensorType> inputTypes;
    for (const ValueRef& input : node.inputs) inputTypes.push_back(typeOf(input));
    try {
      node.outputTypes = inferOutputTypes(node.kind, node.attrs, inputTypes);
    } catch (const Error& e) {
      throw Error("node '" + node.name + "' (" + std::string(opName(node.kind)) + "): " + e.what());
    }
    node.outputNames.resize(node.outputTypes.size());
  }
}

Graph Graph::compacted() const {
  std::vector<bool> live(nodes_.size(), false);
  std::vector<NodeId> work;
  for (const GraphOutput& out : outputs_) work.push_back(out.value.node);
  while (!work.empty()) {
    NodeId id = work.back();
    work.pop_back();
    if (live[id]) continue;
    live[id] = true;
    for (const ValueRef& input : nodes_[id].inputs)
      if (!input.isNone()) work.push_back(input.node);
  }
  // Graph inputs stay even when unused: they are part of the model's signature.
  for (NodeId id = 0; id < nodes_.size(); ++id)
    if (nodes_[id].kind == OpKind::Input) live[id] = true;

  Graph result;
  result.info = info;
  std::vector<NodeId> remap(nodes_.size(), ValueRef::none().node);
  // Inputs first and in their original order: they are the model's signature.
  std::vector<NodeId> order = inputNodes();
  for (NodeId id : topologicalOrder())
    if (nodes_[id].kind != OpKind::Input) order.push_back(id);
  for (NodeId id : order) {
    if (!live[id]) continue;
    Node copy = nodes_[id];
    for (ValueRef& input : copy.inputs)
      if (!input.isNone()) input.node = remap[input.node];
    remap[id] = static_cast<NodeId>(result.nodes_.size());
    result.nodes_.push_back(std::move(copy));
  }
  for (GraphOutput out : outputs_) {
    out.value.node = remap[out.value.node];
    result.outputs_.push_back(std::move(out));
  }
  return result;
}

} // namespace tessera
