// BERT as TASO benchmarks it: 8 self-attention layers over a [batch*seq, hidden] activation with
// no softmax, no layer norm and no feed-forward block (TASO examples/bert.py, batch 16).
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

constexpr int64_t kBatch = 16;
constexpr int64_t kSequence = 64;
constexpr int64_t kHidden = 1024;
constexpr int64_t kHeads = 16;
constexpr int64_t kHeadSize = kHidden / kHeads;
constexpr int kLayers = 8;

// A layer's splat weights make it map an input whose 64-row batch has row means m_s to
// beta * S^2 * m_s (S = sum of the m_s), a cubic map of the batch's scale. With 1/fan_in for Q, K
// and V and the linear weight below, the last batch of the dummy input arange(n)/n (S = 62) is a
// fixed point: no value overflows through 8 layers, the lower batches fade towards zero.
constexpr double kDummyLastBatchRowMeanSum = 62.0;
constexpr double kLinearWeight = 1.0 / (kDummyLastBatchRowMeanSum * kDummyLastBatchRowMeanSum * kHidden);

// One attention layer: Q, K, V projections, split into heads, the two batched matmuls of
// attention (K is not transposed, as in TASO's graph; with head size = sequence the shapes agree),
// heads merged back and a final linear projection whose result feeds the next layer.
// (TASO's Python example projects the layer's input instead and drops the attention result;
// TENSAT does the same but keeps the result alive through noop nodes. Here, as in TASO's C++
// example, the projection of the attention result is the layer's output.)
ValueRef attentionLayer(ModelBuilder& b, const std::string& prefix, ValueRef x) {
  const Shape headsShape{kBatch, kSequence, kHeads, kHeadSize};
  const std::vector<int64_t> swapSequenceAndHeads{0, 2, 1, 3};
  auto heads = [&](const char* which) {
    std::string name = prefix + "." + which;
    ValueRef projected = b.linear(name, x, kHidden);
    ValueRef split = b.reshape(name + ".reshape", projected, headsShape);
    return b.transpose(name + ".transpose", split, swapSequenceAndHeads);
  };
  ValueRef q = heads("query");
  ValueRef k = heads("key");
  ValueRef v = heads("value");
  ValueRef logits = b.matmul(prefix + ".logits", q, k);
  ValueRef attended = b.matmul(prefix + ".attended", logits, v);
  ValueRef merged = b.transpose(prefix + ".merge.transpose", attended, swapSequenceAndHeads);
  ValueRef flat = b.reshape(prefix + ".merge.reshape", merged, {kBatch * kSequence, kHidden});
  return b.linear(prefix + ".output", flat, kHidden, kLinearWeight);
}

} // namespace

Graph buildBert() {
  ModelBuilder b("bert");
  ValueRef t = b.relu("input.relu", b.input("input", {kBatch * kSequence, kHidden}));
  for (int layer = 0; layer < kLayers; ++layer) t = attentionLayer(b, "layer" + std::to_string(layer), t);
  b.output(t, "output");
  return b.finish();
}

} // namespace tessera::samples
