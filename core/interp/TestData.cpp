// Dummy and seeded random tensors. Random values come from splitmix64 seeded by an FNV-1a hash
// of the name mixed with the seed: portable, stable across runs and platforms, and independent
// of which graph asks.
#include "interp/TestData.h"

#include "support/Error.h"

#include <cmath>
#include <set>
#include <string_view>

namespace tessera {

namespace {

uint64_t fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t state) : state_(state) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 24 random bits: every value is exact in float.
  float unit() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }

private:
  uint64_t state_;
};

void requireFloat(const TensorType& type, const std::string& what) {
  if (!isFloatingPoint(type.dtype)) throw Error(what + " is " + type.toString() + ": test data is float only");
}

// A weight's random value: see randomWeights in TestData.h.
Tensor randomWeight(const TensorType& type, uint64_t seed, const std::string& name, bool variance) {
  if (variance) return randomTensor(type, seed, name, 0.5f, 1.5f);
  Tensor t = randomTensor(type, seed, name);
  if (type.rank() < 2 || type.shape[0] == 0) return t;
  const double fanIn = static_cast<double>(type.numel()) / static_cast<double>(type.shape[0]);
  if (fanIn <= 0) return t;
  const float scale = static_cast<float>(std::sqrt(3.0 / fanIn));
  for (float& v : t.mutableFloats()) v *= scale;
  return t;
}

// Weights read as a variance: BatchNorm's input 4 and the folding ops' variance inputs.
void collectVarianceNames(const Graph& graph, std::set<std::string>& names) {
  for (const Node& node : graph.nodes()) {
    size_t port = 0;
    switch (node.kind) {
    case OpKind::BatchNorm: port = 4; break;
    case OpKind::FoldBatchNormWeight: port = 2; break;
    case OpKind::FoldBatchNormBias: port = 3; break;
    default: continue;
    }
    if (node.inputs.size() <= port || node.inputs[port].isNone()) continue;
    const Node& variance = graph.node(node.inputs[port].node);
    if (variance.kind == OpKind::Weight) names.insert(variance.name);
  }
}

} // namespace

Tensor dummyTensor(const TensorType& type) {
  requireFloat(type, "dummy tensor");
  Tensor t = Tensor::zeros(type);
  const int64_t n = t.numel();
  auto data = t.mutableFloats();
  // numpy: arange(n) / n in float64, then cast to float32.
  for (int64_t i = 0; i < n; ++i) data[static_cast<size_t>(i)] = static_cast<float>(static_cast<double>(i) / static_cast<double>(n));
  return t;
}

Tensor randomTensor(const TensorType& type, uint64_t seed, const std::string& name, float low, float high) {
  requireFloat(type, "random tensor '" + name + "'");
  SplitMix64 generator(fnv1a(name) ^ SplitMix64(seed).next());
  Tensor t = Tensor::zeros(type);
  const float below = std::nextafter(high, low);
  for (float& v : t.mutableFloats()) {
    v = low + (high - low) * generator.unit();
    if (v >= high) v = below; // rounding in the affine map may reach `high`
  }
  return t;
}

TensorMap dummyInputs(const Graph& graph) {
  TensorMap inputs;
  for (NodeId id : graph.inputNodes()) {
    const Node& node = graph.node(id);
    requireFloat(node.outputTypes[0], "input '" + node.name + "'");
    inputs[node.name] = dummyTensor(node.outputTypes[0]);
  }
  return inputs;
}

TensorMap randomInputs(const Graph& graph, uint64_t seed) {
  TensorMap inputs;
  for (NodeId id : graph.inputNodes()) {
    const Node& node = graph.node(id);
    requireFloat(node.outputTypes[0], "input '" + node.name + "'");
    inputs[node.name] = randomTensor(node.outputTypes[0], seed, node.name);
  }
  return inputs;
}

TensorMap randomWeights(const Graph& graph, uint64_t seed) {
  const Graph* graphs[] = {&graph};
  return randomWeights(graphs, seed);
}

TensorMap randomWeights(std::span<const Graph* const> graphs, uint64_t seed) {
  std::set<std::string> varianceNames;
  for (const Graph* graph : graphs) collectVarianceNames(*graph, varianceNames);
  TensorMap weights;
  for (const Graph* graph : graphs) {
    for (NodeId id : graph->weightNodes()) {
      const Node& node = graph->node(id);
      const TensorType& type = node.outputTypes[0];
      if (!isFloatingPoint(type.dtype) || type.numel() <= 1) continue;
      auto existing = weights.find(node.name);
      if (existing != weights.end()) {
        if (existing->second.type() != type)
          throw Error("weight '" + node.name + "' is " + existing->second.type().toString() + " in one graph and " + type.toString() +
                      " in another");
        continue;
      }
      weights[node.name] = randomWeight(type, seed, node.name, varianceNames.count(node.name) > 0);
    }
  }
  return weights;
}

} // namespace tessera
