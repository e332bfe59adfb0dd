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

// ORT runs convs, pools and the element-wise ops between them in a blocked channel layout (NCHWc)
// and reorders a tensor into or out of it only where a chain of such ops meets an op that cannot
// run blocked. A one-op model is a chain of its own, with a reorder on each side that the op does
// not pay inside a model: the profiler leaves those out of an op's time. A Split of a 4-D tensor
// along its channels cannot run blocked between convs: ORT reorders its input out of the blocked
// layout and each output back in. These are the tensors whose two reorders an op pays: the outputs
// of such a split (the input's reorder copies about as much as they do together), or the one
// output an e-graph prices.
std::vector<TensorType> nchwcBordersOf(const OpSignature& signature);

// A one-op model whose NCHWc reorders are those of a tensor of `type`: a 1x1 MaxPool over it,
// which ORT runs blocked with a reorder on each side.
OpSignature reorderProbe(const TensorType& type);

} // namespace tessera::ort
