// Generated CUDA kernels compute the right thing: without a GPU here, each kernel's source is
// compiled as C++ against a small emulation of the CUDA execution model (each block's threads
// are std::threads meeting at a std::barrier for __syncthreads, blocks one after another, so a
// block's __shared__ arrays are plain statics) and its output compared with the reference
// interpreter's. It checks the indexing, the cooperative fetches and the barriers' placement;
// NVRTC and the device are tested in tests/plugins/CudaTunerTest.cpp.
#include "tune/CodegenCuda.h"
#include "tune/GpuDesignSpace.h"
#include "tune/Reference.h"
#include "tune/Subprocess.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace tessera::tune {
namespace {

constexpr const char* kEmulation = R"(// CUDA's execution model on threads, for tests.
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
struct Dim3 { unsigned x = 0, y = 0, z = 0; };
thread_local Dim3 threadIdx, blockIdx;
static std::barrier<>* block_barrier = nullptr;
static void __syncthreads() { block_barrier->arrive_and_wait(); }
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __restrict__ __restrict
#define __launch_bounds__(threads)
template <class Kernel> static void launch(unsigned grid, unsigned block, Kernel kernel) {
  for (unsigned b = 0; b < grid; ++b) {
    std::barrier<> barrier(block);
    block_barrier = &barrier;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < block; ++t)
      threads.emplace_back([&, t] { threadIdx.x = t; blockIdx.x = b; kernel(); });
    for (std::thread& thread : threads) thread.join();
  }
}
static std::vector<float> readFloats(const char* path, size_t count) {
  std::vector<float> values(count);
  FILE* file = std::fopen(path, "rb");
  if (!file || std::fread(values.data(), sizeof(float), count, file) != count) std::exit(2);
  std::fclose(file);
  return values;
}
)";

std::string writeFloats(const std::string& dir, const std::string& name, const std::vector<float>& values) {
  const std::string path = dir + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  return path;
}

// Runs the kernels on the problem's inputs; one output per kernel.
std::vector<std::vector<float>> emulate(const std::vector<CudaKernel>& kernels, const Problem& problem, bool bias) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("tessera-cuda-emulation-" + std::to_string(::getpid()))).string();
  std::filesystem::create_directories(dir);
  std::string program = kEmulation;
  // Each kernel under its own names.
  for (size_t k = 0; k < kernels.size(); ++k) {
    const std::string suffix = "_" + std::to_string(k);
    program += "#define tessera_kernel tessera_kernel" + suffix + "\n#define tessera_launch tessera_launch" + suffix +
               "\n#define load_padded load_padded" + suffix + "\n" + kernels[k].source +
               "#undef tessera_kernel\n#undef tessera_launch\n#undef load_padded\n";
  }
  program += "int main(int, char** argv) {\n";
  for (size_t i = 0; i < problem.inputs.size(); ++i)
    program += "  const std::vector<float> in" + std::to_string(i) + " = readFloats(argv[" + std::to_string(i + 1) + "], " +
               std::to_string(problem.inputs[i].size()) + ");\n";
  program += "  std::vector<float> out(" + std::to_string(problem.expected.size()) + ");\n";
  program += "  FILE* file = std::fopen(argv[" + std::to_string(problem.inputs.size() + 1) + "], \"wb\");\n";
  for (size_t k = 0; k < kernels.size(); ++k) {
    const std::string suffix = "_" + std::to_string(k);
    program += "  out.assign(out.size(), std::nanf(\"\"));\n";
    program += "  launch(tessera_launch" + suffix + "[0], tessera_launch" + suffix + "[1], [&] { tessera_kernel" + suffix +
               "(in0.data(), in1.data(), " + (bias ? "in2.data(), " : "") + "out.data()); });\n";
    program += "  std::fwrite(out.data(), sizeof(float), out.size(), file);\n";
  }
  program += "  std::fclose(file);\n}\n";
  {
    std::ofstream(dir + "/emulation.cpp") << program;
  }
  Command compile{{"c++", "-std=c++20", "-O1", "-pthread", "-w", "-o", dir + "/emulation", dir + "/emulation.cpp"}, {}, dir + "/compile.log"};
  ProcessResult built = runCommands({compile}, 1, 600).front();
  EXPECT_TRUE(built.succeeded()) << built.describe() << "\n" << built.output;
  if (!built.succeeded()) return {};
  Command run{{dir + "/emulation"}, {}, dir + "/run.log"};
  for (size_t i = 0; i < problem.inputs.size(); ++i) run.argv.push_back(writeFloats(dir, "in" + std::to_string(i), problem.inputs[i]));
  run.argv.push_back(dir + "/out");
  ProcessResult ran = runCommands({run}, 1, 600).front();
  EXPECT_TRUE(ran.succeeded()) << ran.describe() << "\n" << ran.output;
  std::vector<std::vector<float>> outputs(kernels.size(), std::vector<float>(problem.expected.size()));
  std::ifstream in(dir + "/out", std::ios::binary);
  for (std::vector<float>& output : outputs)
    in.read(reinterpret_cast<char*>(output.data()), static_cast<std::streamsize>(output.size() * sizeof(float)));
  std::filesystem::remove_all(dir);
  return outputs;
}

class EmulatedCudaKernels : public testing::TestWithParam<const char*> {};

TEST_P(EmulatedCudaKernels, SampledSchedulesMatchTheInterpreter) {
  const Workload workload = parseWorkload(GetParam());
  const Compute compute = computeOf(workload);
  // Small limits keep the emulation's threads few; the schedules still bind, stage and unroll.
  GpuSpaceOptions options;
  options.maxThreadsPerBlock = 64;
  GpuMultiLevelTilingSpace space(options);
  std::vector<CudaKernel> kernels;
  std::vector<std::string> nests;
  for (uint64_t seed = 0; seed < 4; ++seed) {
    const LoopNest nest = space.sample(compute, 40 + seed).nest();
    kernels.push_back(generateCuda(nest));
    nests.push_back(nest.toString());
  }
  const Problem problem = makeProblem(workload, 3);
  const std::vector<std::vector<float>> outputs = emulate(kernels, problem, workload.bias);
  ASSERT_EQ(outputs.size(), kernels.size());
  for (size_t k = 0; k < kernels.size(); ++k)
    for (size_t i = 0; i < problem.expected.size(); ++i) {
      const double want = problem.expected[i];
      ASSERT_LE(std::fabs(outputs[k][i] - want), problem.atol + problem.rtol * std::fabs(want))
          << GetParam() << " kernel " << k << " element " << i << "\n"
          << nests[k] << kernels[k].source;
    }
}

INSTANTIATE_TEST_SUITE_P(Workloads, EmulatedCudaKernels,
                         testing::Values("matmul:32x48x40,bias,relu", "bmm:2x16x24x20", "conv2d:1x4x9x9,8x4x3x3,s1,p1,bias,relu",
                                         "conv2d:2x3x10x10,6x3x3x3,s2,p0"));

} // namespace
} // namespace tessera::tune
