// ONNX's LSTM (gates in i, o, f, c order; peepholes i, o, f; default activations Sigmoid, Tanh,
// Tanh) in one or both directions and either layout, with per-batch sequence lengths (steps past
// a row's length give zeros in Y). The importer keeps any other form opaque.
#include "interp/Kernels.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tessera::interp {

namespace {

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

} // namespace

std::vector<Tensor> lstm(const Node& node, KernelInputs in) {
  const Shape& x = in[0]->shape();
  const bool batchFirst = node.attrs.getInt("layout", 0) == 1;
  const std::string direction = node.attrs.getString("direction", "forward");
  const int64_t seq = x[batchFirst ? 1 : 0], batch = x[batchFirst ? 0 : 1], size = x[2];
  const int64_t hidden = node.attrs.getInt("hidden_size", 0);
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  std::vector<int64_t> lengths(static_cast<size_t>(batch), seq);
  if (in.size() == 8)
    for (int64_t b = 0; b < batch; ++b) {
      lengths[static_cast<size_t>(b)] = in[7]->ints()[static_cast<size_t>(b)];
      if (lengths[static_cast<size_t>(b)] < 1 || lengths[static_cast<size_t>(b)] > seq)
        kernelError("LSTM sequence_lens[" + std::to_string(b) + "] is " + std::to_string(lengths[static_cast<size_t>(b)]) +
                    ", outside [1, " + std::to_string(seq) + "]");
    }

  std::vector<Tensor> out = {allocateOutput(node, 0), allocateOutput(node, 1), allocateOutput(node, 2)};
  float* y = out[0].mutableFloats().data();
  float* finalH = out[1].mutableFloats().data();
  float* finalC = out[2].mutableFloats().data();
  const float* xs = in[0]->floats().data();
  auto xAt = [&](int64_t t, int64_t b) { return xs + (batchFirst ? b * seq + t : t * batch + b) * size; };
  auto yAt = [&](int64_t t, int64_t d, int64_t b) {
    return y + (batchFirst ? (b * seq + t) * dirs + d : (t * dirs + d) * batch + b) * hidden;
  };
  auto stateOffset = [&](int64_t d, int64_t b) { return (batchFirst ? b * dirs + d : d * batch + b) * hidden; };

  std::vector<float> gates(static_cast<size_t>(4 * hidden)), h(static_cast<size_t>(hidden)), c(static_cast<size_t>(hidden));
  for (int64_t d = 0; d < dirs; ++d) {
    const bool backwards = direction == "reverse" || d == 1;
    const float* w = in[1]->floats().data() + d * 4 * hidden * size;
    const float* r = in[2]->floats().data() + d * 4 * hidden * hidden;
    const float* bias = in[3]->floats().data() + d * 8 * hidden;
    const float* p = in[6]->floats().data() + d * 3 * hidden;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t state = stateOffset(d, b);
      std::copy_n(in[4]->floats().data() + state, hidden, h.begin());
      std::copy_n(in[5]->floats().data() + state, hidden, c.begin());
      const int64_t length = lengths[static_cast<size_t>(b)];
      for (int64_t step = 0; step < length; ++step) {
        const int64_t t = backwards ? length - 1 - step : step;
        const float* xt = xAt(t, b);
        for (int64_t g = 0; g < 4 * hidden; ++g) {
          double sum = double(bias[g]) + double(bias[4 * hidden + g]);
          for (int64_t k = 0; k < size; ++k) sum += double(w[g * size + k]) * double(xt[k]);
          for (int64_t k = 0; k < hidden; ++k) sum += double(r[g * hidden + k]) * double(h[static_cast<size_t>(k)]);
          gates[static_cast<size_t>(g)] = static_cast<float>(sum);
        }
        float* yt = yAt(t, d, b);
        for (int64_t j = 0; j < hidden; ++j) {
          const size_t u = static_cast<size_t>(j);
          const float cell = c[u];
          const float input = sigmoid(gates[u] + p[j] * cell);
          const float forget = sigmoid(gates[u + 2 * static_cast<size_t>(hidden)] + p[2 * hidden + j] * cell);
          const float candidate = std::tanh(gates[u + 3 * static_cast<size_t>(hidden)]);
          c[u] = forget * cell + input * candidate;
          const float output = sigmoid(gates[u + static_cast<size_t>(hidden)] + p[hidden + j] * c[u]);
          h[u] = output * std::tanh(c[u]);
          yt[j] = h[u];
        }
      }
      std::copy(h.begin(), h.end(), finalH + state);
      std::copy(c.begin(), c.end(), finalC + state);
    }
  }
  return out;
}

} // namespace tessera::interp
