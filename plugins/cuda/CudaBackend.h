// The CUDA backend plugin (`measured:cuda`): cuDNN/cuBLAS op profiler and whole-graph executor on
// GPU 0, and the kernel tuner's builder (NVRTC) and runner (`tessera-cli tune --target cuda`). It
// loads without an NVIDIA driver (cudart is linked statically) and then says why the device is
// unavailable.
#pragma once

#include "BackendInterface.h"
#include "KernelTunerInterface.h"

#include <QObject>

#include <mutex>

namespace tessera::cuda {

class CudaBackend final : public QObject, public plugins::Backend, public plugins::KernelTuner {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID "org.tessera.Backend/2" FILE "cuda.json")
  Q_INTERFACES(tessera::plugins::Backend tessera::plugins::KernelTuner)

public:
  std::string name() const override { return "cuda"; }
  std::string description() const override;
  std::string unavailableReason() override;
  std::string device() override;
  std::optional<DeviceProfile> fallbackProfile() override;
  std::unique_ptr<OpProfiler> makeProfiler() override;
  std::unique_ptr<GraphExecutor> makeExecutor() override;

  std::string tunerUnavailableReason() override { return unavailableReason(); }
  std::string tuningTarget() override;
  tune::GpuSpaceOptions spaceOptions() override;
  std::unique_ptr<tune::Builder> makeKernelBuilder() override;
  std::unique_ptr<tune::Runner> makeKernelRunner(const tune::Problem& problem) override;

private:
  // The device check starts cuDNN and cuBLAS once (a second or so), then answers from here.
  std::once_flag probed_;
  std::string unavailable_;
};

} // namespace tessera::cuda
