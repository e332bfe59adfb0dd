// measured:ort's whole-graph executor: a graph is written as ONNX (core's exporter, the same file
// `optimize --out` writes) and run by the worker with every graph optimisation, so its latency is
// what a user deploying the export in ONNX Runtime sees. Files and sessions are kept for the last
// few graphs, so interleaved timings of an original and a candidate load each once.
#pragma once

#include "OrtWorker.h"

#include "cost/GraphExecutor.h"

#include <deque>
#include <string>
#include <utility>

namespace tessera::ort {

class OrtExecutor final : public GraphExecutor {
public:
  OrtExecutor(const OrtInstall& install, std::string device);

  std::string device() const override { return device_; }
  std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) override;
  double measureLatencyMs(const Graph& graph, int warmup, int runs) override;

  // Per-run milliseconds of two model files, timed alternately after `warmup` runs of each (ABBA
  // order), for comparing an export with its original as ONNX Runtime runs the files themselves.
  std::pair<std::vector<double>, std::vector<double>> compareFiles(const std::string& first, const std::string& second, int warmup,
                                                                   int rounds);

private:
  // The ONNX file of `graph` in the worker's scratch folder, loaded in the worker. For timing,
  // splat weights (the light-model convention) get seeded random values by name first: ORT folds
  // equal constants and merges the ops they feed (nasrnn's 80 MatMuls ran as 9), so a light
  // model would time as a different, smaller model, and a rewrite that keeps ORT from merging
  // would look many times slower than it is with real weights.
  const std::string& modelFile(const Graph& graph, bool forTiming);

  OrtWorker worker_;
  std::string device_;
  struct Exported {
    Graph graph;
    bool forTiming = false;
    std::string path;
  };
  std::deque<Exported> exported_; // most recent last
  int filesWritten_ = 0;
};

} // namespace tessera::ort
