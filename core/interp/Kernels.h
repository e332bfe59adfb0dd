// The interpreter's kernels, one family per source file. Each takes a node (attributes in the
// IR's canonical form, output types already inferred) and its checked inputs. Internal to interp.
#pragma once

#include "interp/KernelSupport.h"

namespace tessera::interp {

// Convolution.cpp
Tensor conv(const Node& node, KernelInputs in);
Tensor convTranspose(const Node& node, KernelInputs in);

// Linear.cpp
Tensor matMul(const Node& node, KernelInputs in);
Tensor gemm(const Node& node, KernelInputs in);

// Recurrent.cpp
std::vector<Tensor> lstm(const Node& node, KernelInputs in); // Y, Y_h, Y_c

// Normalization.cpp
Tensor batchNorm(const Node& node, KernelInputs in);
Tensor layerNorm(const Node& node, KernelInputs in);
Tensor lrn(const Node& node, KernelInputs in);
Tensor lrnDenominator(const Node& node, KernelInputs in);
Tensor instanceNorm(const Node& node, KernelInputs in);

// Reduction.cpp
Tensor softmaxFamily(const Node& node, KernelInputs in); // Softmax LogSoftmax Hardmax
Tensor reduce(const Node& node, KernelInputs in);        // ReduceMean ReduceSum ... ReduceSumSquare
Tensor argReduce(const Node& node, KernelInputs in);     // ArgMax ArgMin
Tensor cumSum(const Node& node, KernelInputs in);

// Elementwise.cpp
Tensor unary(const Node& node, KernelInputs in); // Relu ... Mish (Neg, Abs, Sign on integers too)
Tensor broadcastBinary(const Node& node, KernelInputs in); // Add Sub Mul Div Pow Mod PRelu, variadic Sum Mean Min Max

// Logic.cpp
Tensor compare(const Node& node, KernelInputs in);   // Equal Less ... GreaterOrEqual, And Or Xor: Bool out
Tensor predicate(const Node& node, KernelInputs in); // Not IsNaN IsInf
Tensor where(const Node& node, KernelInputs in);
Tensor cast(const Node& node, KernelInputs in);
Tensor scalarMul(const Node& node, KernelInputs in);

// Pooling.cpp
Tensor maxPool(const Node& node, KernelInputs in);
Tensor averagePool(const Node& node, KernelInputs in);
Tensor globalAveragePool(const Node& node, KernelInputs in);
Tensor globalMaxPool(const Node& node, KernelInputs in);

// Layout.cpp
Tensor copyAsOutput(const Node& node, KernelInputs in); // Reshape Flatten Squeeze Unsqueeze Identity Dropout
Tensor concat(const Node& node, KernelInputs in);
std::vector<Tensor> split(const Node& node, KernelInputs in);
Tensor transpose(const Node& node, KernelInputs in);
Tensor slice(const Node& node, KernelInputs in);
Tensor gather(const Node& node, KernelInputs in);
Tensor pad(const Node& node, KernelInputs in);
Tensor expand(const Node& node, KernelInputs in);
Tensor tile(const Node& node, KernelInputs in);
Tensor trilu(const Node& node, KernelInputs in);
Tensor depthSpace(const Node& node, KernelInputs in); // DepthToSpace SpaceToDepth

// Resize.cpp
Tensor resize(const Node& node, KernelInputs in);

// WeightTransforms.cpp
Tensor enlarge(const Node& node, KernelInputs in);
Tensor mergeGroups(const Node& node, KernelInputs in);
Tensor foldBatchNormWeight(const Node& node, KernelInputs in);
Tensor foldBatchNormBias(const Node& node, KernelInputs in);

} // namespace tessera::interp
