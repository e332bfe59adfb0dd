// The interpreter's control flow: If, Loop and Scan nodes kept opaque at import
// (onnx/ControlFlowImport.h). Each run imports the subgraph it needs as a graph of its own, with
// the values at hand (small integer values as constants, so shape chains fold as in the
// enclosing graph), and runs it with runGraph, recursively for nested control flow.
#pragma once

#include "ir/Graph.h"
#include "ir/Tensor.h"

#include <span>
#include <vector>

namespace tessera {

// An opaque node the interpreter runs: If, Loop or Scan of the default domain.
bool isControlFlow(const Node& node);

// The node's outputs (an absent optional output as an empty Tensor). `inputs` are all its inputs,
// captured ones included (nullptr for an absent optional one); `info` gives the opsets its
// subgraphs are read at. Supported: If; Loop (trip count and/or condition, loop-carried values
// whose type stays the same, scan outputs stacked on a new first axis); Scan from opset 9 (any
// axes and directions). Not supported: Scan before opset 9 (a batch axis and sequence_lens),
// sequence and optional values. Throws tessera::Error for those, a subgraph that does not import,
// or an output whose type differs from the node's.
std::vector<Tensor> runControlFlow(const Node& node, std::span<const Tensor* const> inputs, const ModelInfo& info);

} // namespace tessera
