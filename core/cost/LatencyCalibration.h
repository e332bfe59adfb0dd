// From op costs to whole-graph latency. An op is timed alone, many times, with its data hot in the
// caches; inside a graph the executor also dispatches it and streams its operands from memory. The
// calibration is an affine correction per executed op,
//   latency(op) = opScale x measured(op) + perOpMs + perMiBMs x MiB the op reads and writes,
// fitted by non-negative least squares (relative errors) against whole graphs timed end to end, and
// kept with the cost cache per device. Being a sum over ops, it keeps extraction's DAG cost exact.
#pragma once

#include "cost/CostModel.h"
#include "cost/OpSignature.h"
#include "ir/Graph.h"

#include <functional>
#include <span>
#include <string>

namespace tessera {

// What the calibration needs to know of one graph: the sum of its executed ops' measured costs,
// how many ops it executes, and how much data they move.
struct LatencyFeatures {
  double opMs = 0;
  double ops = 0;
  double movedMiB = 0;
};

struct LatencyCalibration {
  double opScale = 1;
  double perOpMs = 0;
  double perMiBMs = 0;
  size_t graphs = 0;      // how many timed graphs the fit saw
  double mapePct = 0;     // the fit's own mean absolute percentage error on them

  double opCostMs(double measuredMs, const OpSignature& signature) const;
  double predictMs(const LatencyFeatures& features) const;
  // "0.98 x op + 12.0 us/op + 0.310 ms/MiB (fitted on 40 graphs, 6.1 % error)".
  std::string describe() const;
};

// MiB an executed op reads and writes (inputs and outputs, by element size).
double movedMiB(const OpSignature& signature);

// The features of `graph` as `model`'s runtime runs it: ops that depend on weights alone are
// precomputed and views alias their input (runsAsView), so neither is executed. `measuredMs` is
// the uncalibrated op cost.
LatencyFeatures latencyFeatures(const Graph& graph, const CostModel& model, const std::function<double(const OpSignature&)>& measuredMs);

struct LatencySample {
  LatencyFeatures features;
  double measuredMs = 0; // end to end
};

// Minimises sum(((prediction - measured) / measured)^2) over non-negative coefficients (every
// subset of the three terms is solved exactly and the best feasible one kept; opScale stays in).
// Throws tessera::Error with no graph that has a positive measured latency.
LatencyCalibration fitLatencyCalibration(std::span<const LatencySample> graphs);

} // namespace tessera
