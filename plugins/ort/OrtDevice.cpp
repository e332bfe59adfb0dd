#include "OrtDevice.h"

#include "support/HostCpu.h"

namespace tessera::ort {

std::string ortDeviceKey(const std::string& version, const OrtInstall& install) {
  return "ort:onnxruntime " + version + " on " + hostCpuName() + " (" + std::to_string(install.threads) +
         (install.threads == 1 ? " thread" : " threads") + (install.cpuClock ? ", CPU time" : "") + ", " + kOrtPricing + ")";
}

DeviceProfile calibrateOrtProfile(OrtProfiler& profiler) {
  const int64_t n = 512, large = int64_t{1} << 22, tiny = 16;
  // Both MatMul operands are inputs here (a rank-2 second operand would be a weight).
  const TensorType batched{DType::Float32, {1, n, n}};
  const double gemmMs = profiler.measureMs({OpKind::MatMul, {batched, batched}, {batched}, {}});
  const TensorType big{DType::Float32, {large}}, small{DType::Float32, {tiny}};
  const double streamMs = profiler.measureMs({OpKind::Relu, {big}, {big}, {}});
  const double launchMs = profiler.measureMs({OpKind::Relu, {small}, {small}, {}});
  DeviceProfile profile;
  profile.name = "ort-calibrated";
  profile.description = "this CPU in ONNX Runtime, calibrated with MatMul 512^3 and ReLU over 16 MiB";
  profile.peakGflops = 2.0 * static_cast<double>(n * n * n) / (gemmMs * 1e-3) / 1e9;
  profile.bandwidthGBs = 2.0 * 4.0 * static_cast<double>(large) / (streamMs * 1e-3) / 1e9;
  profile.launchOverheadUs = launchMs * 1e3;
  profile.computeEfficiency = 1.0; // the figures above are what ORT's kernels reach already
  profile.memoryEfficiency = 1.0;
  return profile;
}

} // namespace tessera::ort
