// The ModelProto being written and the names of its tensors, shared by the export driver and
// the per-op writers. Names are fixed before any node is written: graph inputs, graph outputs,
// weights and node outputs keep the names the graph carries where they are unique; everything
// else gets a fresh name that collides with nothing in the graph.
#pragma once

#include "ir/Graph.h"

#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::onnx_io {

class ExportWriter {
public:
  ExportWriter(const Graph& graph, onnx::GraphProto* proto);

  const Graph& graph() const { return graph_; }
  onnx::GraphProto& proto() { return *proto_; }

  // The tensor name of an IR value ("" for an absent optional output of an opaque node).
  const std::string& nameOf(ValueRef value) const;
  // The name graph output `i` has in the file; it differs from nameOf(its value) only when
  // the same value is also an input, a weight or another output (then an Identity links them).
  const std::string& outputName(size_t i) const { return outputNames_[i]; }
  // A new tensor name derived from `base`, unique in the file.
  std::string fresh(const std::string& base);

  onnx::NodeProto& addNode(const std::string& opType, std::vector<std::string> inputs, std::vector<std::string> outputs,
                           const std::string& name);
  void addInitializer(const Tensor& value, const std::string& name);
  // Initializers for the operands that opset 17 takes as inputs; each returns its name.
  std::string addInt64Initializer(const std::vector<int64_t>& values, const std::string& base);
  std::string addScalarInitializer(DType type, double value, const std::string& base);
  // Control flow: makes `value` available under `captured`, the name a subgraph reads it by,
  // with an Identity (written once, here) where the value's own name differs.
  void provideCaptured(ValueRef value, const std::string& captured);

private:
  bool claim(const std::string& name) { return !name.empty() && claimed_.insert(name).second; }
  // Node names are unique in a file too: the checker allows repeats, ONNX Runtime refuses the model
  // ("two nodes with same node name"), and rewrites give several nodes the name of the one they replace.
  std::string uniqueNodeName(const std::string& name);

  const Graph& graph_;
  onnx::GraphProto* proto_;
  std::vector<std::vector<std::string>> names_; // per node, per output port
  std::vector<std::string> outputNames_;
  std::unordered_set<std::string> wanted_;  // every name the graph carries
  std::unordered_set<std::string> claimed_; // names given out
  std::unordered_map<std::string, size_t> nextSuffix_; // per base, for fresh()
  std::unordered_set<std::string> nodeNames_;
  std::unordered_map<std::string, size_t> nextNodeSuffix_; // per name, for uniqueNodeName()
  // Subgraphs read captured names as they are: those names go to the values captured (or to the
  // Identity that links them), and names defined inside a subgraph to nothing outside it.
  void nameCapturedValues();
  std::unordered_map<std::string, ValueRef> capturedValue_;
  std::unordered_set<std::string> linksWritten_;
};

// Writes the ONNX form of one IR node (nothing for Input; an initializer or ConstantOfShape
// for Weight). Throws tessera::Error for a node that opset 17 cannot express.
void writeNode(ExportWriter& writer, NodeId id);

} // namespace tessera::onnx_io
