// Lowering, one function per op family. Every function builds descriptors over plain row-major
// buffers; a failure to create a primitive (oneDNN has no implementation for the combination)
// makes the op unsupported rather than an error, so the caller falls back.
#include "DnnlOp.h"

#include "support/Error.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <numeric>

namespace tessera::cpu {

namespace {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using Dims = memory::dims;

constexpr memory::data_type f32 = memory::data_type::f32;
constexpr prop_kind inference = prop_kind::forward_inference;

struct Unsupported {
  std::string why;
};

[[noreturn]] void unsupported(std::string why) { throw Unsupported{std::move(why)}; }

Dims dimsOf(const Shape& shape) { return shape.empty() ? Dims{1} : Dims(shape.begin(), shape.end()); }

Dims contiguousStrides(const Dims& dims) {
  Dims strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * std::max<int64_t>(dims[d], 1);
  return strides;
}

// Shape and memory::dims are the same type; a scalar is stored as one element.
memory::desc plain(const Dims& shape) {
  const Dims dims = dimsOf(shape);
  return memory::desc(dims, f32, contiguousStrides(dims));
}

// A strided window into a plain buffer (a transpose or a slice read in place).
memory::desc view(const Dims& dims, const Dims& strides, int64_t offset) {
  memory::desc desc(dims, f32, strides);
  desc.data.offset0 = offset;
  return desc;
}

// `shape` with leading 1s up to `rank` (numpy broadcasting aligns trailing axes).
Dims alignedDims(const Shape& shape, size_t rank) {
  Dims dims(rank - std::min(rank, shape.size()), 1);
  dims.insert(dims.end(), shape.begin(), shape.end());
  return dims;
}

std::vector<int64_t> intsOr(const Attributes& attrs, const char* name, int64_t fallback, size_t count) {
  std::vector<int64_t> values = attrs.getInts(name);
  if (values.empty()) values.assign(count, fallback);
  if (values.size() != count) unsupported(std::string(name) + " has " + std::to_string(values.size()) + " entries");
  return values;
}

// Every primitive takes its scratchpad (a gemm convolution's im2col buffer, a reduction's partial
// sums) from DnnlOp::execute, which hands it the executing thread's. oneDNN's own scratchpad is
// per thread too, but it is registered by the thread that creates the primitive: one created on
// one thread and run on another (the explorer lowers ops on its pricing thread and times them on
// its search thread) ran with a null scratchpad and crashed.
dnnl::primitive_attr ownScratchpad(dnnl::primitive_attr attr = {}) {
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// The fused activation of Conv and MatMul as a post-op (NONE=0 SIGMOID=1 RELU=2 TANH=3).
dnnl::primitive_attr activationAttr(const Attributes& attrs) {
  dnnl::primitive_attr attr = ownScratchpad();
  const auto activation = static_cast<Activation>(attrs.getInt("activation", 0));
  if (activation == Activation::None) return attr;
  dnnl::post_ops ops;
  switch (activation) {
  case Activation::Relu: ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f); break;
  case Activation::Sigmoid: ops.append_eltwise(1.0f, algorithm::eltwise_logistic, 0.0f, 0.0f); break;
  case Activation::Tanh: ops.append_eltwise(1.0f, algorithm::eltwise_tanh, 0.0f, 0.0f); break;
  default: unsupported("activation " + std::to_string(attrs.getInt("activation", 0)));
  }
  attr.set_post_ops(ops);
  return attr;
}

} // namespace

class DnnlOpBuilder {
public:
  DnnlOpBuilder(const dnnl::engine& engine, const OpSignature& signature, DnnlOp::Purpose purpose)
      : engine_(engine), s_(signature), measure_(purpose == DnnlOp::Purpose::Measure), op_(std::make_unique<DnnlOp>()) {
    op_->constant_.assign(signature.inputs.size(), false);
    op_->prepared_.assign(signature.inputs.size(), false);
  }

  std::unique_ptr<DnnlOp> build() {
    for (const TensorType& t : s_.inputs)
      if (t.numel() == 0) unsupported("an empty input");
    for (const TensorType& t : s_.outputs)
      if (t.numel() == 0) unsupported("an empty output");
    switch (s_.kind) {
    case OpKind::Conv: conv(); break;
    case OpKind::MatMul: matMul(); break;
    case OpKind::Gemm: gemm(); break;
    case OpKind::BatchNorm: batchNorm(); break;
    case OpKind::LayerNorm: layerNorm(); break;
    case OpKind::LRN: lrn(); break;
    case OpKind::Softmax: softmax(); break;
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::Erf:
    case OpKind::Gelu:
    case OpKind::Sqrt:
    case OpKind::Exp:
    case OpKind::Neg:
    case OpKind::HardSwish:
    case OpKind::Clip: eltwise(); break;
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div: binary(); break;
    case OpKind::Pow: pow(); break;
    case OpKind::ScalarMul: scalarMul(); break;
    case OpKind::Sum: sum(); break;
    case OpKind::MaxPool:
    case OpKind::AveragePool: pool(); break;
    case OpKind::GlobalAveragePool: globalAveragePool(); break;
    case OpKind::ReduceMean: reduceMean(); break;
    case OpKind::Concat: concat(); break;
    case OpKind::Split: split(); break;
    case OpKind::Transpose: transpose(); break;
    case OpKind::Slice: slice(); break;
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Identity:
    case OpKind::Dropout: copy(); break;
    default: unsupported("no oneDNN primitive for " + std::string(opName(s_.kind)));
    }
    return std::move(op_);
  }

private:
  const Shape& in(size_t i) const { return s_.inputs[i].shape; }
  const Shape& out(size_t i = 0) const { return s_.outputs[i].shape; }

  memory bind(const memory::desc& desc, DnnlOp::Binding binding, size_t index) {
    memory m(desc, engine_, DNNL_MEMORY_NONE);
    op_->memories_.push_back({m, binding, index});
    return m;
  }
  memory input(size_t i, const memory::desc& desc) { return bind(desc, DnnlOp::Binding::Input, i); }
  memory output(size_t i, const memory::desc& desc) { return bind(desc, DnnlOp::Binding::Output, i); }
  memory owned(const memory::desc& desc) {
    memory m(desc, engine_);
    op_->memories_.push_back({m, DnnlOp::Binding::Owned, 0});
    return m;
  }

  // `pd` was made with ownScratchpad: the scratchpad it asks for is bound at each execute.
  void call(const dnnl::primitive_desc_base& pd, const dnnl::primitive& primitive, std::unordered_map<int, memory> args,
            int preparesInput = -1) {
    DnnlOp::Call call{primitive, {}, preparesInput, {}};
    if (const memory::desc scratchpad = pd.scratchpad_desc(); scratchpad.get_size() > 0) {
      call.scratchpad = memory(scratchpad, engine_, DNNL_MEMORY_NONE);
      args.emplace(DNNL_ARG_SCRATCHPAD, call.scratchpad);
    }
    call.args = std::move(args);
    op_->calls_.push_back(std::move(call));
    op_->implementations_.emplace_back(pd.impl_info_str());
  }

  void reorder(const memory& from, const memory& to, int preparesInput = -1) {
    dnnl::reorder::primitive_desc pd(engine_, from.get_desc(), engine_, to.get_desc(), ownScratchpad());
    call(pd, dnnl::reorder(pd), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}, preparesInput);
  }

  // Input `i`, stored as `given`, in the layout a primitive wants.
  memory inputAs(size_t i, const memory::desc& given, const memory::desc& wanted) {
    memory source = input(i, given);
    if (given == wanted) return source;
    memory prepared = owned(wanted);
    reorder(source, prepared, static_cast<int>(i));
    return prepared;
  }

  // Scratch outputs a primitive may ask for (statistics of a normalisation) get owned memory.
  template <class Pd>
  void addIfNeeded(std::unordered_map<int, memory>& args, const Pd& pd, int arg, const memory::desc& desc) {
    (void)pd;
    if (desc.get_size() > 0) args.emplace(arg, owned(desc));
  }

  void conv() {
    if (in(0).size() != 4 || in(1).size() != 4) unsupported("a Conv that is not 2-D");
    const int64_t channels = in(0)[1], outChannels = in(1)[0], groupChannels = in(1)[1];
    const int64_t groups = channels / groupChannels;
    const auto strides = intsOr(s_.attrs, "strides", 1, 2);
    const auto pads = intsOr(s_.attrs, "pads", 0, 4);
    auto dilations = intsOr(s_.attrs, "dilations", 1, 2);
    for (int64_t& d : dilations) d -= 1; // oneDNN counts the gaps between taps

    Dims weightDims = groups > 1 ? Dims{groups, outChannels / groups, groupChannels, in(1)[2], in(1)[3]} : dimsOf(in(1));
    const memory::desc weightsAny(weightDims, f32, memory::format_tag::any);
    const bool hasBias = s_.inputs.size() > 2;
    const memory::desc src = plain(in(0)), dst = plain(out());
    const memory::desc bias = hasBias ? plain(Dims{outChannels}) : memory::desc();
    dnnl::convolution_forward::desc desc(inference, algorithm::convolution_direct, src, weightsAny, bias, dst, {strides[0], strides[1]},
                                         dilations, {pads[0], pads[1]}, {pads[2], pads[3]});
    dnnl::convolution_forward::primitive_desc pd(desc, activationAttr(s_.attrs), engine_);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, input(0, src)},
                                         {DNNL_ARG_WEIGHTS, inputAs(1, plain(weightDims), pd.weights_desc())},
                                         {DNNL_ARG_DST, output(0, dst)}};
    if (hasBias) args.emplace(DNNL_ARG_BIAS, input(2, bias));
    call(pd, dnnl::convolution_forward(pd), std::move(args));
  }

  void matmulCall(const memory::desc& a, const memory::desc& b, const memory::desc& bias, const memory::desc& dst,
                  const dnnl::primitive_attr& attr, bool hasBias) {
    dnnl::matmul::desc desc = hasBias ? dnnl::matmul::desc(a, b, bias, dst) : dnnl::matmul::desc(a, b, dst);
    dnnl::matmul::primitive_desc pd(desc, attr, engine_);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, input(0, a)}, {DNNL_ARG_WEIGHTS, input(1, b)}, {DNNL_ARG_DST, output(0, dst)}};
    if (hasBias) args.emplace(DNNL_ARG_BIAS, input(2, bias));
    call(pd, dnnl::matmul(pd), std::move(args));
  }

  // numpy matmul: 1-D operands promoted, batch axes broadcast.
  void matMul() {
    Shape a = in(0), b = in(1);
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    const Shape batchA(a.begin(), a.end() - 2), batchB(b.begin(), b.end() - 2);
    const auto attr = activationAttr(s_.attrs);
    if (numelOf(batchB) == 1) {
      // One right-hand matrix: A's batches stack into the rows of a single GEMM.
      const int64_t rows = numelOf(batchA) * m;
      matmulCall(plain(Dims{rows, k}), plain(Dims{k, n}), {}, plain(Dims{rows, n}), attr, false);
      return;
    }
    const size_t rank = std::max(a.size(), b.size());
    Dims outDims = alignedDims(Shape(batchA.size() >= batchB.size() ? batchA : batchB), rank - 2);
    const Dims aDims = alignedDims(a, rank), bDims = alignedDims(b, rank);
    for (size_t d = 0; d + 2 < rank; ++d) outDims[d] = std::max(aDims[d], bDims[d]);
    outDims.push_back(m);
    outDims.push_back(n);
    matmulCall(plain(aDims), plain(bDims), {}, plain(outDims), attr, false);
  }

  // Gemm: Y = alpha * A' B' + beta * C with A' = transA ? A^T : A (read in place through strides).
  void gemm() {
    const bool transA = s_.attrs.getInt("transA", 0) != 0, transB = s_.attrs.getInt("transB", 0) != 0;
    const float alpha = s_.attrs.getFloat("alpha", 1.0f), beta = s_.attrs.getFloat("beta", 1.0f);
    const int64_t m = out()[0], n = out()[1], k = transA ? in(0)[0] : in(0)[1];
    const memory::desc a = transA ? memory::desc({m, k}, f32, {1, m}) : plain(Dims{m, k});
    const memory::desc b = transB ? memory::desc({k, n}, f32, {1, k}) : plain(Dims{k, n});
    const bool hasBias = s_.inputs.size() > 2;
    dnnl::primitive_attr attr = ownScratchpad();
    if (!measure_) {
      if (hasBias && beta != 1.0f) unsupported("Gemm with beta != 1");
      if (hasBias && alpha != 1.0f) unsupported("Gemm with alpha != 1 and a C input");
      if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
    }
    const memory::desc bias = hasBias ? plain(alignedDims(in(2), 2)) : memory::desc();
    matmulCall(a, b, bias, plain(Dims{m, n}), attr, hasBias);
  }

  void batchNorm() {
    if (in(0).size() < 2 || in(0).size() > 5) unsupported("BatchNorm of rank " + std::to_string(in(0).size()));
    const auto flags = dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
                       dnnl::normalization_flags::use_shift;
    const memory::desc data = plain(in(0)), channel = plain(Dims{in(0)[1]});
    dnnl::batch_normalization_forward::desc desc(inference, data, s_.attrs.getFloat("epsilon", 1e-5f), flags);
    dnnl::batch_normalization_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::batch_normalization_forward(pd),
         {{DNNL_ARG_SRC, input(0, data)},
          {DNNL_ARG_SCALE, input(1, channel)},
          {DNNL_ARG_SHIFT, input(2, channel)},
          {DNNL_ARG_MEAN, input(3, channel)},
          {DNNL_ARG_VARIANCE, input(4, channel)},
          {DNNL_ARG_DST, output(0, data)}});
  }

  // Normalises over the axes from `axis` on, seen as the last axis of [outer, inner].
  void layerNorm() {
    const int64_t rank = static_cast<int64_t>(in(0).size());
    int64_t axis = s_.attrs.getInt("axis", -1);
    if (axis < 0) axis += rank;
    const int64_t inner = numelOf(Shape(in(0).begin() + axis, in(0).end()));
    const int64_t outer = numelOf(in(0)) / inner;
    for (size_t i = 1; i < s_.inputs.size(); ++i)
      if (s_.inputs[i].numel() != inner) unsupported("LayerNorm with a broadcast scale or bias");
    auto flags = dnnl::normalization_flags::use_scale;
    if (s_.inputs.size() > 2) flags = flags | dnnl::normalization_flags::use_shift;
    const memory::desc data = plain(Dims{outer, inner}), parameter = plain(Dims{inner});
    dnnl::layer_normalization_forward::desc desc(inference, data, s_.attrs.getFloat("epsilon", 1e-5f), flags);
    dnnl::layer_normalization_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, input(0, data)}, {DNNL_ARG_SCALE, input(1, parameter)}, {DNNL_ARG_DST, output(0, data)}};
    if (s_.inputs.size() > 2) args.emplace(DNNL_ARG_SHIFT, input(2, parameter));
    addIfNeeded(args, pd, DNNL_ARG_MEAN, pd.mean_desc());
    addIfNeeded(args, pd, DNNL_ARG_VARIANCE, pd.variance_desc());
    call(pd, dnnl::layer_normalization_forward(pd), std::move(args));
  }

  void lrn() {
    if (in(0).size() != 4) unsupported("LRN of rank " + std::to_string(in(0).size()));
    const int64_t size = s_.attrs.getInt("size", 0);
    // ONNX's window is [c - floor((size-1)/2), c + ceil((size-1)/2)]; oneDNN's is centred, the same for odd sizes.
    if (size < 1 || (size % 2 == 0 && !measure_)) unsupported("LRN with an even size");
    const memory::desc data = plain(in(0));
    dnnl::lrn_forward::desc desc(inference, algorithm::lrn_across_channels, data, size, s_.attrs.getFloat("alpha", 1e-4f),
                                 s_.attrs.getFloat("beta", 0.75f), s_.attrs.getFloat("bias", 1.0f));
    dnnl::lrn_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::lrn_forward(pd), {{DNNL_ARG_SRC, input(0, data)}, {DNNL_ARG_DST, output(0, data)}});
  }

  void softmax() {
    const int64_t rank = static_cast<int64_t>(std::max<size_t>(in(0).size(), 1));
    int64_t axis = s_.attrs.getInt("axis", -1);
    if (axis < 0) axis += rank;
    const memory::desc data = plain(in(0));
    dnnl::softmax_forward::desc desc(inference, data, static_cast<int>(axis));
    dnnl::softmax_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::softmax_forward(pd), {{DNNL_ARG_SRC, input(0, data)}, {DNNL_ARG_DST, output(0, data)}});
  }

  void eltwise() {
    algorithm kind = algorithm::eltwise_relu;
    float alpha = 0.0f, beta = 0.0f;
    switch (s_.kind) {
    case OpKind::Relu: break;
    case OpKind::Sigmoid: kind = algorithm::eltwise_logistic; break;
    case OpKind::Tanh: kind = algorithm::eltwise_tanh; break;
    case OpKind::Sqrt: kind = algorithm::eltwise_sqrt; break;
    case OpKind::Exp: kind = algorithm::eltwise_exp; break;
    case OpKind::Neg:
      kind = algorithm::eltwise_linear;
      alpha = -1.0f;
      break;
    case OpKind::Gelu:
      kind = s_.attrs.getString("approximate", "none") == "tanh" ? algorithm::eltwise_gelu_tanh : algorithm::eltwise_gelu_erf;
      break;
    case OpKind::HardSwish: kind = algorithm::eltwise_hardswish; break; // x * relu6(x + 3) / 6
    case OpKind::Erf:
      // oneDNN has no plain erf; GELU-erf evaluates one erf per element, so it costs the same.
      if (!measure_) unsupported("Erf (oneDNN has no erf primitive)");
      kind = algorithm::eltwise_gelu_erf;
      break;
    case OpKind::Clip: {
      kind = algorithm::eltwise_clip_v2;
      alpha = std::max(s_.attrs.getFloat("min", -INFINITY), -FLT_MAX);
      beta = std::min(s_.attrs.getFloat("max", INFINITY), FLT_MAX);
      break;
    }
    default: unsupported(std::string(opName(s_.kind)));
    }
    const memory::desc data = plain(in(0));
    dnnl::eltwise_forward::desc desc(inference, kind, data, alpha, beta);
    dnnl::eltwise_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::eltwise_forward(pd), {{DNNL_ARG_SRC, input(0, data)}, {DNNL_ARG_DST, output(0, data)}});
  }

  // oneDNN's binary broadcasts only its second operand, so the full-shape operand goes first.
  void binary() {
    algorithm kind = algorithm::binary_add;
    bool commutative = true;
    switch (s_.kind) {
    case OpKind::Add: break;
    case OpKind::Mul: kind = algorithm::binary_mul; break;
    case OpKind::Sub:
      kind = algorithm::binary_sub;
      commutative = false;
      break;
    case OpKind::Div:
      kind = algorithm::binary_div;
      commutative = false;
      break;
    default: unsupported(std::string(opName(s_.kind)));
    }
    const size_t rank = std::max<size_t>(out().size(), 1);
    const Dims outDims = dimsOf(out());
    size_t first = 0, second = 1;
    if (alignedDims(in(0), rank) != outDims) {
      if (alignedDims(in(1), rank) != outDims) unsupported("a binary op where both operands broadcast");
      if (!commutative && !measure_) unsupported(std::string(opName(s_.kind)) + " whose first operand broadcasts");
      std::swap(first, second);
    }
    const memory::desc a = plain(outDims), b = plain(alignedDims(in(second), rank)), dst = plain(outDims);
    dnnl::binary::desc desc(kind, a, b, dst);
    dnnl::binary::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::binary(pd),
         {{DNNL_ARG_SRC_0, input(first, a)}, {DNNL_ARG_SRC_1, input(second, b)}, {DNNL_ARG_DST, output(0, dst)}});
  }

  // The exponent's value is not part of the signature, so Pow is only timed (as x^2, one pow per element).
  void pow() {
    if (!measure_) unsupported("Pow (its exponent is data)");
    if (s_.inputs[1].numel() != 1 || in(0) != out()) unsupported("Pow with a tensor exponent");
    const memory::desc data = plain(in(0));
    dnnl::eltwise_forward::desc desc(inference, algorithm::eltwise_pow, data, 1.0f, 2.0f);
    dnnl::eltwise_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::eltwise_forward(pd), {{DNNL_ARG_SRC, input(0, data)}, {DNNL_ARG_DST, output(0, data)}});
  }

  // x * s where s is the first element of the second input.
  void scalarMul() {
    const Dims dims = dimsOf(out());
    const memory::desc a = plain(dims), b = plain(Dims(dims.size(), 1));
    dnnl::binary::desc desc(algorithm::binary_mul, a, b, a);
    dnnl::binary::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::binary(pd),
         {{DNNL_ARG_SRC_0, input(0, a)}, {DNNL_ARG_SRC_1, input(1, b)}, {DNNL_ARG_DST, output(0, a)}});
  }

  void sum() {
    const memory::desc data = plain(out());
    for (const TensorType& t : s_.inputs)
      if (t.shape != out()) unsupported("Sum with broadcasting");
    if (s_.inputs.size() == 1) {
      reorder(input(0, data), output(0, data));
      return;
    }
    std::vector<memory::desc> sources(s_.inputs.size(), data);
    dnnl::sum::primitive_desc pd(data, std::vector<float>(sources.size(), 1.0f), sources, engine_, ownScratchpad());
    std::unordered_map<int, memory> args{{DNNL_ARG_DST, output(0, data)}};
    for (size_t i = 0; i < sources.size(); ++i) args.emplace(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), input(i, data));
    call(pd, dnnl::sum(pd), std::move(args));
  }

  void poolCall(algorithm kind, const Dims& strides, const Dims& kernel, const Dims& dilations, const Dims& padL, const Dims& padR) {
    const memory::desc src = plain(in(0)), dst = plain(out());
    dnnl::pooling_v2_forward::desc desc(inference, kind, src, dst, strides, kernel, dilations, padL, padR);
    dnnl::pooling_v2_forward::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::pooling_v2_forward(pd), {{DNNL_ARG_SRC, input(0, src)}, {DNNL_ARG_DST, output(0, dst)}});
  }

  void pool() {
    const auto kernel = s_.attrs.getInts("kernel_shape");
    if (in(0).size() != 4 || kernel.size() != 2) unsupported("a pool that is not 2-D");
    const auto strides = intsOr(s_.attrs, "strides", 1, 2);
    const auto pads = intsOr(s_.attrs, "pads", 0, 4);
    const auto dilations = intsOr(s_.attrs, "dilations", 1, 2);
    const bool countPadding = s_.attrs.getInt("count_include_pad", 0) != 0;
    Dims padR{pads[2], pads[3]};
    for (size_t d = 0; d < 2; ++d) {
      // oneDNN rounds the output size down; ceil_mode's extra window becomes extra right padding.
      const int64_t span = (kernel[d] - 1) * dilations[d] + 1;
      const int64_t needed = (out()[2 + d] - 1) * strides[d] + span - in(0)[2 + d] - pads[d];
      if ((in(0)[2 + d] + pads[d] + padR[d] - span) / strides[d] + 1 == out()[2 + d]) continue;
      if (countPadding && s_.kind == OpKind::AveragePool && !measure_) unsupported("ceil_mode average pooling that counts padding");
      padR[d] = needed;
    }
    const algorithm kind = s_.kind == OpKind::MaxPool ? algorithm::pooling_max
                           : countPadding             ? algorithm::pooling_avg_include_padding
                                                      : algorithm::pooling_avg_exclude_padding;
    poolCall(kind, {strides[0], strides[1]}, {kernel[0], kernel[1]}, {dilations[0] - 1, dilations[1] - 1}, {pads[0], pads[1]}, padR);
  }

  void globalAveragePool() {
    if (in(0).size() != 4) unsupported("GlobalAveragePool of rank " + std::to_string(in(0).size()));
    poolCall(algorithm::pooling_avg_exclude_padding, {1, 1}, {in(0)[2], in(0)[3]}, {0, 0}, {0, 0}, {0, 0});
  }

  void reduceMean() {
    const auto axes = s_.attrs.getInts("axes");
    Dims kept = dimsOf(in(0));
    for (size_t d = 0; d < in(0).size(); ++d)
      if (axes.empty() || std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end()) kept[d] = 1;
    // keepdims or not, the output buffer is the same row-major block.
    const memory::desc src = plain(in(0)), dst = plain(kept);
    dnnl::reduction::desc desc(algorithm::reduction_mean, src, dst, 0.0f, 0.0f);
    dnnl::reduction::primitive_desc pd(desc, ownScratchpad(), engine_);
    call(pd, dnnl::reduction(pd), {{DNNL_ARG_SRC, input(0, src)}, {DNNL_ARG_DST, output(0, dst)}});
  }

  void concat() {
    if (out().empty()) unsupported("Concat of scalars");
    const int axis = static_cast<int>(s_.attrs.getInt("axis", 0));
    std::vector<memory::desc> sources;
    for (const TensorType& t : s_.inputs) sources.push_back(plain(t.shape));
    const memory::desc dst = plain(out());
    dnnl::concat::primitive_desc pd(dst, axis, sources, engine_, ownScratchpad());
    std::unordered_map<int, memory> args{{DNNL_ARG_DST, output(0, dst)}};
    for (size_t i = 0; i < sources.size(); ++i) args.emplace(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), input(i, sources[i]));
    call(pd, dnnl::concat(pd), std::move(args));
  }

  // Each output is a reorder of a window of the input.
  void split() {
    const int64_t axis = s_.attrs.getInt("axis", 0);
    const memory::desc whole = plain(in(0));
    int64_t offset = 0;
    for (size_t j = 0; j < s_.outputs.size(); ++j) {
      Dims offsets(in(0).size(), 0);
      offsets[static_cast<size_t>(axis)] = offset;
      reorder(input(0, whole.submemory_desc(dimsOf(out(j)), offsets)), output(j, plain(out(j))));
      offset += out(j)[static_cast<size_t>(axis)];
    }
  }

  void transpose() {
    const auto perm = s_.attrs.getInts("perm");
    const Dims inStrides = contiguousStrides(dimsOf(in(0)));
    Dims strides;
    for (int64_t axis : perm) strides.push_back(inStrides[static_cast<size_t>(axis)]);
    reorder(input(0, view(dimsOf(out()), strides, 0)), output(0, plain(out())));
  }

  void slice() {
    const auto starts = s_.attrs.getInts("starts");
    auto axes = s_.attrs.getInts("axes");
    auto steps = s_.attrs.getInts("steps");
    if (axes.empty()) {
      axes.resize(starts.size());
      std::iota(axes.begin(), axes.end(), 0);
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    const Dims inDims = dimsOf(in(0));
    Dims strides = contiguousStrides(inDims);
    int64_t offset = 0;
    for (size_t i = 0; i < starts.size(); ++i) {
      const int64_t rank = static_cast<int64_t>(in(0).size());
      const auto axis = static_cast<size_t>(axes[i] < 0 ? axes[i] + rank : axes[i]);
      if (steps[i] < 1) unsupported("Slice with a negative step");
      const int64_t dim = inDims[axis];
      const int64_t start = std::clamp<int64_t>(starts[i] < 0 ? starts[i] + dim : starts[i], 0, dim);
      offset += start * strides[axis];
      strides[axis] *= steps[i];
    }
    reorder(input(0, view(dimsOf(out()), strides, offset)), output(0, plain(out())));
  }

  // Reshape and friends re-label a buffer; as a primitive they are a copy (the executor aliases instead).
  void copy() {
    const Dims dims{numelOf(out())};
    reorder(input(0, plain(dims)), output(0, plain(dims)));
  }

  const dnnl::engine& engine_;
  const OpSignature& s_;
  bool measure_;
  std::unique_ptr<DnnlOp> op_;
};

std::unique_ptr<DnnlOp> DnnlOp::lower(const dnnl::engine& engine, const OpSignature& signature, Purpose purpose, std::string* why) {
  auto refuse = [&](std::string reason) -> std::unique_ptr<DnnlOp> {
    if (why) *why = std::move(reason);
    return nullptr;
  };
  for (const TensorType& t : signature.inputs)
    if (!isFloatingPoint(t.dtype)) return refuse("a " + std::string(dtypeName(t.dtype)) + " input");
  for (const TensorType& t : signature.outputs)
    if (!isFloatingPoint(t.dtype)) return refuse("a " + std::string(dtypeName(t.dtype)) + " output");
  try {
    return DnnlOpBuilder(engine, signature, purpose).build();
  } catch (const Unsupported& u) {
    return refuse(u.why);
  } catch (const dnnl::error& e) {
    return refuse(std::string("oneDNN: ") + e.what());
  } catch (const Error& e) {
    return refuse(e.what()); // an attribute of an unexpected type
  }
}

void DnnlOp::setConstant(size_t index) {
  if (index < constant_.size()) constant_[index] = true;
}

namespace {

struct FreeBytes {
  void operator()(std::byte* bytes) const { std::free(bytes); }
};

// The executing thread's scratchpad, grown to the largest any primitive asked of it. On a CPU
// stream a primitive runs to completion before the thread's next one starts, so one buffer serves
// them all, as oneDNN's own per-thread scratchpad does.
void* threadScratchpad(size_t bytes) {
  constexpr size_t page = 4096;
  thread_local std::unique_ptr<std::byte, FreeBytes> buffer;
  thread_local size_t capacity = 0;
  if (bytes > capacity) {
    const size_t rounded = (bytes + page - 1) / page * page;
    buffer.reset(); // before allocating the next, so both never coexist
    capacity = 0;
    buffer.reset(static_cast<std::byte*>(std::aligned_alloc(page, rounded)));
    if (!buffer) throw std::bad_alloc();
    capacity = rounded;
  }
  return buffer.get();
}

} // namespace

void DnnlOp::execute(dnnl::stream& stream, std::span<const float* const> inputs, std::span<float* const> outputs) {
  for (Bound& bound : memories_) {
    if (bound.binding == Binding::Input) bound.memory.set_data_handle(const_cast<float*>(inputs[bound.index]));
    if (bound.binding == Binding::Output) bound.memory.set_data_handle(outputs[bound.index]);
  }
  for (Call& call : calls_) {
    if (call.preparesInput >= 0) {
      const auto input = static_cast<size_t>(call.preparesInput);
      if (constant_[input] && prepared_[input]) continue;
      prepared_[input] = constant_[input];
    }
    if (call.scratchpad) call.scratchpad.set_data_handle(threadScratchpad(call.scratchpad.get_desc().get_size()));
    call.primitive.execute(stream, call.args);
  }
  stream.wait();
}

bool isParameterInput(OpKind kind, size_t index) {
  switch (kind) {
  case OpKind::Conv:
  case OpKind::Gemm:
  case OpKind::BatchNorm:
  case OpKind::LayerNorm: return index >= 1;
  default: return false;
  }
}

} // namespace tessera::cpu
