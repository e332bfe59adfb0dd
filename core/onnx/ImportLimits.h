// Bounds on what an ONNX file may ask for. Every size, dimension and shape-like integer read
// from a file is checked against these before it reaches the IR, so that hostile or corrupt
// files give an Error instead of an overflow or a huge allocation.
#pragma once

#include "ir/TensorType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::onnx_io {

// Larger files are refused before parsing (protobuf's own hard limit is 2 GiB).
inline constexpr int64_t kMaxModelBytes = int64_t(1) << 30;
// One dimension, and any integer that sizes a window or offsets an axis (strides, pads,
// dilations, split sizes, slice steps). With both bounded, products such as
// dilation * (kernel - 1) stay far from int64 overflow.
inline constexpr int64_t kMaxDimension = int64_t(1) << 31;
// Elements of one tensor: 2^40 float32 values are 4 TiB, far beyond any real model.
inline constexpr int64_t kMaxElements = int64_t(1) << 40;
// Integer constant chains (Shape -> Gather -> Concat ...) are folded up to this many elements.
inline constexpr int64_t kMaxFoldElements = int64_t(1) << 16;
// Tensors of higher rank are refused (ONNX models stay far below this).
inline constexpr size_t kMaxRank = 64;

// Element count of `shape`, or an Error naming `what` when a dimension is negative or too
// large, the rank exceeds kMaxRank, or the count exceeds kMaxElements.
int64_t checkedNumel(const Shape& shape, const std::string& what);

// Throws an Error naming `what` when any value lies outside [-kMaxDimension, kMaxDimension].
void checkBoundedInts(const std::vector<int64_t>& values, const std::string& what);

} // namespace tessera::onnx_io
