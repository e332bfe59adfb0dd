#include "OrtBackend.h"

#include "OrtDevice.h"
#include "OrtExecutor.h"
#include "OrtProfiler.h"

#include "support/Error.h"

namespace tessera::ort {

void OrtBackend::probe() {
  std::call_once(probed_, [this] {
    install_ = findOrtInstall();
    if (!install_.usable()) {
      problem_ = install_.problem;
      return;
    }
    try {
      version_ = OrtWorker(install_).version();
    } catch (const Error& e) {
      problem_ = e.what();
    }
  });
}

std::string OrtBackend::description() const {
  return "ONNX Runtime (npm onnxruntime-node, CPU execution provider, all graph optimisations) op profiler and graph executor";
}

std::string OrtBackend::unavailableReason() {
  probe();
  return problem_;
}

std::string OrtBackend::device() {
  probe();
  return ortDeviceKey(version_, install_);
}

std::optional<DeviceProfile> OrtBackend::fallbackProfile() {
  std::call_once(calibrated_, [this] {
    try {
      OrtProfiler profiler(install_, device());
      profile_ = calibrateOrtProfile(profiler);
    } catch (const Error&) {
      profile_.reset(); // the host falls back to its default roofline
    }
  });
  return profile_;
}

std::unique_ptr<OpProfiler> OrtBackend::makeProfiler() {
  probe();
  return std::make_unique<OrtProfiler>(install_, device());
}

std::unique_ptr<GraphExecutor> OrtBackend::makeExecutor() {
  probe();
  return std::make_unique<OrtExecutor>(install_, device());
}

} // namespace tessera::ort
