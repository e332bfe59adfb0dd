// A graph of one op, built from its signature, for timing that op alone in ONNX Runtime. Operands
// that are parameters in real models (conv and Gemm weights, a rank-2 MatMul operand,
// normalisation statistics, a broadcast bias or scale) become weights, so ORT prepacks them and
// picks the kernels it would pick in the whole model; the rest are graph inputs, which ORT cannot
// fold away.
#pragma once

#include "cost/OpSignature.h"
#include "ir/Graph.h"

namespace tessera::ort {

// Throws tessera::Error when the signature's op cannot be rebuilt with these types and attributes.
Graph singleOpGraph(const OpSignature& signature);

} // namespace tessera::ort
