// Numerical equivalence of two graphs: both run on the same seeded random inputs and, unless
// asked otherwise, the same random weights by name, so that a rewrite that permutes or
// transposes a weight while keeping its name and shape shows up as a mismatch.
#include "interp/Verify.h"

#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <set>

namespace tessera {

namespace {

std::string formatValue(double v) {
  if (std::isnan(v)) return "nan"; // printf may say "-nan"
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

std::string coordinatesOf(int64_t index, const Shape& shape) {
  std::string text = "]";
  for (size_t d = shape.size(); d-- > 0;) {
    const int64_t extent = shape[d] > 0 ? shape[d] : 1;
    text = (d == 0 ? "" : ",") + std::to_string(index % extent) + text;
    index /= extent;
  }
  return "[" + text;
}

std::string outputLabel(const Graph& graph, size_t i) {
  return "output " + std::to_string(i) + " (" + graph.outputs()[i].name + ")";
}

// Why the two graphs cannot be compared at all, or "" when their interfaces agree.
std::string interfaceMismatch(const Graph& original, const Graph& candidate) {
  for (const Graph* graph : {&original, &candidate}) {
    const Graph& other = graph == &original ? candidate : original;
    const char* side = graph == &original ? "the original" : "the candidate";
    const char* otherSide = graph == &original ? "the candidate" : "the original";
    for (NodeId id : graph->inputNodes()) {
      const Node& input = graph->node(id);
      std::optional<NodeId> match = other.findNode(input.name);
      if (!match || other.node(*match).kind != OpKind::Input)
        return std::string(side) + " has input '" + input.name + "' that " + otherSide + " lacks";
      if (other.node(*match).outputTypes[0] != input.outputTypes[0])
        return "input '" + input.name + "' is " + input.outputTypes[0].toString() + " in " + side + " but " +
               other.node(*match).outputTypes[0].toString() + " in " + otherSide;
    }
  }
  if (original.outputs().size() != candidate.outputs().size())
    return "the original has " + std::to_string(original.outputs().size()) + " outputs, the candidate " +
           std::to_string(candidate.outputs().size());
  for (size_t i = 0; i < original.outputs().size(); ++i) {
    const TensorType& a = original.typeOf(original.outputs()[i].value);
    const TensorType& b = candidate.typeOf(candidate.outputs()[i].value);
    if (a.shape != b.shape) return outputLabel(original, i) + " has shape " + shapeToString(a.shape) + " but the candidate's " + shapeToString(b.shape);
    if (a.dtype != b.dtype)
      return outputLabel(original, i) + " is " + std::string(dtypeName(a.dtype)) + " but the candidate's is " + std::string(dtypeName(b.dtype));
  }
  return {};
}

// Every float element scaled by (1 + u * r), r uniform in [-1, 1). Scalars keep their values: they
// are exponents and epsilons, and Pow(x, 2.00001) of a negative x is NaN.
TensorMap perturbed(const TensorMap& tensors, double u, uint64_t seed) {
  std::mt19937_64 random(seed ^ 0x5deece66dULL);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  TensorMap result;
  for (const auto& [name, tensor] : tensors) {
    if (!tensor.holdsFloats() || tensor.numel() <= 1) {
      result.emplace(name, tensor);
      continue;
    }
    Tensor copy = tensor.materialized();
    for (float& value : copy.mutableFloats()) value = static_cast<float>(value * (1.0 + u * unit(random)));
    result.emplace(name, std::move(copy));
  }
  return result;
}

// The graph's own float weights by name, for perturbing them when the check uses each graph's own.
// A name two weights share is left out: a map by name would hand both the first one's values, and
// the "noise" would be the difference between them.
TensorMap ownWeights(const Graph& graph) {
  TensorMap weights;
  std::set<std::string> shared;
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.kind != OpKind::Weight || !node.weight || !node.weight->holdsFloats()) continue;
    if (!weights.emplace(node.name, *node.weight).second) shared.insert(node.name);
  }
  for (const std::string& name : shared) weights.erase(name);
  return weights;
}

double rootMeanSquare(const Tensor& t) {
  double sum = 0;
  int64_t count = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = t.valueAt(i);
    if (!std::isfinite(v)) continue;
    sum += v * v;
    ++count;
  }
  return count ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
}

// RMS over the finite elements of (a - b).
double rootMeanSquareDifference(const Tensor& a, const Tensor& b) {
  double sum = 0;
  int64_t count = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double d = a.valueAt(i) - b.valueAt(i);
    if (!std::isfinite(d)) continue;
    sum += d * d;
    ++count;
  }
  return count ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
}

// Per output of the original, how far float32-sized noise in its inputs and weights moves it.
std::vector<double> noiseAllowances(const Graph& original, const TensorMap& inputs, const TensorMap& weights,
                                    const std::vector<Tensor>& reference, const VerifyOptions& options, uint64_t seed,
                                    VerifyResult& result) {
  std::vector<double> allowance(reference.size(), 0.0);
  if (options.metric != VerifyMetric::NoiseScaled) return allowance;
  const TensorMap noisyInputs = perturbed(inputs, options.noisePerturbation, seed);
  const TensorMap noisyWeights = perturbed(options.randomizeWeights ? weights : ownWeights(original), options.noisePerturbation, ~seed);
  const std::vector<Tensor> noisy = runGraph(original, noisyInputs, noisyWeights);
  for (size_t i = 0; i < reference.size(); ++i) {
    const double sigma = rootMeanSquareDifference(noisy[i], reference[i]);
    allowance[i] = options.noiseFactor * sigma;
    const double signal = rootMeanSquare(reference[i]);
    if (signal > 0) result.noiseToSignal = std::max(result.noiseToSignal, sigma / signal);
  }
  return allowance;
}

// Folds one output pair into the result; the worst element is the one furthest beyond its
// tolerance (a NaN on one side only is infinitely far).
void compareOutput(const Graph& original, size_t index, const Tensor& a, const Tensor& b, const VerifyOptions& options,
                   double allowance, VerifyResult& result, double& worstExcess) {
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.valueAt(i), y = b.valueAt(i);
    const bool nanX = std::isnan(x), nanY = std::isnan(y);
    if ((nanX && nanY) || x == y) continue;
    double excess = std::numeric_limits<double>::infinity();
    if (!nanX && !nanY) {
      const double diff = std::fabs(x - y);
      result.maxAbsError = std::max(result.maxAbsError, diff);
      // Relative error only where the reference is not already inside the absolute tolerance.
      if (std::fabs(y) > options.atol) result.maxRelError = std::max(result.maxRelError, diff / std::fabs(y));
      excess = diff / (options.atol + options.rtol * std::fabs(y) + allowance);
    }
    if (excess > 1.0) result.equivalent = false;
    if (excess <= worstExcess) continue;
    worstExcess = excess;
    result.worst = outputLabel(original, index) + " element " + coordinatesOf(i, a.shape()) + ": " + formatValue(x) + " vs " + formatValue(y);
  }
}

} // namespace

std::string_view metricName(VerifyMetric metric) {
  return metric == VerifyMetric::Elementwise ? "elementwise" : "noise-scaled";
}

std::optional<VerifyMetric> parseMetric(std::string_view name) {
  for (VerifyMetric metric : {VerifyMetric::Elementwise, VerifyMetric::NoiseScaled})
    if (metricName(metric) == name) return metric;
  return std::nullopt;
}

std::string describeMetric(const VerifyOptions& options) {
  std::string text = std::string(metricName(options.metric)) + ": |a-b| <= " + formatValue(options.atol) + " + " +
                     formatValue(options.rtol) + "*|b|";
  if (options.metric == VerifyMetric::Elementwise) return text;
  return text + " + " + formatValue(options.noiseFactor) + "*sigma (sigma: RMS change of b with inputs and weights scaled by 1 +- " +
         formatValue(options.noisePerturbation) + ")";
}

VerifyResult verifyEquivalent(const Graph& original, const Graph& candidate, const VerifyOptions& options) {
  VerifyResult result;
  result.metric = describeMetric(options);
  result.worst = interfaceMismatch(original, candidate);
  if (!result.worst.empty()) return result;

  const Graph* graphs[] = {&original, &candidate};
  result.equivalent = true;
  double worstExcess = 0.0;
  for (int trial = 0; trial < std::max(1, options.trials); ++trial) {
    const uint64_t seed = options.seed + static_cast<uint64_t>(trial) * 0x9e3779b97f4a7c15ULL;
    const TensorMap inputs = randomInputs(original, seed);
    TensorMap weights;
    if (options.randomizeWeights) {
      try {
        weights = randomWeights(graphs, seed);
      } catch (const Error& e) {
        result.equivalent = false;
        result.worst = e.what();
        return result;
      }
    }
    const std::vector<Tensor> expected = runGraph(original, inputs, weights);
    const std::vector<Tensor> actual = runGraph(candidate, inputs, weights);
    const std::vector<double> allowance = noiseAllowances(original, inputs, weights, expected, options, seed, result);
    if (options.metric == VerifyMetric::NoiseScaled && result.noiseToSignal > options.maxNoiseToSignal) {
      result.equivalent = false;
      result.tooNoisy = true;
      result.worst = "float32 noise alone moves the original's outputs by " + formatValue(result.noiseToSignal) +
                     " of their RMS (above " + formatValue(options.maxNoiseToSignal) +
                     "): the check cannot tell a wrong graph from a right one here, so nothing is called verified";
      return result;
    }
    // Output i of the candidate is compared against the original's (the reference, `b`).
    for (size_t i = 0; i < expected.size(); ++i)
      compareOutput(original, i, actual[i], expected[i], options, allowance[i], result, worstExcess);
    if (!result.equivalent) return result;
  }
  return result;
}

} // namespace tessera
