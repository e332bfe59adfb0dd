// A graph of one op, built from its signature, for timing that op alone in ONNX Runtime. Operands
// that are parameters in real models (conv and Gemm weights, a rank-2 MatMul operand,
// normalisation statistics, a broadcast bias or scale) become weights, so ORT prepacks them and
// picks the kernels it would pick in the whole model; the rest are graph inputs, which ORT cannot
// fold away.
#pragma once

#include "cost/OpSignature.h"
#include "ir/Graph.h"

#include <vector>

namespace tessera::ort {

// Throws tessera::Error when the signature's op cannot be rebuilt with these types and attributes.
Graph singleOpGraph(const OpSignature& signature);

// The ops ONNX Runtime is timed on for a signature. A Conv with Tessera's fused activation is
// written as Conv then the activation, the same two nodes an unfused graph has, and ORT fuses both
// alike at load: pricing it as those two apart keeps a fusion ORT makes anyway from looking like a
// gain. An e-graph prices a Split one output at a time (an e-node per port); ORT copies each output,
// so one output is timed as the Slice that copies that window. Every other signature is timed as
// itself.
std::vector<OpSignature> timedAs(const OpSignature& signature);

} // namespace tessera::ort
