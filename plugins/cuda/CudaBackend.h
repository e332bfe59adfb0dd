// The CUDA backend plugin (`measured:cuda`): cuDNN/cuBLAS op profiler and whole-graph executor on
// GPU 0. It loads without an NVIDIA driver (cudart is linked statically) and then says why the
// device is unavailable.
#pragma once

#include "BackendInterface.h"

#include <QObject>

#include <mutex>

namespace tessera::cuda {

class CudaBackend final : public QObject, public plugins::Backend {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID "org.tessera.Backend/2" FILE "cuda.json")
  Q_INTERFACES(tessera::plugins::Backend)

public:
  std::string name() const override { return "cuda"; }
  std::string description() const override;
  std::string unavailableReason() override;
  std::string device() override;
  std::optional<DeviceProfile> fallbackProfile() override;
  std::unique_ptr<OpProfiler> makeProfiler() override;
  std::unique_ptr<GraphExecutor> makeExecutor() override;

private:
  // The device check starts cuDNN and cuBLAS once (a second or so), then answers from here.
  std::once_flag probed_;
  std::string unavailable_;
};

} // namespace tessera::cuda
