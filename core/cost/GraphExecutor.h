// Runs a whole Graph on a device: the measured end-to-end cost (latency) of a graph, and outputs to
// check against the reference interpreter. Like OpProfiler, plugins implement it (plugins/cpu with
// oneDNN, plugins/cuda with cuDNN/cuBLAS); core and the CLI only call it.
#pragma once

#include "interp/Interpreter.h"
#include "ir/Graph.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera {

// A graph prepared once for timing (weights uploaded, weight-only ops computed, dummy inputs
// fed), so that its runs can be timed one at a time and interleaved with another graph's.
class TimedGraph {
public:
  virtual ~TimedGraph() = default;
  // Milliseconds of one whole-graph execution. Throws tessera::Error for a device failure.
  virtual double runMs() = 0;
};

class GraphExecutor {
public:
  virtual ~GraphExecutor() = default;

  // The device it runs on, e.g. "cpu:AMD EPYC 7B13 (2 threads)".
  virtual std::string device() const = 0;

  // Runs `graph` once on `inputs` (every Input node by name, as runGraph takes them) and returns
  // the graph outputs in order. Throws tessera::Error for a graph it cannot run (an opaque op, a
  // missing or mistyped input) or a device failure.
  virtual std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) = 0;

  // Median wall-clock milliseconds of one whole-graph execution over `runs` timed runs after
  // `warmup` untimed ones, on dummy inputs (arange(n)/n). Weights are prepared once, before timing.
  virtual double measureLatencyMs(const Graph& graph, int warmup, int runs) = 0;

  // `graph` prepared for single timed runs; it must outlive the result. The default times each
  // run as measureLatencyMs(graph, 0, 1), preparing the graph every time (correct, but slow for
  // a backend whose preparation is costly: override it).
  virtual std::unique_ptr<TimedGraph> prepareTiming(const Graph& graph);
};

} // namespace tessera
