// What a device backend offers the kernel tuner (core/tune), in plain C++: the device's limits for
// the design space, a builder that compiles generated kernels and a runner that checks and times
// them on the device. A second interface of the backend's plugin object, beside Backend, so that
// backends without a tuner (and their plugin IID) are untouched; KernelTunerInterface.h declares it.
#pragma once

#include "tune/Builder.h"
#include "tune/GpuDesignSpace.h"
#include "tune/Reference.h"
#include "tune/Runner.h"

#include <memory>
#include <string>

namespace tessera::plugins {

class KernelTuner {
public:
  virtual ~KernelTuner() = default;

  // Empty when kernels can be built and run; otherwise why not ("no CUDA device").
  virtual std::string tunerUnavailableReason() = 0;
  // The tuning records' target: "cuda:<device name> (sm_XY)". Precondition: available.
  virtual std::string tuningTarget() = 0;
  // The design space's limits on this device. Precondition: available.
  virtual tune::GpuSpaceOptions spaceOptions() = 0;
  // Precondition: available. Both throw tessera::Error when the device fails meanwhile.
  virtual std::unique_ptr<tune::Builder> makeKernelBuilder() = 0;
  virtual std::unique_ptr<tune::Runner> makeKernelRunner(const tune::Problem& problem) = 0;
};

} // namespace tessera::plugins
