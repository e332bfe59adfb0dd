// The ONNX Runtime backend plugin (`measured:ort`): op costs and whole-graph latency as ONNX
// Runtime's CPU execution provider gives them, through a Node.js worker over npm's onnxruntime-node.
#pragma once

#include "BackendInterface.h"
#include "OrtInstall.h"

#include <QObject>

#include <mutex>

namespace tessera::ort {

class OrtBackend final : public QObject, public plugins::Backend {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID "org.tessera.Backend/2" FILE "ort.json")
  Q_INTERFACES(tessera::plugins::Backend)

public:
  std::string name() const override { return "ort"; }
  std::string description() const override;
  std::string unavailableReason() override;
  std::string device() override;
  std::optional<DeviceProfile> fallbackProfile() override;
  std::unique_ptr<OpProfiler> makeProfiler() override;
  std::unique_ptr<GraphExecutor> makeExecutor() override;

private:
  // Finds the install and starts one worker to learn ORT's version; once per process.
  void probe();

  std::once_flag probed_;
  OrtInstall install_;
  std::string version_;
  std::string problem_;
  std::once_flag calibrated_;
  std::optional<DeviceProfile> profile_;
};

} // namespace tessera::ort
