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
  }
  return {};
}

// Folds one output pair into the result; the worst element is the one furthest beyond its
// tolerance (a NaN on one side only is infinitely far).
void compareOutput(const Graph& original, size_t index, const Tensor& a, const Tensor& b, const VerifyOptions& options,
                   VerifyResult& result, double& worstExcess) {
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
      excess = diff / (options.atol + options.rtol * std::fabs(y));
    }
    if (excess > 1.0) result.equivalent = false;
    if (excess <= worstExcess) continue;
    worstExcess = excess;
    result.worst = outputLabel(original, index) + " element " + coordinatesOf(i, a.shape()) + ": " + formatValue(x) + " vs " + formatValue(y);
  }
}

} // namespace

VerifyResult verifyEquivalent(const Graph& original, const Graph& candidate, const VerifyOptions& options) {
  VerifyResult result;
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
    // Output i of the candidate is compared against the original's (the reference, `b`).
    for (size_t i = 0; i < expected.size(); ++i) compareOutput(original, i, actual[i], expected[i], options, result, worstExcess);
    if (!result.equivalent) return result;
  }
  return result;
}

} // namespace tessera
