// Lowering, one function per op family. A family builds its descriptors once and records calls
// that take the buffers at run time; anything cuDNN, cuBLAS or the kernels cannot compute exactly
// is refused (Unsupported), so the executor interprets that op and the profiler estimates it.
#include "CudaOp.h"

#include "Kernels.h"

#include "support/Error.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>

namespace tessera::cuda {

namespace {

constexpr float kOne = 1.0f;
constexpr float kZero = 0.0f;
// The most a convolution's algorithm search may use as workspace (algorithms wanting more are skipped).
constexpr size_t kMaxConvolutionWorkspace = size_t{1} << 30;

struct Unsupported {
  std::string why;
};

[[noreturn]] void unsupported(std::string why) { throw Unsupported{std::move(why)}; }

int toInt(int64_t value, const char* what) {
  if (value < 0 || value > INT_MAX) unsupported(std::string(what) + " " + std::to_string(value) + " does not fit cuDNN/cuBLAS's int");
  return static_cast<int>(value);
}

std::vector<int64_t> contiguousStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

IndexSpace spaceOf(const Shape& shape) {
  if (shape.size() > static_cast<size_t>(kMaxRank)) unsupported("rank " + std::to_string(shape.size()) + " (the kernels take up to 8)");
  IndexSpace space;
  space.rank = static_cast<int>(shape.size());
  std::copy(shape.begin(), shape.end(), space.dims);
  return space;
}

StridedView viewOf(const std::vector<int64_t>& strides, int64_t offset = 0) {
  StridedView view;
  view.offset = offset;
  std::copy(strides.begin(), strides.end(), view.strides);
  return view;
}

StridedView contiguous(const Shape& shape, int64_t offset = 0) { return viewOf(contiguousStrides(shape), offset); }

// Reads a tensor of `shape` as if broadcast to `target` (numpy: trailing axes align, size-1 axes repeat).
StridedView broadcastView(const Shape& shape, const Shape& target) {
  const std::vector<int64_t> own = contiguousStrides(shape);
  std::vector<int64_t> strides(target.size(), 0);
  const size_t skip = target.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) strides[skip + d] = shape[d] == 1 ? 0 : own[d];
  return viewOf(strides);
}

std::vector<int64_t> intsOr(const Attributes& attrs, const char* name, int64_t fallback, size_t count) {
  std::vector<int64_t> values = attrs.getInts(name);
  if (values.empty()) values.assign(count, fallback);
  if (values.size() != count) unsupported(std::string(name) + " has " + std::to_string(values.size()) + " entries");
  return values;
}

// Any shape as packed NCHW for cuDNN calls that only care about the element count or the channel
// axis: rank <= 4 gets leading 1s, a higher rank folds its leading axes into N.
std::array<int64_t, 4> asNchw(const Shape& shape) {
  std::array<int64_t, 4> dims{1, 1, 1, 1};
  const size_t rank = shape.size();
  for (size_t d = 0; d < std::min<size_t>(rank, 4); ++d) dims[3 - d] = shape[rank - 1 - d];
  for (size_t d = 0; d + 4 < rank; ++d) dims[0] *= shape[d];
  return dims;
}

} // namespace

class CudaOpBuilder {
public:
  CudaOpBuilder(CudaContext& context, const OpSignature& signature) : context_(context), s_(signature), op_(std::make_unique<CudaOp>()) {}

  std::unique_ptr<CudaOp> build() {
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
    case OpKind::Relu: cudnnActivation(CUDNN_ACTIVATION_RELU, 0.0, false); break;
    case OpKind::Sigmoid: cudnnActivation(CUDNN_ACTIVATION_SIGMOID, 0.0, false); break;
    case OpKind::Tanh: cudnnActivation(CUDNN_ACTIVATION_TANH, 0.0, false); break;
    case OpKind::Clip: clip(); break;
    case OpKind::Erf: unary(ElementwiseOp::Erf); break;
    case OpKind::Gelu: gelu(); break;
    case OpKind::Sqrt: unary(ElementwiseOp::Sqrt); break;
    case OpKind::Exp: unary(ElementwiseOp::Exp); break;
    case OpKind::Neg: unary(ElementwiseOp::Neg); break;
    case OpKind::Add: binary(ElementwiseOp::Add, 0, 1, Second::Broadcast); break;
    case OpKind::Sub: binary(ElementwiseOp::Sub, 0, 1, Second::Broadcast); break;
    case OpKind::Mul: binary(ElementwiseOp::Mul, 0, 1, Second::Broadcast); break;
    case OpKind::Div: binary(ElementwiseOp::Div, 0, 1, Second::Broadcast); break;
    case OpKind::Pow: binary(ElementwiseOp::Pow, 0, 1, Second::Broadcast); break;
    case OpKind::ScalarMul: binary(ElementwiseOp::Mul, 0, 1, Second::Scalar); break;
    case OpKind::Sum: sum(); break;
    case OpKind::MaxPool:
    case OpKind::AveragePool: pool(); break;
    case OpKind::GlobalAveragePool: globalAveragePool(); break;
    case OpKind::ReduceMean: reduceMean(); break;
    case OpKind::Concat: concat(); break;
    case OpKind::Split: split(); break;
    case OpKind::Transpose: transpose(); break;
    case OpKind::Slice: slice(); break;
    case OpKind::Pad: pad(); break;
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Identity:
    case OpKind::Dropout: copy(); break;
    default: unsupported("no GPU kernel for " + std::string(opName(s_.kind)));
    }
    return std::move(op_);
  }

private:
  const Shape& in(size_t i) const { return s_.inputs[i].shape; }
  const Shape& out(size_t i = 0) const { return s_.outputs[i].shape; }

  // An axis attribute made non-negative (ONNX counts negative axes from the end).
  size_t axisOf(const char* name, int64_t fallback, size_t rank) const {
    int64_t axis = s_.attrs.getInt(name, fallback);
    if (axis < 0) axis += static_cast<int64_t>(rank);
    if (axis < 0 || axis >= static_cast<int64_t>(rank)) unsupported(std::string(opName(s_.kind)) + " " + name + " out of range");
    return static_cast<size_t>(axis);
  }

  void add(CudaOp::Call call) { op_->calls_.push_back(std::move(call)); }
  void describe(const std::string& implementation) {
    std::string& all = op_->implementation_;
    if (all == implementation || all.find(implementation + " + ") == 0 || all.find(" + " + implementation) != std::string::npos) return;
    all += (all.empty() ? "" : " + ") + implementation;
  }

  // A packed NCHW float tensor descriptor, shared by the calls that use it.
  std::shared_ptr<TensorDescriptor> tensor(const std::array<int64_t, 4>& dims) {
    for (int64_t d : dims) toInt(d, "dimension");
    toInt(dims[0] * dims[1] * dims[2] * dims[3], "element count");
    auto desc = std::make_shared<TensorDescriptor>(makeTensorDescriptor());
    TESSERA_CUDA_CHECK(cudnnSetTensor4dDescriptor(*desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, static_cast<int>(dims[0]),
                                                  static_cast<int>(dims[1]), static_cast<int>(dims[2]), static_cast<int>(dims[3])));
    return desc;
  }

  // ---- Tessera's kernels -------------------------------------------------------------------

  // How a binary op reads its second operand: numpy broadcasting, one element everywhere (ScalarMul's
  // scalar, of any rank), or the output itself (Sum's running total).
  enum class Second { Broadcast, Scalar, Output };

  // out = op(in(a) broadcast, second operand).
  void binary(ElementwiseOp op, size_t a, size_t b, Second second) {
    const Shape target = out();
    const IndexSpace space = spaceOf(target);
    const StridedView aView = broadcastView(in(a), target);
    const StridedView bView = second == Second::Output ? contiguous(target) : second == Second::Scalar ? StridedView{} : broadcastView(in(b), target);
    const bool bIsOutput = second == Second::Output;
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      check(launchElementwise(op, space, x[a], aView, bIsOutput ? y[0] : x[b], bView, y[0], 0.0f, 0.0f, context.stream()), "elementwise kernel");
    });
    describe("kernel elementwise");
  }

  void unaryKernel(ElementwiseOp op, float low, float high) {
    const IndexSpace space = spaceOf({numelOf(out())});
    const StridedView dense = contiguous({numelOf(out())});
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      check(launchElementwise(op, space, x[0], dense, nullptr, dense, y[0], low, high, context.stream()), "elementwise kernel");
    });
    describe("kernel elementwise");
  }
  void unary(ElementwiseOp op) { unaryKernel(op, 0.0f, 0.0f); }

  void gelu() {
    const std::string approximate = s_.attrs.getString("approximate", "none");
    if (approximate != "none" && approximate != "tanh") unsupported("Gelu approximation '" + approximate + "'");
    unary(approximate == "tanh" ? ElementwiseOp::GeluTanh : ElementwiseOp::Gelu);
  }

  // Clip(0, max) is ReLU6-like: cuDNN's clipped ReLU computes exactly min(max(x, 0), max).
  void clip() {
    const float low = s_.attrs.getFloat("min", -std::numeric_limits<float>::infinity());
    const float high = s_.attrs.getFloat("max", std::numeric_limits<float>::infinity());
    if (low == 0.0f && std::isfinite(high) && high >= 0.0f) {
      cudnnActivation(CUDNN_ACTIVATION_CLIPPED_RELU, high, false);
      return;
    }
    unaryKernel(ElementwiseOp::Clip, low, high);
  }

  // Sum: ((x0 + x1) + x2) + ..., each term broadcast, accumulated in the output.
  void sum() {
    if (s_.inputs.size() == 1) {
      copyWindow(out(), 0, broadcastView(in(0), out()), contiguous(out()), 0);
      return;
    }
    binary(ElementwiseOp::Add, 0, 1, Second::Broadcast);
    // Addition commutes exactly, so term + total is the interpreter's total + term.
    for (size_t i = 2; i < s_.inputs.size(); ++i) binary(ElementwiseOp::Add, i, 0, Second::Output);
  }

  // Copies the `space` window of input `index` (read through `from`) to output `output` (`to`).
  void copyWindow(const Shape& space, size_t index, const StridedView& from, const StridedView& to, size_t output, Padding padding = {}) {
    const IndexSpace indices = spaceOf(space);
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      check(launchCopy(indices, x[index], from, y[output], to, padding, context.stream()), "copy kernel");
    });
    describe("kernel copy");
  }

  void concat() {
    const size_t axis = axisOf("axis", 0, out().size());
    const std::vector<int64_t> outStrides = contiguousStrides(out());
    int64_t offset = 0;
    for (size_t i = 0; i < s_.inputs.size(); ++i) {
      copyWindow(in(i), i, contiguous(in(i)), viewOf(outStrides, offset * outStrides[axis]), 0);
      offset += in(i)[axis];
    }
  }

  void split() {
    const size_t axis = axisOf("axis", 0, in(0).size());
    const std::vector<int64_t> inStrides = contiguousStrides(in(0));
    int64_t offset = 0;
    for (size_t j = 0; j < s_.outputs.size(); ++j) {
      copyWindow(out(j), 0, viewOf(inStrides, offset * inStrides[axis]), contiguous(out(j)), j);
      offset += out(j)[axis];
    }
  }

  void transpose() {
    const std::vector<int64_t> perm = s_.attrs.getInts("perm");
    if (perm.size() != in(0).size()) unsupported("Transpose without a full perm");
    const std::vector<int64_t> inStrides = contiguousStrides(in(0));
    std::vector<int64_t> strides;
    for (int64_t axis : perm) strides.push_back(inStrides[static_cast<size_t>(axis)]);
    copyWindow(out(), 0, viewOf(strides), contiguous(out()), 0);
  }

  // ONNX clamping, as the interpreter does it: a positive step clamps the start to [0, dim], a
  // negative one to [-1, dim - 1].
  void slice() {
    const auto starts = s_.attrs.getInts("starts");
    std::vector<int64_t> axes = s_.attrs.getInts("axes");
    std::vector<int64_t> steps = s_.attrs.getInts("steps");
    if (axes.empty()) {
      axes.resize(starts.size());
      std::iota(axes.begin(), axes.end(), 0);
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size()) unsupported("Slice attributes of different lengths");
    const int64_t rank = static_cast<int64_t>(in(0).size());
    const std::vector<int64_t> inStrides = contiguousStrides(in(0));
    std::vector<int64_t> strides = inStrides;
    int64_t base = 0;
    for (size_t i = 0; i < starts.size(); ++i) {
      const auto axis = static_cast<size_t>(axes[i] < 0 ? axes[i] + rank : axes[i]);
      if (axis >= in(0).size() || steps[i] == 0) unsupported("a Slice axis or step out of range");
      const int64_t dim = in(0)[axis];
      int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
      start = steps[i] > 0 ? std::clamp<int64_t>(start, 0, dim) : std::clamp<int64_t>(start, -1, dim - 1);
      base += start * inStrides[axis];
      strides[axis] = steps[i] * inStrides[axis];
    }
    copyWindow(out(), 0, viewOf(strides, base), contiguous(out()), 0);
  }

  void pad() {
    if (s_.attrs.getString("mode", "constant") != "constant") unsupported("Pad mode '" + s_.attrs.getString("mode", "") + "'");
    const auto pads = s_.attrs.getInts("pads");
    if (pads.size() != 2 * in(0).size()) unsupported("Pad without a begin and end per axis");
    Padding padding;
    padding.active = true;
    padding.fill = s_.attrs.getFloat("value", 0.0f);
    std::copy(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(in(0).size()), padding.begin);
    std::copy(in(0).begin(), in(0).end(), padding.sourceDims);
    copyWindow(out(), 0, contiguous(in(0)), contiguous(out()), 0, padding);
  }

  // Reshape and friends re-label a buffer; as an op they are a copy (the executor aliases instead).
  void copy() {
    const Shape flat{numelOf(out())};
    copyWindow(flat, 0, contiguous(flat), contiguous(flat), 0);
  }

  void reduceMean() {
    const auto axes = s_.attrs.getInts("axes");
    const size_t rank = in(0).size();
    const std::vector<int64_t> strides = contiguousStrides(in(0));
    Shape keptDims, reducedDims;
    std::vector<int64_t> keptStrides, reducedStrides;
    for (size_t d = 0; d < rank; ++d) {
      const bool reduced = axes.empty() || std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end() ||
                           std::find(axes.begin(), axes.end(), static_cast<int64_t>(d) - static_cast<int64_t>(rank)) != axes.end();
      (reduced ? reducedDims : keptDims).push_back(in(0)[d]);
      (reduced ? reducedStrides : keptStrides).push_back(strides[d]);
    }
    reduceCall(keptDims, keptStrides, reducedDims, reducedStrides);
  }

  void reduceCall(const Shape& keptDims, const std::vector<int64_t>& keptStrides, const Shape& reducedDims,
                  const std::vector<int64_t>& reducedStrides) {
    const IndexSpace kept = spaceOf(keptDims), reduced = spaceOf(reducedDims);
    const StridedView keptView = viewOf(keptStrides), reducedView = viewOf(reducedStrides);
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      check(launchReduceMean(kept, keptView, reduced, reducedView, x[0], y[0], context.stream()), "reduce-mean kernel");
    });
    describe("kernel reduce-mean");
  }

  // Normalises over the axes from `axis` on, as rows of `inner` elements.
  void layerNorm() {
    const auto axis = static_cast<std::ptrdiff_t>(axisOf("axis", -1, in(0).size()));
    const int64_t inner = numelOf(Shape(in(0).begin() + axis, in(0).end()));
    const int64_t rows = numelOf(in(0)) / inner;
    for (size_t i = 1; i < s_.inputs.size(); ++i)
      if (s_.inputs[i].numel() != inner) unsupported("LayerNorm with a broadcast scale or bias");
    const float epsilon = s_.attrs.getFloat("epsilon", 1e-5f);
    const bool hasBias = s_.inputs.size() > 2;
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      check(launchLayerNorm(x[0], x[1], hasBias ? x[2] : nullptr, y[0], rows, inner, epsilon, context.stream()), "layer-norm kernel");
    });
    describe("kernel layer-norm");
  }

  void poolKernel(PoolKind kind, const PoolWindow& window) {
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) { check(launchPool(kind, window, x[0], y[0], context.stream()), "pool kernel"); });
    describe("kernel pool");
  }

  // ---- cuDNN --------------------------------------------------------------------------------

  // y = activation(x) over the whole tensor; `inPlace` applies it to output 0 (a fused activation).
  void cudnnActivation(cudnnActivationMode_t mode, double coefficient, bool inPlace) {
    auto data = tensor(asNchw(out()));
    auto activation = std::make_shared<ActivationDescriptor>(makeActivationDescriptor());
    TESSERA_CUDA_CHECK(cudnnSetActivationDescriptor(*activation, mode, CUDNN_PROPAGATE_NAN, coefficient));
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      TESSERA_CUDA_CHECK(cudnnActivationForward(context.cudnn(), *activation, &kOne, *data, inPlace ? y[0] : x[0], &kZero, *data, y[0]));
    });
    describe("cudnn activation");
  }

  // Conv's and MatMul's fused `activation` attribute (NONE=0 SIGMOID=1 RELU=2 TANH=3), on the output.
  void fusedActivation() {
    switch (static_cast<Activation>(s_.attrs.getInt("activation", 0))) {
    case Activation::None: return;
    case Activation::Sigmoid: cudnnActivation(CUDNN_ACTIVATION_SIGMOID, 0.0, true); return;
    case Activation::Relu: cudnnActivation(CUDNN_ACTIVATION_RELU, 0.0, true); return;
    case Activation::Tanh: cudnnActivation(CUDNN_ACTIVATION_TANH, 0.0, true); return;
    }
    unsupported("fused activation " + std::to_string(s_.attrs.getInt("activation", 0)));
  }

  void conv() {
    if (in(0).size() != 4 || in(1).size() != 4) unsupported("a Conv that is not 2-D");
    const int64_t batch = in(0)[0], channels = in(0)[1], height = in(0)[2], width = in(0)[3];
    const int64_t outChannels = in(1)[0], groupChannels = in(1)[1];
    const int64_t groups = channels / groupChannels;
    const auto strides = intsOr(s_.attrs, "strides", 1, 2);
    const auto pads = intsOr(s_.attrs, "pads", 0, 4);
    const auto dilations = intsOr(s_.attrs, "dilations", 1, 2);
    if (static_cast<Activation>(s_.attrs.getInt("activation", 0)) > Activation::Tanh || s_.attrs.getInt("activation", 0) < 0)
      unsupported("fused activation " + std::to_string(s_.attrs.getInt("activation", 0)));

    // cuDNN pads symmetrically; other pads are written into a padded copy of the input first.
    const bool symmetric = pads[0] == pads[2] && pads[1] == pads[3];
    const Shape padded{batch, channels, height + pads[0] + pads[2], width + pads[1] + pads[3]};
    std::shared_ptr<DeviceBuffer> paddedInput;
    if (!symmetric) {
      toInt(numelOf(padded), "padded input size");
      paddedInput = std::make_shared<DeviceBuffer>(sizeof(float) * static_cast<size_t>(numelOf(padded)));
      Padding padding;
      padding.active = true;
      padding.begin[2] = pads[0];
      padding.begin[3] = pads[1];
      std::copy(in(0).begin(), in(0).end(), padding.sourceDims);
      const IndexSpace space = spaceOf(padded);
      const StridedView from = contiguous(in(0)), to = contiguous(padded);
      CudaContext& context = context_;
      add([=, &context](CudaOp::Inputs x, CudaOp::Outputs) {
        check(launchCopy(space, x[0], from, paddedInput->floats(), to, padding, context.stream()), "copy kernel (conv padding)");
      });
      describe("kernel pad");
    }
    const Shape& source = symmetric ? in(0) : padded;
    auto input = tensor({source[0], source[1], source[2], source[3]});
    auto output = tensor({out()[0], out()[1], out()[2], out()[3]});
    auto filter = std::make_shared<FilterDescriptor>(makeFilterDescriptor());
    TESSERA_CUDA_CHECK(cudnnSetFilter4dDescriptor(*filter, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, toInt(outChannels, "output channels"),
                                                  toInt(groupChannels, "channels"), toInt(in(1)[2], "kernel height"),
                                                  toInt(in(1)[3], "kernel width")));
    auto convolution = std::make_shared<ConvolutionDescriptor>(makeConvolutionDescriptor());
    TESSERA_CUDA_CHECK(cudnnSetConvolution2dDescriptor(*convolution, symmetric ? toInt(pads[0], "pad") : 0, symmetric ? toInt(pads[1], "pad") : 0,
                                                       toInt(strides[0], "stride"), toInt(strides[1], "stride"), toInt(dilations[0], "dilation"),
                                                       toInt(dilations[1], "dilation"), CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    TESSERA_CUDA_CHECK(cudnnSetConvolutionGroupCount(*convolution, toInt(groups, "groups")));
    // Plain FP32 FMA kernels, no TF32 tensor cores: outputs must match the float32 interpreter.
    TESSERA_CUDA_CHECK(cudnnSetConvolutionMathType(*convolution, CUDNN_FMA_MATH));
    int n = 0, c = 0, h = 0, w = 0;
    TESSERA_CUDA_CHECK(cudnnGetConvolution2dForwardOutputDim(*convolution, *input, *filter, &n, &c, &h, &w));
    if (Shape{n, c, h, w} != out()) unsupported("cuDNN's output shape " + shapeToString({n, c, h, w}) + " differs from " + shapeToString(out()));

    auto choice = std::make_shared<ConvolutionChoice>();
    CudaContext& context = context_;
    const std::string key = s_.key();
    op_->preparations_.push_back([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      *choice = chooseConvolution(context, key, *input, paddedInput ? paddedInput->floats() : x[0], *filter, x[1], *convolution, *output, y[0]);
      TESSERA_CUDA_CHECK(cudnnSetConvolutionMathType(*convolution, choice->mathType));
    });
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      void* workspace = choice->workspaceBytes ? context.workspace(choice->workspaceBytes) : nullptr;
      TESSERA_CUDA_CHECK(cudnnConvolutionForward(context.cudnn(), &kOne, *input, paddedInput ? paddedInput->floats() : x[0], *filter, x[1],
                                                 *convolution, choice->algorithm, workspace, choice->workspaceBytes, &kZero, *output, y[0]));
    });
    describe("cudnn convolution");
    if (s_.inputs.size() > 2) {
      auto bias = tensor({1, outChannels, 1, 1});
      add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
        TESSERA_CUDA_CHECK(cudnnAddTensor(context.cudnn(), &kOne, *bias, x[2], &kOne, *output, y[0]));
      });
      describe("cudnn add-tensor");
    }
    fusedActivation();
  }

  // TASO's choice: the fastest algorithm cudnnFindConvolutionForwardAlgorithmEx measures on the
  // real buffers, within the workspace it may use. FMA (plain FP32) algorithms are preferred; one
  // of another math type only when cuDNN offers nothing else. Remembered per signature.
  static ConvolutionChoice chooseConvolution(CudaContext& context, const std::string& key, cudnnTensorDescriptor_t input, const float* x,
                                             cudnnFilterDescriptor_t filter, const float* w, cudnnConvolutionDescriptor_t convolution,
                                             cudnnTensorDescriptor_t output, float* y) {
    if (auto it = context.convolutionChoices().find(key); it != context.convolutionChoices().end()) return it->second;
    size_t budget = 0;
    for (int algorithm = 0; algorithm < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; ++algorithm) {
      size_t bytes = 0;
      if (cudnnGetConvolutionForwardWorkspaceSize(context.cudnn(), input, filter, convolution, output,
                                                  static_cast<cudnnConvolutionFwdAlgo_t>(algorithm), &bytes) == CUDNN_STATUS_SUCCESS)
        budget = std::max(budget, bytes);
    }
    size_t freeBytes = 0, totalBytes = 0;
    TESSERA_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    budget = std::min({budget, kMaxConvolutionWorkspace, freeBytes / 2});
    void* workspace = context.workspace(budget);
    int requested = 0, returned = 0;
    TESSERA_CUDA_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(context.cudnn(), &requested));
    std::vector<cudnnConvolutionFwdAlgoPerf_t> results(static_cast<size_t>(std::max(requested, 1)));
    TESSERA_CUDA_CHECK(cudnnFindConvolutionForwardAlgorithmEx(context.cudnn(), input, x, filter, w, convolution, output, y, requested, &returned,
                                                              results.data(), workspace, budget));
    results.resize(static_cast<size_t>(std::max(returned, 0)));
    const auto usable = [&](const cudnnConvolutionFwdAlgoPerf_t& r) { return r.status == CUDNN_STATUS_SUCCESS && r.memory <= budget; };
    // Results come sorted by time, fastest first.
    auto best = std::find_if(results.begin(), results.end(), [&](const auto& r) { return usable(r) && r.mathType == CUDNN_FMA_MATH; });
    if (best == results.end()) best = std::find_if(results.begin(), results.end(), usable);
    if (best == results.end()) throw Error("cuDNN has no algorithm for this convolution within " + std::to_string(budget >> 20) + " MiB of workspace");
    const ConvolutionChoice choice{best->algo, best->memory, best->mathType};
    context.convolutionChoices().emplace(key, choice);
    return choice;
  }

  void batchNorm() {
    if (in(0).size() < 2) unsupported("BatchNorm of rank " + std::to_string(in(0).size()));
    const Shape& shape = in(0);
    auto data = tensor({shape[0], shape[1], numelOf(Shape(shape.begin() + 2, shape.end())), 1});
    auto parameters = std::make_shared<TensorDescriptor>(makeTensorDescriptor());
    TESSERA_CUDA_CHECK(cudnnDeriveBNTensorDescriptor(*parameters, *data, CUDNN_BATCHNORM_SPATIAL));
    const double epsilon = s_.attrs.getFloat("epsilon", 1e-5f);
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      TESSERA_CUDA_CHECK(cudnnBatchNormalizationForwardInference(context.cudnn(), CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero, *data, x[0], *data, y[0],
                                                                 *parameters, x[1], x[2], x[3], x[4], epsilon));
    });
    describe("cudnn batch-norm");
  }

  // ONNX's window [c - floor((size-1)/2), c + ceil((size-1)/2)] is cuDNN's lookBehind/lookAhead,
  // and cuDNN divides alpha by the window size as ONNX does.
  void lrn() {
    if (in(0).size() != 4) unsupported("LRN of rank " + std::to_string(in(0).size()));
    const int64_t size = s_.attrs.getInt("size", 0);
    const double alpha = s_.attrs.getFloat("alpha", 1e-4f), beta = s_.attrs.getFloat("beta", 0.75f), bias = s_.attrs.getFloat("bias", 1.0f);
    if (size < CUDNN_LRN_MIN_N || size > CUDNN_LRN_MAX_N) unsupported("LRN size " + std::to_string(size) + " (cuDNN takes 1 to 16)");
    if (bias < CUDNN_LRN_MIN_K || beta < CUDNN_LRN_MIN_BETA) unsupported("LRN bias below 1e-5 or beta below 0.01");
    auto data = tensor({in(0)[0], in(0)[1], in(0)[2], in(0)[3]});
    auto norm = std::make_shared<LrnDescriptor>(makeLrnDescriptor());
    TESSERA_CUDA_CHECK(cudnnSetLRNDescriptor(*norm, static_cast<unsigned>(size), alpha, beta, bias));
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      TESSERA_CUDA_CHECK(cudnnLRNCrossChannelForward(context.cudnn(), *norm, CUDNN_LRN_CROSS_CHANNEL_DIM1, &kOne, *data, x[0], &kZero, *data, y[0]));
    });
    describe("cudnn lrn");
  }

  // Softmax along `axis` is cuDNN's channel mode on [outer, length, inner, 1].
  void softmax() {
    const size_t axis = axisOf("axis", -1, in(0).size());
    const auto at = in(0).begin() + static_cast<std::ptrdiff_t>(axis);
    auto data = tensor({numelOf(Shape(in(0).begin(), at)), in(0)[axis], numelOf(Shape(at + 1, in(0).end())), 1});
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      TESSERA_CUDA_CHECK(
          cudnnSoftmaxForward(context.cudnn(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &kOne, *data, x[0], &kZero, *data, y[0]));
    });
    describe("cudnn softmax");
  }

  void cudnnPooling(cudnnPoolingMode_t mode, const std::array<int64_t, 4>& inDims, const std::array<int64_t, 2>& kernel,
                    const std::array<int64_t, 2>& padding, const std::array<int64_t, 2>& stride) {
    auto input = tensor(inDims);
    auto output = tensor(asNchw(out()));
    auto pooling = std::make_shared<PoolingDescriptor>(makePoolingDescriptor());
    TESSERA_CUDA_CHECK(cudnnSetPooling2dDescriptor(*pooling, mode, CUDNN_PROPAGATE_NAN, toInt(kernel[0], "window"), toInt(kernel[1], "window"),
                                                   toInt(padding[0], "pad"), toInt(padding[1], "pad"), toInt(stride[0], "stride"),
                                                   toInt(stride[1], "stride")));
    int n = 0, c = 0, h = 0, w = 0;
    TESSERA_CUDA_CHECK(cudnnGetPooling2dForwardOutputDim(*pooling, *input, &n, &c, &h, &w));
    const std::array<int64_t, 4> expected = asNchw(out());
    if (std::array<int64_t, 4>{n, c, h, w} != expected) unsupported("cuDNN pools to another shape");
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      TESSERA_CUDA_CHECK(cudnnPoolingForward(context.cudnn(), *pooling, &kOne, *input, x[0], &kZero, *output, y[0]));
    });
    describe("cudnn pooling");
  }

  // cuDNN when its symmetric, undilated window gives ONNX's output shape; the pool kernel otherwise
  // (asymmetric pads, dilations, ceil_mode), which follows the interpreter tap by tap.
  void pool() {
    const auto kernel = s_.attrs.getInts("kernel_shape");
    if (in(0).size() != 4 || kernel.size() != 2) unsupported("a pool that is not 2-D");
    const auto strides = intsOr(s_.attrs, "strides", 1, 2);
    const auto pads = intsOr(s_.attrs, "pads", 0, 4);
    const auto dilations = intsOr(s_.attrs, "dilations", 1, 2);
    const bool countPadding = s_.attrs.getInt("count_include_pad", 0) != 0;
    const bool isMax = s_.kind == OpKind::MaxPool;
    const bool symmetric = pads[0] == pads[2] && pads[1] == pads[3];
    if (symmetric && dilations[0] == 1 && dilations[1] == 1) {
      try {
        const cudnnPoolingMode_t mode = isMax          ? CUDNN_POOLING_MAX
                                        : countPadding ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                                       : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
        cudnnPooling(mode, {in(0)[0], in(0)[1], in(0)[2], in(0)[3]}, {kernel[0], kernel[1]}, {pads[0], pads[1]}, {strides[0], strides[1]});
        return;
      } catch (const Unsupported&) {
        // ceil_mode's extra output: the kernel below computes it
      } catch (const Error&) {
        // a window cuDNN refuses (padding as large as the window): the kernel takes it
      }
      op_->calls_.clear();
      op_->implementation_.clear();
    }
    const PoolWindow window{in(0)[0] * in(0)[1], in(0)[2], in(0)[3], out()[2], out()[3], kernel[0], kernel[1], strides[0], strides[1],
                            pads[0], pads[1], pads[2], pads[3], dilations[0], dilations[1]};
    poolKernel(isMax ? PoolKind::Max : countPadding ? PoolKind::AverageCountingPadding : PoolKind::Average, window);
  }

  void globalAveragePool() {
    const Shape& shape = in(0);
    if (shape.size() == 4) {
      try {
        cudnnPooling(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, {shape[0], shape[1], shape[2], shape[3]}, {shape[2], shape[3]}, {0, 0}, {1, 1});
        return;
      } catch (const Error&) {
        // a window larger than cuDNN takes: the reduction kernel below averages any plane
      }
    }
    const int64_t inner = numelOf(Shape(shape.begin() + 2, shape.end()));
    reduceCall({shape[0] * shape[1]}, {inner}, {inner}, {1});
  }

  // ---- cuBLAS -------------------------------------------------------------------------------

  // numpy matmul, row-major: C = A B is C^T = B^T A^T in cuBLAS's column-major terms, so every
  // call passes B first. 1-D operands are promoted; batch axes broadcast.
  void matMul() {
    Shape a = in(0), b = in(1);
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    const Shape batchA(a.begin(), a.end() - 2), batchB(b.begin(), b.end() - 2);
    const size_t batchRank = std::max(batchA.size(), batchB.size());
    Shape batch(batchRank, 1);
    auto aligned = [&](const Shape& s) {
      Shape full(batchRank - s.size(), 1);
      full.insert(full.end(), s.begin(), s.end());
      return full;
    };
    const Shape fullA = aligned(batchA), fullB = aligned(batchB);
    for (size_t d = 0; d < batchRank; ++d) batch[d] = std::max(fullA[d], fullB[d]);
    const int64_t batches = numelOf(batch);
    const int cm = toInt(m, "rows"), cn = toInt(n, "columns"), ck = toInt(k, "inner size");
    CudaContext& context = context_;

    if (numelOf(batchB) == 1) {
      // One right-hand matrix: A's batches stack into the rows of a single GEMM.
      const int rows = toInt(batches * m, "rows");
      add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
        TESSERA_CUDA_CHECK(cublasSgemm(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, cn, rows, ck, &kOne, x[1], cn, x[0], ck, &kZero, y[0], cn));
      });
      describe("cublas sgemm");
    } else if ((numelOf(batchA) == 1 || fullA == batch) && fullB == batch) {
      const long long strideA = numelOf(batchA) == 1 ? 0 : m * k;
      const int count = toInt(batches, "batch count");
      add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
        TESSERA_CUDA_CHECK(cublasSgemmStridedBatched(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, cn, cm, ck, &kOne, x[1], cn, k * n, x[0], ck,
                                                     strideA, &kZero, y[0], cn, m * n, count));
      });
      describe("cublas sgemm strided batched");
    } else {
      // Both operands broadcast along different axes: one GEMM per batch, offsets precomputed.
      const StridedView viewA = broadcastView(fullA, batch), viewB = broadcastView(fullB, batch);
      const std::vector<int64_t> outStrides = contiguousStrides(batch);
      std::vector<std::pair<int64_t, int64_t>> offsets;
      for (int64_t index = 0; index < batches; ++index) {
        int64_t offsetA = 0, offsetB = 0;
        for (size_t d = 0; d < batchRank; ++d) {
          const int64_t coordinate = index / outStrides[d] % batch[d];
          offsetA += coordinate * viewA.strides[d];
          offsetB += coordinate * viewB.strides[d];
        }
        offsets.emplace_back(offsetA * m * k, offsetB * k * n);
      }
      add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
        for (size_t i = 0; i < offsets.size(); ++i)
          TESSERA_CUDA_CHECK(cublasSgemm(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, cn, cm, ck, &kOne, x[1] + offsets[i].second, cn,
                                         x[0] + offsets[i].first, ck, &kZero, y[0] + static_cast<int64_t>(i) * m * n, cn));
      });
      describe("cublas sgemm per batch");
    }
    fusedActivation();
  }

  // Gemm: Y = alpha * A' B' + beta * C. C is first broadcast into Y, then one GEMM accumulates
  // onto it. Transposes are read in place through cuBLAS's op flags (operands swapped as above).
  void gemm() {
    const bool transA = s_.attrs.getInt("transA", 0) != 0, transB = s_.attrs.getInt("transB", 0) != 0;
    const float alpha = s_.attrs.getFloat("alpha", 1.0f), beta = s_.attrs.getFloat("beta", 1.0f);
    const int64_t m = out()[0], n = out()[1], k = transA ? in(0)[0] : in(0)[1];
    const bool hasC = s_.inputs.size() > 2;
    if (hasC) copyWindow(out(), 2, broadcastView(in(2), out()), contiguous(out()), 0);
    const float accumulate = hasC ? beta : 0.0f;
    const int cm = toInt(m, "rows"), cn = toInt(n, "columns"), ck = toInt(k, "inner size");
    const int lda = transA ? cm : ck, ldb = transB ? ck : cn;
    CudaContext& context = context_;
    add([=, &context](CudaOp::Inputs x, CudaOp::Outputs y) {
      TESSERA_CUDA_CHECK(cublasSgemm(context.cublas(), transB ? CUBLAS_OP_T : CUBLAS_OP_N, transA ? CUBLAS_OP_T : CUBLAS_OP_N, cn, cm, ck, &alpha,
                                     x[1], ldb, x[0], lda, &accumulate, y[0], cn));
    });
    describe("cublas sgemm");
  }

  CudaContext& context_;
  const OpSignature& s_;
  std::unique_ptr<CudaOp> op_;
};

std::unique_ptr<CudaOp> CudaOp::lower(CudaContext& context, const OpSignature& signature, std::string* why) {
  auto refuse = [&](std::string reason) -> std::unique_ptr<CudaOp> {
    if (why) *why = std::move(reason);
    return nullptr;
  };
  for (const TensorType& t : signature.inputs)
    if (!isFloatingPoint(t.dtype)) return refuse("a " + std::string(dtypeName(t.dtype)) + " input");
  for (const TensorType& t : signature.outputs)
    if (!isFloatingPoint(t.dtype)) return refuse("a " + std::string(dtypeName(t.dtype)) + " output");
  try {
    return CudaOpBuilder(context, signature).build();
  } catch (const Unsupported& u) {
    return refuse(u.why);
  } catch (const std::exception& e) {
    return refuse(e.what()); // a descriptor cuDNN refused, or an attribute of an unexpected type
  }
}

void CudaOp::prepare(Inputs inputs, Outputs outputs) {
  if (prepared_) return;
  for (const Call& preparation : preparations_) preparation(inputs, outputs);
  prepared_ = true;
}

void CudaOp::execute(Inputs inputs, Outputs outputs) {
  prepare(inputs, outputs);
  for (const Call& call : calls_) call(inputs, outputs);
}

} // namespace tessera::cuda
