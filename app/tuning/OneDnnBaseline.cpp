#include "OneDnnBaseline.h"

#if TESSERA_HAVE_DNNL
#include "DnnlOp.h"
#include "OpTimer.h"
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tessera::tuning {

OpSignature baselineSignature(const tune::Workload& w) {
  OpSignature s;
  auto type = [](std::vector<int64_t> shape) { return TensorType{DType::Float32, Shape(shape.begin(), shape.end())}; };
  for (const auto& shape : w.inputShapes()) s.inputs.push_back(type(shape));
  s.outputs.push_back(type(w.outputShape()));
  const int64_t relu = static_cast<int64_t>(Activation::Relu);
  if (w.kind == tune::WorkloadKind::Conv2d) {
    s.kind = OpKind::Conv;
    s.attrs.set("strides", std::vector<int64_t>{w.stride, w.stride});
    s.attrs.set("pads", std::vector<int64_t>{w.pad, w.pad, w.pad, w.pad});
    if (w.relu) s.attrs.set("activation", relu);
    return s;
  }
  if (w.kind == tune::WorkloadKind::MatMul && w.bias) {
    s.kind = OpKind::Gemm;
    return s;
  }
  s.kind = OpKind::MatMul;
  if (w.bias) s.inputs.pop_back();
  if (w.relu) s.attrs.set("activation", relu);
  return s;
}

#if TESSERA_HAVE_DNNL
std::optional<LibraryBaseline> measureOneDnnBaseline(const tune::Workload& workload, int threads, bool flushCaches,
                                                     std::string& why) {
#ifdef _OPENMP
  omp_set_num_threads(threads); // this thread's team: the kernels' thread count
#else
  (void)threads;
#endif
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const OpSignature signature = baselineSignature(workload);
  auto op = cpu::DnnlOp::lower(engine, signature, cpu::DnnlOp::Purpose::Execute, &why);
  if (!op) return std::nullopt;
  for (size_t i = 0; i < signature.inputs.size(); ++i)
    if (cpu::isParameterInput(signature.kind, i)) op->setConstant(i);
  cpu::TimingPlan plan;
  plan.operands = flushCaches ? cpu::OperandResidence::InMemory : cpu::OperandResidence::Cached;
  LibraryBaseline baseline;
  baseline.latencyMs = cpu::timeOpMs(*op, signature, stream, plan);
  baseline.gflops = workload.gflopsAt(baseline.latencyMs);
  baseline.what = signature.key();
  for (const std::string& impl : op->implementations()) baseline.what += " " + impl;
  return baseline;
}
#else
std::optional<LibraryBaseline> measureOneDnnBaseline(const tune::Workload&, int, bool, std::string& why) {
  why = "this build has no oneDNN";
  return std::nullopt;
}
#endif

} // namespace tessera::tuning
