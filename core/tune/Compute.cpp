// The axes and accesses of matmul, batched matmul and conv2d.
#include "tune/Compute.h"

namespace tessera::tune {

namespace {

int64_t product(const std::vector<int64_t>& shape) {
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  return total;
}

Compute matmulCompute(const Workload& w) {
  Compute c;
  const bool batched = w.kind == WorkloadKind::BatchMatMul;
  if (batched) c.axes.push_back({"b", w.batch, false});
  c.axes.push_back({"i", w.m, false});
  c.axes.push_back({"j", w.n, false});
  c.axes.push_back({"k", w.k, true});
  // coefficient vectors over (b,) i, j, k
  auto coeffs = [&](int64_t b, int64_t i, int64_t j, int64_t k) {
    std::vector<int64_t> v;
    if (batched) v.push_back(b);
    v.insert(v.end(), {i, j, k});
    return v;
  };
  c.lhs = {0, coeffs(w.m * w.k, w.k, 0, 1)};
  c.rhs = {1, coeffs(w.k * w.n, 0, 1, w.n)};
  c.output = {0, coeffs(w.m * w.n, w.n, 1, 0)};
  if (w.bias) c.bias = Access{2, coeffs(0, 0, 1, 0)};
  return c;
}

Compute convCompute(const Workload& w) {
  Compute c;
  const int64_t oh = w.outHeight(), ow = w.outWidth();
  c.axes = {{"n", w.convN, false}, {"o", w.outChannels, false}, {"y", oh, false},       {"x", ow, false},
            {"c", w.convC, true},  {"r", w.kernelH, true},      {"s", w.kernelW, true}};
  const int64_t ph = w.height + 2 * w.pad, pw = w.width + 2 * w.pad;
  // input[n][c][y*stride + r][x*stride + s] in the (padded) input
  c.lhs = {0, {w.convC * ph * pw, 0, w.stride * pw, w.stride, ph * pw, pw, 1}};
  c.rhs = {1, {0, w.convC * w.kernelH * w.kernelW, 0, 0, w.kernelH * w.kernelW, w.kernelW, 1}};
  c.output = {0, {w.outChannels * oh * ow, oh * ow, ow, 1, 0, 0, 0}};
  if (w.bias) c.bias = Access{2, {0, 1, 0, 0, 0, 0, 0}};
  if (w.pad > 0) c.padded = PaddedInput{w.convN, w.convC, w.height, w.width, w.pad};
  return c;
}

} // namespace

int Compute::axisIndex(const std::string& name) const {
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].name == name) return static_cast<int>(a);
  return -1;
}

int Compute::spatialAxes() const {
  int count = 0;
  for (const Axis& axis : axes) count += axis.reduction ? 0 : 1;
  return count;
}

Compute computeOf(const Workload& workload) {
  Compute c = workload.kind == WorkloadKind::Conv2d ? convCompute(workload) : matmulCompute(workload);
  c.workload = workload;
  c.relu = workload.relu;
  for (const auto& shape : workload.inputShapes()) c.inputElements.push_back(product(shape));
  c.outputElements = product(workload.outputShape());
  return c;
}

} // namespace tessera::tune
