#include "cost/LatencyCalibration.h"

#include "cost/GraphCost.h"
#include "support/Error.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace tessera {

namespace {

constexpr size_t kTerms = 3;
using Coefficients = std::array<double, kTerms>;

std::array<double, kTerms> termsOf(const LatencyFeatures& f) { return {f.opMs, f.ops, f.movedMiB}; }

// Solves the weighted least-squares problem restricted to the terms in `active` (normal equations,
// Gaussian elimination with partial pivoting); nullopt when they are degenerate.
std::optional<Coefficients> solveActive(std::span<const LatencySample> graphs, const std::array<bool, kTerms>& active) {
  std::array<size_t, kTerms> index{};
  size_t k = 0;
  for (size_t t = 0; t < kTerms; ++t)
    if (active[t]) index[k++] = t;
  std::array<std::array<double, kTerms + 1>, kTerms> system{};
  for (const LatencySample& g : graphs) {
    if (!(g.measuredMs > 0)) continue;
    const auto x = termsOf(g.features);
    const double weight = 1.0 / (g.measuredMs * g.measuredMs); // relative errors
    for (size_t r = 0; r < k; ++r) {
      for (size_t c = 0; c < k; ++c) system[r][c] += weight * x[index[r]] * x[index[c]];
      system[r][kTerms] += weight * x[index[r]] * g.measuredMs;
    }
  }
  for (size_t col = 0; col < k; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < k; ++r)
      if (std::abs(system[r][col]) > std::abs(system[pivot][col])) pivot = r;
    if (std::abs(system[pivot][col]) < 1e-12 * (1.0 + std::abs(system[col][col]))) return std::nullopt;
    std::swap(system[pivot], system[col]);
    for (size_t r = 0; r < k; ++r) {
      if (r == col) continue;
      const double factor = system[r][col] / system[col][col];
      for (size_t c = col; c <= kTerms; ++c) system[r][c] -= factor * system[col][c];
    }
  }
  Coefficients solution{};
  for (size_t r = 0; r < k; ++r) solution[index[r]] = system[r][kTerms] / system[r][r];
  return solution;
}

double relativeSquaredError(std::span<const LatencySample> graphs, const LatencyCalibration& c) {
  double sum = 0;
  for (const LatencySample& g : graphs) {
    if (!(g.measuredMs > 0)) continue;
    const double relative = (c.predictMs(g.features) - g.measuredMs) / g.measuredMs;
    sum += relative * relative;
  }
  return sum;
}

} // namespace

double movedMiB(const OpSignature& signature) {
  double bytes = 0;
  for (const TensorType& t : signature.inputs) bytes += static_cast<double>(t.numel()) * static_cast<double>(dtypeByteSize(t.dtype));
  for (const TensorType& t : signature.outputs) bytes += static_cast<double>(t.numel()) * static_cast<double>(dtypeByteSize(t.dtype));
  return bytes / (1024.0 * 1024.0);
}

double LatencyCalibration::opCostMs(double measuredMs, const OpSignature& signature) const {
  return opScale * measuredMs + perOpMs + perMiBMs * movedMiB(signature);
}

double LatencyCalibration::predictMs(const LatencyFeatures& f) const {
  return opScale * f.opMs + perOpMs * f.ops + perMiBMs * f.movedMiB;
}

std::string LatencyCalibration::describe() const {
  char line[160];
  std::snprintf(line, sizeof line, "%.3f x op + %.1f us/op + %.3f ms/MiB (fitted on %zu graphs, %.1f %% error)", opScale,
                perOpMs * 1e3, perMiBMs, graphs, mapePct);
  return line;
}

LatencyFeatures latencyFeatures(const Graph& graph, const CostModel& model, const std::function<double(const OpSignature&)>& measuredMs) {
  LatencyFeatures features;
  for (NodeId id : executedOps(graph, model)) {
    const OpSignature signature = signatureOf(graph, id);
    features.opMs += measuredMs(signature);
    features.ops += 1;
    features.movedMiB += movedMiB(signature);
  }
  return features;
}

LatencyCalibration fitLatencyCalibration(std::span<const LatencySample> graphs) {
  size_t usable = 0;
  for (const LatencySample& g : graphs) usable += g.measuredMs > 0 ? 1 : 0;
  if (usable == 0) throw Error("cannot calibrate latency without a graph timed end to end");
  std::optional<LatencyCalibration> best;
  double bestError = std::numeric_limits<double>::infinity();
  // The op-cost term is always in; the overhead terms join when they help and stay non-negative.
  for (unsigned mask = 0; mask < (1u << (kTerms - 1)); ++mask) {
    std::array<bool, kTerms> active{true, (mask & 1u) != 0, (mask & 2u) != 0};
    std::optional<Coefficients> solution = solveActive(graphs, active);
    if (!solution) continue;
    bool feasible = true;
    for (double c : *solution) feasible = feasible && c >= 0;
    if (!feasible) continue;
    LatencyCalibration candidate{(*solution)[0], (*solution)[1], (*solution)[2], usable, 0};
    const double error = relativeSquaredError(graphs, candidate);
    if (error < bestError) {
      bestError = error;
      best = candidate;
    }
  }
  if (!best) throw Error("cannot calibrate latency: the timed graphs do not determine the op cost scale");
  double absolute = 0;
  for (const LatencySample& g : graphs)
    if (g.measuredMs > 0) absolute += std::abs(best->predictMs(g.features) - g.measuredMs) / g.measuredMs;
  best->mapePct = absolute / static_cast<double>(usable) * 100.0;
  return *best;
}

} // namespace tessera
