#include "CpuBackend.h"

#include "CpuDevice.h"
#include "CpuExecutor.h"
#include "CpuProfiler.h"

#include "support/Error.h"

#include <oneapi/dnnl/dnnl.hpp>

namespace tessera::cpu {

std::string CpuBackend::description() const {
  const dnnl_version_t* version = dnnl_version();
  return "oneDNN " + std::to_string(version->major) + "." + std::to_string(version->minor) + "." + std::to_string(version->patch) +
         " op profiler and graph executor on the CPU";
}

std::string CpuBackend::unavailableReason() {
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return {};
  } catch (const dnnl::error& e) {
    return std::string("oneDNN has no CPU engine: ") + e.what();
  }
}

std::shared_ptr<TunedKernels> CpuBackend::tunedKernels() {
  std::call_once(tunedOpened_, [this] { tuned_ = TunedKernels::openDefault(); });
  return tuned_;
}

std::string CpuBackend::device() { return deviceKeyWithTunedKernels(cpuDeviceKey(), tunedKernels().get()); }

std::optional<DeviceProfile> CpuBackend::fallbackProfile() {
  std::call_once(calibrated_, [this] {
    try {
      profile_ = calibrateCpuProfile(dnnl::engine(dnnl::engine::kind::cpu, 0));
    } catch (const dnnl::error&) {
      profile_.reset(); // the host falls back to its default roofline
    }
  });
  return profile_;
}

std::unique_ptr<OpProfiler> CpuBackend::makeProfiler() {
  try {
    return std::make_unique<CpuProfiler>(device(), tunedKernels());
  } catch (const dnnl::error& e) {
    throw Error(std::string("measured:cpu: oneDNN failed to start: ") + e.what());
  }
}

std::unique_ptr<GraphExecutor> CpuBackend::makeExecutor() {
  try {
    return std::make_unique<CpuExecutor>(device(), tunedKernels());
  } catch (const dnnl::error& e) {
    throw Error(std::string("cpu executor: oneDNN failed to start: ") + e.what());
  }
}

} // namespace tessera::cpu
