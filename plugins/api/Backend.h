// What a backend plugin offers, in plain C++ (no Qt): an op profiler for measured costs and a
// whole-graph executor, for one device. BackendInterface.h declares it as a Qt plugin interface.
#pragma once

#include "cost/DeviceProfile.h"
#include "cost/GraphExecutor.h"
#include "cost/OpProfiler.h"

#include <memory>
#include <optional>
#include <string>

namespace tessera::plugins {

class Backend {
public:
  virtual ~Backend() = default;

  // The name in cost specs: "cpu" for measured:cpu.
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Empty when the device can be used; otherwise why not ("no CUDA device", "driver too old").
  virtual std::string unavailableReason() = 0;
  // The device the profiler and executor run on (the cost cache's key). Precondition: available.
  virtual std::string device() = 0;
  // A roofline for this device, for ops the profiler cannot time; nullopt to use analytic:h200.
  virtual std::optional<DeviceProfile> fallbackProfile() = 0;

  // Preconditions: available. Both throw tessera::Error if the device fails meanwhile.
  virtual std::unique_ptr<OpProfiler> makeProfiler() = 0;
  virtual std::unique_ptr<GraphExecutor> makeExecutor() = 0;
};

} // namespace tessera::plugins
