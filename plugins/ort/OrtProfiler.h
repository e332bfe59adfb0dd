// measured:ort's op profiler: each signature becomes a one-op ONNX model (SingleOpGraph.h) that
// the worker loads with every graph optimisation and runs with ORT's profiler on. An op's cost is
// the time ORT's own trace gives its nodes (the op, and what ORT adds around it, such as NCHWc
// reorders of a conv), so the call from Node.js into ORT that wall-clock timing of session.run
// includes is not counted once per op.
#pragma once

#include "OrtWorker.h"

#include "cost/OpProfiler.h"

#include <map>
#include <memory>

namespace tessera::ort {

class OrtProfiler final : public OpProfiler {
public:
  OrtProfiler(const OrtInstall& install, std::string device);

  std::string device() const override { return device_; }
  bool canMeasure(const OpSignature& signature) override;
  double measureMs(const OpSignature& signature) override;

  // Milliseconds of one run of an ONNX model file's nodes: the fastest of the timed runs after
  // warm-up, by ORT's profiler.
  double timeModelMs(const std::string& path);

private:
  OrtWorker worker_;
  std::string device_;
  // Signature key -> its one-op model, written and loaded by canMeasure ("" when it cannot be).
  std::map<std::string, std::string> loaded_;
  int modelsWritten_ = 0;
};

} // namespace tessera::ort
