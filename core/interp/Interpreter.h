// The reference interpreter: float32 CPU execution of every op in the table. It is the ground
// truth for rule checks and graph verification, so it favours obviously-correct loops; only
// Conv, MatMul and Gemm run on a blocked SIMD GEMM (interp/FloatGemm.h), fast enough for real
// models.
#pragma once

#include "ir/Graph.h"
#include "ir/Tensor.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace tessera {

using TensorMap = std::map<std::string, Tensor>;

// Evaluates one op on concrete inputs. Throws tessera::Error for opaque ops, inputs that do not
// match the node's types, or values the op rejects (an index out of range).
std::vector<Tensor> evaluateNode(const Node& node, std::span<const Tensor* const> inputs);

// Runs the whole graph. `inputs` holds every Input node by name; `weightOverrides` replaces
// weights by name (used to feed the same random weights to two graphs). Returns the graph
// outputs in order. Throws tessera::Error naming the failing node.
std::vector<Tensor> runGraph(const Graph& graph, const TensorMap& inputs, const TensorMap& weightOverrides = {});

} // namespace tessera
