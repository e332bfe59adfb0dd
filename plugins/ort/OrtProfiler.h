// measured:ort's op profiler: each signature becomes a one-op ONNX model (SingleOpGraph.h) that
// the worker loads with every graph optimisation and runs with ORT's profiler on. An op's cost is
// the time ORT's own trace gives its nodes (the op, and what ORT adds around it, but for the NCHWc
// reorders a one-op model has and a chain of convs does not), so the call from Node.js into ORT
// that wall-clock timing of session.run includes is not counted once per op.
#pragma once

#include "OrtWorker.h"

#include "cost/OpProfiler.h"

#include <map>
#include <memory>

namespace tessera::ort {

// One profiled model: the fastest run of all its nodes, of its NCHWc reorders alone, and of the
// rest (each the fastest run of its own, by ORT's profiler).
struct ModelTiming {
  double allMs = 0;
  double reordersMs = 0;
  double opsMs = 0;
};

class OrtProfiler final : public OpProfiler {
public:
  OrtProfiler(const OrtInstall& install, std::string device);

  std::string device() const override { return device_; }
  bool canMeasure(const OpSignature& signature) override;
  // An op's own nodes, without the NCHWc reorders around a one-op model (SingleOpGraph.h), plus
  // the reorders it pays inside a model (nchwcBordersOf).
  double measureMs(const OpSignature& signature) override;
  // A BatchNormalization after a Conv without a fused activation: ORT folds it into the conv.
  bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const override;

  // One run of an ONNX model file's nodes after warm-up, by ORT's profiler.
  ModelTiming timeModel(const std::string& path);

private:
  // Writes and loads the one-op model of `signature` once; false when it cannot be.
  bool canLoad(const OpSignature& signature);
  // Times the model canLoad loaded, and forgets it.
  ModelTiming timeLoaded(const OpSignature& signature);

  OrtWorker worker_;
  std::string device_;
  // Signature key -> its one-op model, written and loaded by canLoad ("" when it cannot be).
  std::map<std::string, std::string> loaded_;
  int modelsWritten_ = 0;
};

} // namespace tessera::ort
