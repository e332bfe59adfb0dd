#include "egraph/GraphConversion.h"

#include "support/Error.h"

#include <cassert>

#include <unordered_set>

namespace tessera {

Node absentInput() {
  Node node;
  node.kind = OpKind::Weight;
  node.outputTypes = {TensorType{DType::Undefined, {}}};
  return node;
}

SeededGraph seedEGraph(EGraph& egraph, const Graph& graph) {
  SeededGraph seed;
  seed.info = graph.info;
  std::vector<std::vector<EClassId>> classOf(graph.size());
  seed.enodesOf.resize(graph.size());
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    std::vector<EClassId> children;
    for (const ValueRef& input : node.inputs)
      children.push_back(input.isNone() ? egraph.addLeaf(absentInput()) : classOf[input.node][input.port]);
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) {
      EClassId eclass = egraph.addLeaf(node);
      classOf[id] = {eclass};
      if (node.kind == OpKind::Input) seed.inputLeaves.push_back(egraph.eclass(eclass).nodes.front().payload);
      continue;
    }
    if (node.kind == OpKind::Opaque) {
      uint32_t leafId = egraph.registerLeaf(node);
      for (int port = 0; port < node.numOutputs(); ++port) {
        ENode enode{OpKind::Opaque, static_cast<uint16_t>(port), leafId, children};
        std::optional<EClassId> eclass = egraph.add(enode);
        assert(eclass && "opaque ops carry their own types");
        egraph.markOriginal(enode);
        classOf[id].push_back(*eclass);
        seed.enodesOf[id].push_back(enode);
      }
      continue;
    }
    uint32_t attrs = egraph.internAttributes(node.attrs);
    for (int port = 0; port < node.numOutputs(); ++port) {
      ENode enode{node.kind, static_cast<uint16_t>(port), attrs, children};
      std::optional<EClassId> eclass = egraph.add(enode);
      if (!eclass) throw Error("node '" + node.name + "' (" + std::string(opName(node.kind)) + ") does not type-check in the e-graph");
      classOf[id].push_back(*eclass);
      if (port == 0) seed.nodeNames.emplace(enode, node.name);
      egraph.markOriginal(enode);
      seed.enodesOf[id].push_back(enode);
    }
  }
  for (const GraphOutput& out : graph.outputs()) {
    seed.outputs.push_back(classOf[out.value.node][out.value.port]);
    seed.outputNames.push_back(out.name);
  }
  egraph.rebuild();
  return seed;
}

namespace {

class GraphBuilder {
public:
  GraphBuilder(const EGraph& egraph, const SeededGraph& seed, const std::function<const ENode*(EClassId)>& chosen,
               std::vector<ENode>* sources)
      : egraph_(egraph), seed_(seed), chosen_(chosen), sources_(sources) {
    // Names were recorded before any merge; re-key them by today's canonical children.
    for (const auto& [enode, name] : seed_.nodeNames) {
      ENode key = enode;
      for (EClassId& child : key.children) child = egraph_.find(child);
      names_.try_emplace(std::move(key), name);
    }
  }

  Graph build() {
    graph_.info = seed_.info;
    // The signature first: every original input, in order, even if the new graph no longer uses it.
    for (uint32_t leafId : seed_.inputLeaves) {
      const Node& input = egraph_.leaf(leafId).node;
      inputByLeaf_[leafId] = graph_.addInput(input.name, input.outputTypes[0]);
      noteSource(ENode{OpKind::Input, 0, leafId, {}});
    }
    for (size_t i = 0; i < seed_.outputs.size(); ++i) graph_.addOutput(valueOf(seed_.outputs[i]), seed_.outputNames[i]);
    return std::move(graph_);
  }

private:
  ValueRef valueOf(EClassId eclass) {
    eclass = egraph_.find(eclass);
    if (auto it = done_.find(eclass); it != done_.end()) return it->second;
    if (!onPath_.insert(eclass).second) throw Error("the chosen graph has a cycle through e-class " + std::to_string(eclass));
    const ENode* node = chosen_(eclass);
    if (!node) throw Error("no node chosen for e-class " + std::to_string(eclass));
    ValueRef value = materialize(*node);
    onPath_.erase(eclass);
    done_[eclass] = value;
    return value;
  }

  ValueRef materialize(const ENode& enode) {
    if (enode.op == OpKind::Input) {
      auto it = inputByLeaf_.find(enode.payload);
      if (it == inputByLeaf_.end()) throw Error("input leaf " + std::to_string(enode.payload) + " is not part of the signature");
      return {it->second, 0};
    }
    if (enode.op == OpKind::Weight) {
      if (egraph_.leaf(enode.payload).node.name.empty()) return ValueRef::none(); // absent optional input
      auto [it, inserted] = leafNodes_.try_emplace(enode.payload, 0);
      if (inserted) {
        const Node& weight = egraph_.leaf(enode.payload).node;
        it->second = graph_.addWeight(weight.name, *weight.weight);
        noteSource(enode);
      }
      return {it->second, 0};
    }
    // Ports of one multi-output op share a node: key it without the port.
    ENode key = enode;
    key.port = 0;
    for (EClassId& child : key.children) child = egraph_.find(child);
    if (auto it = opNodes_.find(key); it != opNodes_.end()) return {it->second, enode.port};
    std::vector<ValueRef> inputs;
    for (EClassId child : enode.children) inputs.push_back(valueOf(child));
    NodeId id = 0;
    if (enode.op == OpKind::Opaque) {
      const Node& opaque = egraph_.leaf(enode.payload).node;
      id = graph_.addOpaque(*opaque.opaque, std::move(inputs), opaque.outputTypes, opaque.name);
    } else {
      auto name = names_.find(key);
      id = graph_.addNode(enode.op, std::move(inputs), egraph_.attributes().get(enode.payload),
                          name == names_.end() || usedNames_.count(name->second) ? std::string() : name->second);
      usedNames_.insert(graph_.node(id).name);
    }
    opNodes_.emplace(key, id);
    noteSource(key);
    return {id, enode.port};
  }

  // Nodes are appended, so the next source belongs to the node just added.
  void noteSource(const ENode& enode) {
    if (sources_) sources_->push_back(enode);
  }

  const EGraph& egraph_;
  const SeededGraph& seed_;
  const std::function<const ENode*(EClassId)>& chosen_;
  std::vector<ENode>* sources_;
  Graph graph_;
  std::unordered_map<EClassId, ValueRef> done_;
  std::unordered_set<EClassId> onPath_;
  std::unordered_map<uint32_t, NodeId> inputByLeaf_;
  std::unordered_map<uint32_t, NodeId> leafNodes_;
  std::unordered_map<ENode, NodeId, ENodeHash> opNodes_;
  std::unordered_map<ENode, std::string, ENodeHash> names_;
  std::unordered_set<std::string> usedNames_;
};

} // namespace

Graph graphFromChoice(const EGraph& egraph, const SeededGraph& seed, const std::function<const ENode*(EClassId)>& chosen,
                      std::vector<ENode>* sources) {
  if (sources) sources->clear();
  return GraphBuilder(egraph, seed, chosen, sources).build();
}

} // namespace tessera
