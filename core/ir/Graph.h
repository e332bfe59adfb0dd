// A computation graph: nodes (ops with attributes and inferred output types) and the edges
// between their outputs and inputs. Nodes are stored densely; a NodeId is an index.
#pragma once

#include "ir/Attributes.h"
#include "ir/Op.h"
#include "ir/Tensor.h"
#include "ir/TensorType.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

using NodeId = uint32_t;

// One output of one node.
struct ValueRef {
  NodeId node = std::numeric_limits<NodeId>::max();
  uint32_t port = 0;

  // An absent optional input; only opaque nodes may have one.
  static ValueRef none() { return {}; }
  bool isNone() const { return node == std::numeric_limits<NodeId>::max(); }
  friend auto operator<=>(const ValueRef&, const ValueRef&) = default;
};

// What Tessera keeps of an op it does not know, so that export reproduces it exactly.
struct OpaqueOp {
  std::string domain;
  std::string opType;
  std::vector<std::string> attributeProtos; // each a serialized onnx::AttributeProto
  // Control flow (If, Loop, Scan): its subgraphs, kept in attributeProtos, read tensors of the
  // enclosing graph by name. Those values are the node's last capturedNames.size() inputs, so
  // edges show them; export makes each available under its name here.
  std::vector<std::string> capturedNames;
};

struct Node {
  OpKind kind = OpKind::Identity;
  std::string name;
  std::vector<ValueRef> inputs;
  Attributes attrs;
  std::vector<TensorType> outputTypes;
  std::vector<std::string> outputNames; // tensor names; empty entries are named on export
  std::shared_ptr<const Tensor> weight;  // Weight nodes: the value (often a splat)
  std::shared_ptr<const OpaqueOp> opaque; // Opaque nodes

  int numOutputs() const { return static_cast<int>(outputTypes.size()); }
};

// "node 'conv1' (Conv)", for messages about one node.
std::string describeNode(const Node& node);

struct GraphOutput {
  ValueRef value;
  std::string name;
};

// An axis of a graph input or output whose size the model leaves open: symbolic (an ONNX
// dim_param, a "free dimension") or unknown. The IR's shapes are static, so import binds each
// one; export may write it back open where the optimised graph allows
// (search/FreeDimensionExport.h).
struct FreeAxis {
  std::string tensor; // the graph input's or output's name
  bool output = false;
  int axis = 0;
  std::string param; // the dim_param; empty for an unknown size
  int64_t size = -1; // what import bound it to
};

// Facts about the model a graph came from that export needs to write it back.
struct ModelInfo {
  std::string name = "tessera";
  int64_t opset = 17;
  std::vector<std::pair<std::string, int64_t>> otherOpsets; // domain -> version, for opaque ops
  std::vector<FreeAxis> freeAxes; // in input, then output order
};

class Graph {
public:
  NodeId addInput(std::string name, TensorType type);
  NodeId addWeight(std::string name, Tensor value);
  // Infers output types and canonicalises the attributes (ir/CanonicalAttributes.h); throws
  // tessera::Error naming the node when the inputs do not fit.
  NodeId addNode(OpKind kind, std::vector<ValueRef> inputs, Attributes attrs = {}, std::string name = {});
  // An op Tessera does not know, with output types supplied by the caller.
  NodeId addOpaque(OpaqueOp op, std::vector<ValueRef> inputs, std::vector<TensorType> outputTypes, std::string name = {});
  void addOutput(ValueRef value, std::string name = {});

  size_t size() const { return nodes_.size(); }
  const Node& node(NodeId id) const { return nodes_[id]; }
  Node& mutableNode(NodeId id) { return nodes_[id]; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<GraphOutput>& outputs() const { return outputs_; }
  std::vector<GraphOutput>& mutableOutputs() { return outputs_; }
  const TensorType& typeOf(ValueRef value) const { return nodes_[value.node].outputTypes[value.port]; }
  std::vector<NodeId> inputNodes() const;  // Input nodes, in insertion order
  std::vector<NodeId> weightNodes() const;
  std::optional<NodeId> findNode(std::string_view name) const;

  // Node ids such that every node comes after its inputs. Throws tessera::Error on a cycle.
  std::vector<NodeId> topologicalOrder() const;
  // A cycle as a list of node ids (empty when the graph is acyclic).
  std::vector<NodeId> findCycle() const;
  bool hasCycle() const { return !findCycle().empty(); }

  // Re-derives every node's output types from its inputs, in topological order.
  void reinferTypes();
  // A copy without nodes that no output depends on, renumbered in topological order.
  Graph compacted() const;
  // Number of real ops (not inputs or weights).
  size_t opCount() const;

  ModelInfo info;

private:
  std::vector<Node> nodes_;
  std::vector<GraphOutput> outputs_;
};

} // namespace tessera
