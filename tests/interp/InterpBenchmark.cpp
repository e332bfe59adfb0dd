// tessera_interp_bench: throughput of the float GEMM kernels and run time of models under the
// reference interpreter, wall and CPU time (the machine is shared, so both matter).
//   tessera_interp_bench gemm
//   tessera_interp_bench model FILE.onnx [--random-weights] [--repeat N]
//   tessera_interp_bench profile FILE.onnx [--random-weights]   (wall time per op kind)
#include "interp/FloatGemm.h"
#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace tessera;

struct Clock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpuSeconds();

  static double cpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  }
  double wallElapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(); }
  double cpuElapsed() const { return cpuSeconds() - cpu; }
};

int benchGemm() {
  const std::vector<std::array<int64_t, 3>> shapes = {{64, 12544, 576}, {256, 3136, 64}, {512, 196, 4608}, {2048, 49, 512}, {1000, 1, 2048}};
  for (interp::GemmKernel kernel : {interp::GemmKernel::Portable, interp::GemmKernel::Avx2, interp::GemmKernel::Avx512}) {
    if (!interp::gemmKernelAvailable(kernel)) continue;
    for (const auto& [m, n, k] : shapes) {
      std::vector<float> a(static_cast<size_t>(m * k), 0.5f), b(static_cast<size_t>(k * n), 0.25f), c(static_cast<size_t>(m * n));
      const double flops = 2.0 * static_cast<double>(m * n * k);
      const int repeats = std::max(1, static_cast<int>(2e9 / flops));
      interp::floatGemmWith(kernel, m, n, k, 1.0f, {a.data(), k, 1}, {b.data(), n, 1}, 0.0f, c.data(), n); // warm-up
      Clock clock;
      for (int r = 0; r < repeats; ++r)
        interp::floatGemmWith(kernel, m, n, k, 1.0f, {a.data(), k, 1}, {b.data(), n, 1}, 0.0f, c.data(), n);
      std::printf("%-8s m=%-5lld n=%-6lld k=%-5lld  %7.1f GFLOP/s wall  %7.1f GFLOP/s per CPU-second\n", interp::gemmKernelName(kernel),
                  static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k), flops * repeats / clock.wallElapsed() * 1e-9,
                  flops * repeats / clock.cpuElapsed() * 1e-9);
    }
  }
  return 0;
}

int benchModel(const std::string& path, bool randomizeWeights, int repeats) {
  Graph graph = onnx_io::importOnnxFile(path);
  TensorMap inputs = dummyInputs(graph);
  TensorMap weights = randomizeWeights ? randomWeights(graph, 1) : TensorMap{};
  runGraph(graph, inputs, weights); // warm-up
  double bestWall = 1e30, bestCpu = 1e30;
  for (int r = 0; r < repeats; ++r) {
    Clock clock;
    runGraph(graph, inputs, weights);
    bestWall = std::min(bestWall, clock.wallElapsed());
    bestCpu = std::min(bestCpu, clock.cpuElapsed());
  }
  std::printf("%s (%s weights, kernel %s): best of %d: %.3f s wall, %.3f s CPU\n", path.c_str(), randomizeWeights ? "random" : "own",
              interp::gemmKernelName(interp::bestGemmKernel()), repeats, bestWall, bestCpu);
  return 0;
}

// Evaluates the graph node by node (as runGraph does, without freeing) and sums wall time per op kind.
int profileModel(const std::string& path, bool randomizeWeights) {
  Graph graph = onnx_io::importOnnxFile(path);
  TensorMap inputs = dummyInputs(graph);
  TensorMap weights = randomizeWeights ? randomWeights(graph, 1) : TensorMap{};
  std::vector<std::vector<Tensor>> values(graph.size());
  std::map<std::string, std::pair<double, int>> perKind;
  double total = 0;
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input) {
      values[id] = {inputs.at(node.name)};
      continue;
    }
    if (node.kind == OpKind::Weight) {
      auto it = weights.find(node.name);
      values[id] = {it != weights.end() ? it->second : *node.weight};
      continue;
    }
    std::vector<const Tensor*> arguments;
    for (const ValueRef& input : node.inputs) arguments.push_back(&values[input.node][input.port]);
    Clock clock;
    values[id] = evaluateNode(node, arguments);
    const double seconds = clock.wallElapsed();
    auto& entry = perKind[std::string(opName(node.kind))];
    entry.first += seconds;
    entry.second += 1;
    total += seconds;
  }
  std::vector<std::pair<double, std::string>> rows;
  for (const auto& [kind, entry] : perKind) rows.push_back({entry.first, kind + " x" + std::to_string(entry.second)});
  std::sort(rows.rbegin(), rows.rend());
  for (const auto& [seconds, label] : rows) std::printf("%8.1f ms  %5.1f%%  %s\n", seconds * 1e3, 100 * seconds / total, label.c_str());
  std::printf("%8.1f ms  total\n", total * 1e3);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    if (argc >= 2 && std::strcmp(argv[1], "gemm") == 0) return benchGemm();
    if (argc >= 3 && std::strcmp(argv[1], "model") == 0) {
      bool random = false;
      int repeats = 3;
      for (int i = 3; i < argc; ++i) {
        if (std::strcmp(argv[i], "--random-weights") == 0) random = true;
        if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeats = std::atoi(argv[++i]);
      }
      return benchModel(argv[2], random, repeats);
    }
    if (argc >= 3 && std::strcmp(argv[1], "profile") == 0)
      return profileModel(argv[2], argc >= 4 && std::strcmp(argv[3], "--random-weights") == 0);
    std::fprintf(stderr, "usage: %s gemm | model FILE.onnx [--random-weights] [--repeat N] | profile FILE.onnx [--random-weights]\n", argv[0]);
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
