// The deterministic default cost model: a roofline per op,
//   cost = max(FLOPs / (peak x efficiency), bytes / (bandwidth x efficiency)) + launch overhead,
// with layout ops free (TASO). A fused activation costs nothing extra, which is what makes
// fusion rules pay off, as on the real hardware.
#pragma once

#include "cost/CostModel.h"
#include "cost/DeviceProfile.h"

namespace tessera {

class AnalyticCostModel final : public CostModel {
public:
  explicit AnalyticCostModel(DeviceProfile device) : device_(std::move(device)) {}
  double costMs(const OpSignature& signature) override;
  std::string spec() const override { return "analytic:" + device_.name; }
  const DeviceProfile& device() const { return device_; }

private:
  DeviceProfile device_;
};

} // namespace tessera
