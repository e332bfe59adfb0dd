#include "cost/DeviceProfile.h"

namespace tessera {

// Vendor data-sheet figures (FP32 without tensor cores, DRAM bandwidth); launch overhead and
// efficiencies are typical values for cuDNN/cuBLAS kernels, the same for all three so that
// models compare devices by their hardware only.
const std::vector<DeviceProfile>& deviceProfiles() {
  static const std::vector<DeviceProfile> profiles = {
      {"h200", "NVIDIA H200 SXM (141 GB HBM3e)", 67000, 4800, 4.0, 0.7, 0.8},
      {"a100", "NVIDIA A100 SXM (80 GB HBM2e)", 19500, 2039, 4.0, 0.7, 0.8},
      {"v100", "NVIDIA V100 SXM2 (32 GB HBM2)", 15700, 900, 4.0, 0.7, 0.8},
  };
  return profiles;
}

const DeviceProfile* findDeviceProfile(std::string_view name) {
  for (const DeviceProfile& profile : deviceProfiles())
    if (profile.name == name) return &profile;
  return nullptr;
}

} // namespace tessera
