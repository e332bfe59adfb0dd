// CUDA C++ to PTX with NVRTC, for a given compute capability, with no device needed; and the
// tuner's builder over it (MetaSchedule's builder for the cuda target): each candidate's PTX is
// cached by a hash of its source, the architecture and the NVRTC version. A source that does not
// compile is a failed build carrying NVRTC's log, never an exception.
#pragma once

#include "tune/Builder.h"

#include <string>
#include <vector>

namespace tessera::cuda {

struct PtxCompilation {
  std::string ptx;   // empty when the compilation failed
  std::string error; // NVRTC's status and log when it failed
  bool ok() const { return !ptx.empty(); }
};

// `computeCapability` as major * 10 + minor (90 for sm_90): PTX for compute_<cc>.
PtxCompilation compileToPtx(const std::string& source, int computeCapability);

// "NVRTC 13.0".
std::string nvrtcVersionName();

class NvrtcBuilder final : public tune::Builder {
public:
  // cacheDir empty: tune::defaultCacheDir(); jobs 0: one per hardware thread (NVRTC is thread-safe,
  // and a heavily unrolled candidate takes seconds).
  explicit NvrtcBuilder(int computeCapability, std::string cacheDir = {}, int jobs = 0);
  // BuildResult::library is the PTX file.
  std::vector<tune::BuildResult> build(const std::vector<tune::BuildInput>& inputs) override;

private:
  tune::BuildResult buildOne(const std::string& source) const;
  int computeCapability_;
  std::string cacheDir_;
  int jobs_;
};

} // namespace tessera::cuda
