// Inputs for running and verifying graphs: the ONNX backend tests' dummy data and seeded random
// tensors that depend only on (seed, name), so two graphs get the same values by name.
#pragma once

#include "interp/Interpreter.h"

#include <cstdint>

namespace tessera {

// arange(n)/n in the given shape (ONNX backend tests' dummy input).
Tensor dummyTensor(const TensorType& type);
// Uniform in [low, high), determined by (seed, name).
Tensor randomTensor(const TensorType& type, uint64_t seed, const std::string& name, float low = -1.0f, float high = 1.0f);

// Dummy data for every float Input; throws tessera::Error for a non-float input.
TensorMap dummyInputs(const Graph& graph);
TensorMap randomInputs(const Graph& graph, uint64_t seed);
// Random values for every float weight with more than one element (scalars are semantic
// constants such as epsilons and exponents and keep their values); a weight used as a
// BatchNorm variance gets values in [0.5, 1.5) so that it stays a variance.
TensorMap randomWeights(const Graph& graph, uint64_t seed);

} // namespace tessera
