// The few numbers of a device that the analytic roofline model needs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct DeviceProfile {
  std::string name;             // "h200"
  std::string description;
  double peakGflops;            // FP32 (non-tensor-core) peak
  double bandwidthGBs;          // DRAM bandwidth
  double launchOverheadUs;      // fixed cost of one kernel launch
  double computeEfficiency;     // fraction of peak a tuned library kernel reaches
  double memoryEfficiency;      // fraction of bandwidth a streaming kernel reaches
};

const std::vector<DeviceProfile>& deviceProfiles();
// nullptr when unknown.
const DeviceProfile* findDeviceProfile(std::string_view name);

} // namespace tessera
