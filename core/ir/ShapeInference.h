// Output types of an op from its attributes and input types: the shape rule of every op.
#pragma once

#include "ir/Attributes.h"
#include "ir/Op.h"
#include "ir/TensorType.h"

#include <span>
#include <vector>

namespace tessera {

// Throws tessera::Error describing the mismatch when the inputs do not fit the op.
std::vector<TensorType> inferOutputTypes(OpKind kind, const Attributes& attrs, std::span<const TensorType> inputs);

// Numpy-style multidirectional broadcast of two shapes; throws tessera::Error when incompatible.
Shape broadcastShapes(const Shape& a, const Shape& b);

// Normalises a possibly negative axis against `rank`; throws when out of range.
int64_t normalizeAxis(int64_t axis, int64_t rank);

// Spatial output size of a conv or pool window.
int64_t windowOutputSize(int64_t input, int64_t kernel, int64_t stride, int64_t padBegin, int64_t padEnd,
                         int64_t dilation, bool ceilMode);

} // namespace tessera
