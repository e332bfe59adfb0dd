// Control flow kept opaque. If, Loop, Scan (and any node with a graph attribute) import as opaque
// nodes whose subgraphs stay serialized in their attributes, so export writes them back unchanged.
// A subgraph reads tensors of the enclosing graphs by name, invisibly to edges: import makes each
// such value an explicit input of the node (OpaqueOp::capturedNames), so the e-graph and dead-code
// elimination keep it. Output types come from importing the subgraphs themselves (every opaque op
// inside typed by libonnx, node by node), else from the model's declarations.
//
// The interpreter runs a control-flow node by importing the subgraph it needs with the values at
// hand (importSubgraph) and running that graph. This header has no protobuf types in it.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::onnx_io {

class ImportContext;
class OnnxNode;

// Imports a node that holds subgraphs as an opaque node with its captured outer values as extra
// inputs. Throws tessera::Error naming the node when a subgraph reads a name defined nowhere, or
// when a read output's type can be neither inferred nor taken from a declaration.
void importControlFlow(ImportContext& ctx, const OnnxNode& node, const std::string& domain);

// One graph attribute of an opaque op, for labels: "then_branch" with 41 nodes (its own nodes;
// a nested control-flow node counts once).
struct SubgraphSummary {
  std::string attribute;
  int64_t nodes = 0;
};
// Empty for an op without subgraphs.
std::vector<SubgraphSummary> summarizeSubgraphs(const OpaqueOp& op);

// An INT or INTS attribute of an opaque op, nullopt when absent.
std::optional<int64_t> intAttribute(const OpaqueOp& op, std::string_view name);
std::optional<std::vector<int64_t>> intsAttribute(const OpaqueOp& op, std::string_view name);

// One value handed to a subgraph: its type and, when `bind` is set, a value imported as a constant
// (shape operands read by the subgraph must be constants for the IR).
struct SubgraphArgument {
  TensorType type;
  const Tensor* bind = nullptr;
};

struct ImportedSubgraph {
  Graph graph;
  // The subgraph's own (formal) inputs, then the op's captured names: the graph's Input nodes,
  // except those bound to constants.
  std::vector<std::string> inputNames;
};

// Imports graph attribute `attribute` of `op` as a graph of its own. `formal` gives its formal
// inputs (as many as it declares), `captured` the op's capturedNames in order. `info` supplies
// the opsets. Throws tessera::Error prefixed by `label` when the subgraph does not import.
ImportedSubgraph importSubgraph(const OpaqueOp& op, std::string_view attribute, const std::vector<SubgraphArgument>& formal,
                                const std::vector<SubgraphArgument>& captured, const ModelInfo& info, const std::string& label);

} // namespace tessera::onnx_io
