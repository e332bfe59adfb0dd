// The CPU backend plugin (`measured:cpu`): oneDNN op profiler and whole-graph executor, with the
// tuned kernels of the default tuning database where they beat oneDNN.
#pragma once

#include "BackendInterface.h"
#include "TunedKernels.h"

#include <QObject>

#include <mutex>

namespace tessera::cpu {

class CpuBackend final : public QObject, public plugins::Backend {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID "org.tessera.Backend/2" FILE "cpu.json")
  Q_INTERFACES(tessera::plugins::Backend)

public:
  std::string name() const override { return "cpu"; }
  std::string description() const override;
  std::string unavailableReason() override;
  std::string device() override;
  std::optional<DeviceProfile> fallbackProfile() override;
  std::unique_ptr<OpProfiler> makeProfiler() override;
  std::unique_ptr<GraphExecutor> makeExecutor() override;

private:
  // The default tuning database's kernels on this machine's executor threads, opened once.
  std::shared_ptr<TunedKernels> tunedKernels();

  std::once_flag calibrated_;
  std::once_flag tunedOpened_;
  std::shared_ptr<TunedKernels> tuned_;
  std::optional<DeviceProfile> profile_;
};

} // namespace tessera::cpu
