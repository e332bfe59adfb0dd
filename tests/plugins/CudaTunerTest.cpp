// The kernel tuner's CUDA path in the plugin. NVRTC needs no device, so these run everywhere the
// plugin is built: sampled GPU schedules of matmul, batched matmul and conv compile to PTX with
// the kernel's entry and launch geometry, a cached build is not compiled again, and a source that
// does not compile is a failed trial carrying NVRTC's log. Only the last test needs a GPU (it
// skips, saying why, without one): tuning on the device, every kernel checked against the reference.
#include "CudaDevice.h"
#include "CudaKernelRunner.h"
#include "NvrtcCompiler.h"

#include "tune/CodegenCuda.h"
#include "tune/GpuDesignSpace.h"
#include "tune/Tuner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace tessera::cuda {
namespace {

std::string freshCacheDir(const std::string& tag) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tessera-nvrtc-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// A runner for builds this machine cannot run: it only counts what reached it.
class CountingRunner final : public tune::Runner {
public:
  tune::RunResult run(const std::string& library) override {
    ++runs;
    EXPECT_TRUE(std::filesystem::exists(library)) << library;
    tune::RunResult result;
    result.status = tune::TrialStatus::RuntimeError;
    result.error = "not run: this test only builds";
    return result;
  }
  int runs = 0;
};

class SampledKernels : public testing::TestWithParam<const char*> {};

TEST_P(SampledKernels, CompileWithNvrtcToPtxWithTheKernelEntry) {
  const tune::Compute compute = tune::computeOf(tune::parseWorkload(GetParam()));
  tune::GpuMultiLevelTilingSpace space;
  for (uint64_t seed = 0; seed < 3; ++seed) {
    const tune::CudaKernel kernel = tune::generateCuda(space.sample(compute, seed).nest());
    const int capability = seed % 2 ? 80 : 90; // A100 and H100/H200
    const PtxCompilation ptx = compileToPtx(kernel.source, capability);
    ASSERT_TRUE(ptx.ok()) << GetParam() << " seed " << seed << ": " << ptx.error << "\n" << kernel.source;
    EXPECT_NE(ptx.ptx.find(".target sm_" + std::to_string(capability)), std::string::npos);
    EXPECT_NE(ptx.ptx.find(".entry tessera_kernel("), std::string::npos) << ptx.ptx.substr(0, 2000);
    EXPECT_NE(ptx.ptx.find("tessera_launch"), std::string::npos);
    EXPECT_NE(ptx.ptx.find("bar.sync"), std::string::npos); // the fetches' __syncthreads
  }
}

INSTANTIATE_TEST_SUITE_P(Workloads, SampledKernels,
                         testing::Values("matmul:512x512x512", "matmul:256x128x64,bias,relu", "bmm:4x64x64x32",
                                         "conv2d:1x64x56x56,64x64x3x3,s1,p1", "conv2d:2x32x28x28,48x32x3x3,s2,p1,bias,relu"));

TEST(NvrtcBuilder, CachesPtxAndABrokenSourceIsAFailedTrialWithNvrtcsLog) {
  const tune::Workload workload = tune::parseWorkload("matmul:64x64x64");
  auto runner = std::make_unique<CountingRunner>();
  CountingRunner* counting = runner.get();
  auto context = tune::makeGpuTuneContext(workload, {}, std::make_unique<NvrtcBuilder>(90, freshCacheDir("builder")),
                                          std::move(runner), "cuda:test");
  tune::Candidate good = tune::lowerCandidate(context->compute, context->space->sample(context->compute, 1).trace(),
                                              tune::KernelLanguage::Cuda);
  tune::Candidate broken = good;
  broken.source += "\n__global__ void broken() { undeclared_identifier = 1; }\n";

  const std::vector<tune::MeasuredCandidate> measured = tune::measureCandidates(*context, {good, broken});
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_EQ(measured[0].status, tune::TrialStatus::RuntimeError); // built, then "run" by the counting runner
  EXPECT_EQ(measured[1].status, tune::TrialStatus::CompileError);
  EXPECT_NE(measured[1].error.find("NVRTC (compute_90)"), std::string::npos) << measured[1].error;
  EXPECT_NE(measured[1].error.find("undeclared_identifier"), std::string::npos) << measured[1].error;
  EXPECT_EQ(counting->runs, 1);

  NvrtcBuilder again(90, freshCacheDir("builder-cache"));
  std::vector<tune::BuildResult> first = again.build({{good.source, false}});
  std::vector<tune::BuildResult> second = again.build({{good.source, false}});
  ASSERT_TRUE(first[0].ok()) << first[0].error;
  EXPECT_FALSE(first[0].cached);
  EXPECT_TRUE(second[0].cached);
  EXPECT_EQ(second[0].library, first[0].library);
}

// On the device: a short tuning run on the plugin's builder and runner; every kernel the design
// space makes must match the reference, so all trials verify.
TEST(CudaKernelTuning, TunesOnTheDeviceAndEveryKernelMatchesTheReference) {
  if (std::string why = cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "no usable GPU: " << why;
  for (const char* text : {"matmul:256x256x256,bias,relu", "conv2d:1x32x28x28,32x32x3x3,s1,p1,bias"}) {
    const tune::Workload workload = tune::parseWorkload(text);
    auto context = tune::makeGpuTuneContext(workload, {}, std::make_unique<NvrtcBuilder>(cudaComputeCapability()),
                                            std::make_unique<CudaKernelRunner>(tune::makeProblem(workload, 1)), cudaDeviceKey());
    tune::TuneOptions options;
    options.trials = 12;
    options.batchSize = 6;
    std::vector<std::string> failures;
    const tune::TuneResult result = tune::tune(*context, options, [&](const tune::TuneProgress& p) {
      if (p.last->status != tune::TrialStatus::Ok)
        failures.push_back(std::string(tune::statusName(p.last->status)) + ": " + p.last->error + "\n" + p.last->candidate.source);
    });
    EXPECT_EQ(result.trials, 12) << text;
    EXPECT_EQ(result.verified, result.trials) << text << "\n" << (failures.empty() ? "" : failures.front());
    ASSERT_TRUE(result.best.has_value()) << text;
    EXPECT_GT(result.best->gflops, 0) << text;
    EXPECT_EQ(result.best->runMs.size(), 32u);
  }
}

} // namespace
} // namespace tessera::cuda
