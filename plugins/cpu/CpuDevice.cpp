#include "CpuDevice.h"

#include "CpuProfiler.h"
#include "HugePages.h"
#include "OpTimer.h"

#include "support/HostCpu.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tessera::cpu {

namespace {

double timeSignatureMs(const dnnl::engine& engine, const OpSignature& signature) {
  auto op = DnnlOp::lower(engine, signature, DnnlOp::Purpose::Measure);
  dnnl::stream stream(engine);
  useCpuThreads();
  TimingPlan plan; // the roofline's peak and bandwidth: cached operands, few repeats
  plan.warmup = plan.slowWarmup = 2;
  plan.runs = plan.slowRuns = 8;
  return timeOpMs(*op, signature, stream, plan);
}

// The machine's cores, or OMP_NUM_THREADS when given: never the load of the moment, since costs,
// calibrations and tuned kernels are keyed to the count, and a quiet run must find what a busy
// one measured (same model, same flags, same machine: same device key).
int decideThreads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#endif
}

} // namespace

int cpuThreads() {
  static const int threads = decideThreads();
  return threads;
}

void useCpuThreads() {
#ifdef _OPENMP
  omp_set_num_threads(cpuThreads());
#endif
}

std::string cpuDeviceKey() {
  const int threads = cpuThreads();
  return "cpu:" + hostCpuName() + " (" + std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
         ", executor timings" + (hugePagesAvailable() ? " on huge pages" : "") + ", " + std::string(describe(profilingPlan().operands)) +
         ")";
}

DeviceProfile calibrateCpuProfile(const dnnl::engine& engine) {
  const int64_t n = 512, large = int64_t{1} << 24, tiny = 16;
  const TensorType matrix{DType::Float32, {n, n}};
  const double gemmMs = timeSignatureMs(engine, {OpKind::MatMul, {matrix, matrix}, {matrix}, {}});
  const TensorType big{DType::Float32, {large}}, small{DType::Float32, {tiny}};
  const double streamMs = timeSignatureMs(engine, {OpKind::Relu, {big}, {big}, {}});
  const double launchMs = timeSignatureMs(engine, {OpKind::Relu, {small}, {small}, {}});
  DeviceProfile profile;
  profile.name = "cpu-calibrated";
  profile.description = "this CPU, calibrated with oneDNN (GEMM 512^3, ReLU over 64 MiB)";
  profile.peakGflops = 2.0 * static_cast<double>(n * n * n) / (gemmMs * 1e-3) / 1e9;
  profile.bandwidthGBs = 2.0 * 4.0 * static_cast<double>(large) / (streamMs * 1e-3) / 1e9;
  profile.launchOverheadUs = launchMs * 1e3;
  profile.computeEfficiency = 1.0; // the figures above are what tuned kernels reach already
  profile.memoryEfficiency = 1.0;
  return profile;
}

} // namespace tessera::cpu
