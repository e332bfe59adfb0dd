// Finding a model's tunable kernels: Conv, MatMul and Gemm nodes mapped onto workloads.
#include "tune/ModelWorkloads.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tessera::tune {

namespace {

// The workload of one node, or why there is none (`why` set; an empty `why` and no workload: not
// a heavy op at all).
std::optional<Workload> workloadOf(const Graph& graph, const Node& node, std::string& why) {
  auto shapeOf = [&](size_t input) { return graph.typeOf(node.inputs[input]).shape; };
  const bool relu = node.attrs.getInt("activation", 0) == static_cast<int64_t>(Activation::Relu);
  if (node.attrs.getInt("activation", 0) != 0 && !relu) {
    why = "a fused activation other than relu";
    return std::nullopt;
  }
  Workload w;
  w.relu = relu;
  switch (node.kind) {
  case OpKind::Conv: {
    const Shape x = shapeOf(0), weight = shapeOf(1);
    if (x.size() != 4 || weight.size() != 4) {
      why = "not a 2-D convolution";
      return std::nullopt;
    }
    if (weight[1] != x[1]) {
      why = "a grouped convolution";
      return std::nullopt;
    }
    const std::vector<int64_t> strides = node.attrs.getInts("strides", {1, 1}), pads = node.attrs.getInts("pads", {0, 0, 0, 0});
    if (node.attrs.getInts("dilations", {1, 1}) != std::vector<int64_t>{1, 1}) {
      why = "a dilated convolution";
      return std::nullopt;
    }
    if (strides.size() != 2 || strides[0] != strides[1] || pads.size() != 4 ||
        std::count(pads.begin(), pads.end(), pads[0]) != 4) {
      why = "unequal strides or padding";
      return std::nullopt;
    }
    w.kind = WorkloadKind::Conv2d;
    w.convN = x[0], w.convC = x[1], w.height = x[2], w.width = x[3];
    w.outChannels = weight[0], w.kernelH = weight[2], w.kernelW = weight[3];
    w.stride = strides[0], w.pad = pads[0];
    w.bias = node.inputs.size() > 2 && !node.inputs[2].isNone();
    return w;
  }
  case OpKind::Gemm: {
    if (node.attrs.getInt("transA", 0) != 0 || node.attrs.getInt("transB", 0) != 0) {
      why = "a transposed Gemm";
      return std::nullopt;
    }
    if (node.attrs.getFloat("alpha", 1.0f) != 1.0f || node.attrs.getFloat("beta", 1.0f) != 1.0f) {
      why = "a Gemm with alpha or beta";
      return std::nullopt;
    }
    const Shape a = shapeOf(0), b = shapeOf(1);
    w.kind = WorkloadKind::MatMul;
    w.m = a[0], w.k = a[1], w.n = b[1];
    if (node.inputs.size() > 2 && !node.inputs[2].isNone()) {
      const Shape c = shapeOf(2);
      if (!(c.size() == 1 && c[0] == w.n) && !(c.size() == 2 && c[0] == 1 && c[1] == w.n)) {
        why = "a Gemm whose C is not a bias row";
        return std::nullopt;
      }
      w.bias = true;
    }
    return w;
  }
  case OpKind::MatMul: {
    const Shape a = shapeOf(0), b = shapeOf(1);
    if (a.size() < 2 || b.size() < 2) {
      why = "a matrix-vector product";
      return std::nullopt;
    }
    w.k = a.back(), w.n = b.back(), w.m = a[a.size() - 2];
    int64_t batchA = 1, batchB = 1;
    for (size_t i = 0; i + 2 < a.size(); ++i) batchA *= a[i];
    for (size_t i = 0; i + 2 < b.size(); ++i) batchB *= b[i];
    if (batchB == 1) { // a shared right operand: the batch folds into M
      w.kind = WorkloadKind::MatMul;
      w.m *= batchA;
      return w;
    }
    if (batchA != batchB || a.size() != b.size()) {
      why = "a broadcast batched matmul";
      return std::nullopt;
    }
    w.kind = WorkloadKind::BatchMatMul;
    w.batch = batchA;
    return w;
  }
  default: return std::nullopt;
  }
}

} // namespace

ModelWorkloads modelWorkloads(const Graph& graph) {
  ModelWorkloads result;
  std::map<std::string, size_t> byKey;
  for (const Node& node : graph.nodes()) {
    std::string why;
    std::optional<Workload> workload = workloadOf(graph, node, why);
    if (!workload) {
      if (!why.empty()) result.skipped.push_back(describeNode(node) + ": " + why);
      continue;
    }
    auto [at, inserted] = byKey.emplace(workload->key(), result.workloads.size());
    if (inserted) result.workloads.push_back({*workload, 0, {}});
    ModelWorkload& entry = result.workloads[at->second];
    ++entry.count;
    entry.nodes.push_back(node.name);
  }
  std::stable_sort(result.workloads.begin(), result.workloads.end(),
                   [](const ModelWorkload& a, const ModelWorkload& b) { return a.totalFlops() > b.totalFlops(); });
  return result;
}

} // namespace tessera::tune
