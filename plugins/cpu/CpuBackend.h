// The CPU backend plugin (`measured:cpu`): oneDNN op profiler and whole-graph executor.
#pragma once

#include "BackendInterface.h"

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
  std::once_flag calibrated_;
  std::optional<DeviceProfile> profile_;
};

} // namespace tessera::cpu
