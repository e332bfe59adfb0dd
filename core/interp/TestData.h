// Inputs for running and verifying graphs: the ONNX backend tests' dummy data and seeded random
// tensors that depend only on (seed, name), so two graphs get the same values by name.
#pragma once

#include "interp/Interpreter.h"

#include <cstdint>
#include <span>

namespace tessera {

// arange(n)/n in the given shape (ONNX backend tests' dummy input).
Tensor dummyTensor(const TensorType& type);
// Uniform in [low, high), determined by (seed, name); float types only (tessera::Error otherwise).
Tensor randomTensor(const TensorType& type, uint64_t seed, const std::string& name, float low = -1.0f, float high = 1.0f);

// Uniform integers in [low, high), determined by (seed, name); integer and Bool types only.
Tensor randomIntegerTensor(const TensorType& type, uint64_t seed, const std::string& name, int64_t low, int64_t high);

// Integer and Bool inputs (token ids, masks) get values every reader accepts: [0, n) where a
// Gather reads them as indices into an axis of size n (through reshapes and casts), else 0 or 1.
// Dummy data for every Input: arange(n)/n for floats, arange(n) modulo that range for integers.
TensorMap dummyInputs(const Graph& graph);
// randomTensor(type, seed, name) for every float Input, randomIntegerTensor in that range for
// integer ones.
TensorMap randomInputs(const Graph& graph, uint64_t seed);
// Random values for every float weight with more than one element (scalars are semantic
// constants such as epsilons and exponents and keep their values); a weight used as a
// BatchNorm variance (also a folded BatchNorm's) gets values in [0.5, 1.5) so that it stays one.
// Other weights are uniform in [-1, 1), and those of rank >= 2 are scaled by sqrt(3 / fanIn) with
// fanIn = numel / shape[0] (the fan-in of a conv weight [M,C,kh,kw] or Gemm weight [N,K]), so
// that activations of a deep model stay near 1 instead of overflowing after a few dozen layers.
// Apart from the variance rule, values depend only on (seed, name, shape), not on the graph.
TensorMap randomWeights(const Graph& graph, uint64_t seed);
// The same for several graphs at once: one value per weight name, a variance if the name is a
// BatchNorm variance in any of them. Throws tessera::Error when two graphs give one weight name
// different types.
TensorMap randomWeights(std::span<const Graph* const> graphs, uint64_t seed);

} // namespace tessera
