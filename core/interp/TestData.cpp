// Dummy and seeded random tensors. Random values come from splitmix64 seeded by an FNV-1a hash
// of the name mixed with the seed: portable, stable across runs and platforms, and independent
// of which graph asks.
#include "interp/TestData.h"

#include "support/Error.h"

#include <algorithm>
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

// The values an integer input may take so that every reader accepts them: [0, n) where some
// Gather reads it (through shape-only ops and casts) as indices into an axis of size n, the
// smallest such n; [0, 2) otherwise (masks, flags, Bool).
int64_t integerInputBound(const Graph& graph, NodeId input) {
  int64_t bound = -1;
  std::vector<ValueRef> frontier = {{input, 0}};
  std::set<NodeId> seen = {input};
  while (!frontier.empty()) {
    const ValueRef value = frontier.back();
    frontier.pop_back();
    for (NodeId id = 0; id < graph.size(); ++id) {
      const Node& node = graph.node(id);
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (node.inputs[i] != value) continue;
        if (node.kind == OpKind::Gather && i == 1) {
          const Shape& data = graph.typeOf(node.inputs[0]).shape;
          const int64_t axis = node.attrs.getInt("axis", 0);
          const int64_t size = data[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(data.size()) : axis)];
          bound = bound < 0 ? size : std::min(bound, size);
          continue;
        }
        const bool passesValues = isDataView(node.kind) || node.kind == OpKind::Cast || node.kind == OpKind::Expand ||
                                  node.kind == OpKind::Slice || node.kind == OpKind::Transpose || node.kind == OpKind::Concat;
        if (passesValues && !isFloatingPoint(node.outputTypes[0].dtype) && seen.insert(id).second) frontier.push_back({id, 0});
      }
    }
  }
  return bound < 0 ? 2 : std::max<int64_t>(bound, 1);
}

} // namespace

Tensor randomIntegerTensor(const TensorType& type, uint64_t seed, const std::string& name, int64_t low, int64_t high) {
  if (!isInteger(type.dtype)) throw Error("random integer tensor '" + name + "' is " + type.toString());
  if (high <= low) throw Error("random integer tensor '" + name + "' needs low < high");
  SplitMix64 generator(fnv1a(name) ^ SplitMix64(seed).next());
  Tensor t = Tensor::zeros(type);
  const uint64_t span = static_cast<uint64_t>(high - low);
  for (int64_t& v : t.mutableInts()) v = low + static_cast<int64_t>(generator.next() % span);
  return t;
}

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
    const TensorType& type = node.outputTypes[0];
    if (isInteger(type.dtype)) {
      // arange(n) modulo the valid range, so that indices stay in range.
      const int64_t bound = integerInputBound(graph, id);
      std::vector<int64_t> values(static_cast<size_t>(type.numel()));
      for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i) % bound;
      inputs[node.name] = Tensor::fromInts(type, std::move(values));
      continue;
    }
    requireFloat(type, "input '" + node.name + "'");
    inputs[node.name] = dummyTensor(type);
  }
  return inputs;
}

TensorMap randomInputs(const Graph& graph, uint64_t seed) {
  TensorMap inputs;
  for (NodeId id : graph.inputNodes()) {
    const Node& node = graph.node(id);
    const TensorType& type = node.outputTypes[0];
    if (isInteger(type.dtype)) {
      inputs[node.name] = randomIntegerTensor(type, seed, node.name, 0, integerInputBound(graph, id));
      continue;
    }
    requireFloat(type, "input '" + node.name + "'");
    inputs[node.name] = randomTensor(type, seed, node.name);
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
