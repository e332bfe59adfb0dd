// measured:ort's op profiler: each signature becomes a one-op ONNX model (SingleOpGraph.h) that
// the worker loads with every graph optimisation and times. The fixed cost of one session.run
// (Node.js's call into ORT, measured once on a one-element Relu) is taken off every op, so a
// graph's summed op costs track its whole-graph latency rather than counting that call per op.
#pragma once

#include "OrtWorker.h"

#include "cost/OpProfiler.h"

#include <map>
#include <memory>
#include <optional>

namespace tessera::ort {

class OrtProfiler final : public OpProfiler {
public:
  OrtProfiler(const OrtInstall& install, std::string device);

  std::string device() const override { return device_; }
  bool canMeasure(const OpSignature& signature) override;
  double measureMs(const OpSignature& signature) override;

  // Milliseconds of one run of an ONNX model file: the fastest of the timed runs after warm-up.
  double timeModelMs(const std::string& path);
  // The fixed cost of one session.run, measured on first use.
  double callOverheadMs();

private:
  OrtWorker worker_;
  std::string device_;
  // Signature key -> its one-op model, written and loaded by canMeasure ("" when it cannot be).
  std::map<std::string, std::string> loaded_;
  std::optional<double> overheadMs_;
  int modelsWritten_ = 0;
};

} // namespace tessera::ort
