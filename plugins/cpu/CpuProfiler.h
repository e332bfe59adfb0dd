// measured:cpu — times op signatures with oneDNN on this CPU (TASO's method on a CPU: each
// distinct signature lowered once, warm-up runs, then the median of timed runs).
#pragma once

#include "DnnlOp.h"

#include "cost/OpProfiler.h"

#include <map>
#include <memory>

namespace tessera::cpu {

class CpuProfiler final : public OpProfiler {
public:
  explicit CpuProfiler(std::string device);

  std::string device() const override { return device_; }
  bool canMeasure(const OpSignature& signature) override;
  double measureMs(const OpSignature& signature) override;

private:
  std::string device_;
  dnnl::engine engine_;
  dnnl::stream stream_;
  // Lowered by canMeasure, consumed by measureMs; nullptr records "cannot".
  std::map<std::string, std::unique_ptr<DnnlOp>> lowered_;
};

} // namespace tessera::cpu
