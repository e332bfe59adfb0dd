// BERT as TENSAT builds it (uwplse/tensat src/bert.rs), the model TENSAT and PACT'24 report on:
// 8 attention layers over a [64, 1024] activation; each layer's input feeds the next through one
// linear layer of its own, and the attention results are kept alive as extra outputs (TENSAT's
// noop nodes) without feeding anything.
#include "generator/ModelBuilder.h"
#include "generator/tensat/TensatModels.h"

namespace tessera::samples {

namespace {

constexpr int64_t kSequence = 64;
constexpr int64_t kHidden = 1024;
constexpr int64_t kHeads = 16;
constexpr int64_t kHeadSize = kHidden / kHeads;
constexpr int kLayers = 8;

struct LayerResult {
  ValueRef nextInput;
  ValueRef attention;
};

// Q, K and V of the layer's input split into heads, the two batched matmuls of attention (K is
// not transposed; with head size = sequence the shapes agree), heads merged back. The layer's
// linear projects its input, not the attention result: that is TENSAT's graph.
LayerResult attentionLayer(ModelBuilder& b, const std::string& prefix, ValueRef x) {
  const Shape headsShape{kSequence, kHeads, kHeadSize};
  const std::vector<int64_t> swapSequenceAndHeads{1, 0, 2};
  // TENSAT creates the three weights, then the three matmuls, then reshapes and transposes.
  ValueRef query = b.linear(prefix + ".query", x, kHidden);
  ValueRef key = b.linear(prefix + ".key", x, kHidden);
  ValueRef value = b.linear(prefix + ".value", x, kHidden);
  ValueRef q = b.reshape(prefix + ".query.reshape", query, headsShape);
  ValueRef k = b.reshape(prefix + ".key.reshape", key, headsShape);
  ValueRef v = b.reshape(prefix + ".value.reshape", value, headsShape);
  q = b.transpose(prefix + ".query.transpose", q, swapSequenceAndHeads);
  k = b.transpose(prefix + ".key.transpose", k, swapSequenceAndHeads);
  v = b.transpose(prefix + ".value.transpose", v, swapSequenceAndHeads);
  ValueRef logits = b.matmul(prefix + ".logits", q, k);
  ValueRef attended = b.matmul(prefix + ".attended", logits, v);
  ValueRef merged = b.transpose(prefix + ".merge.transpose", attended, swapSequenceAndHeads);
  ValueRef attention = b.reshape(prefix + ".merge.reshape", merged, {kSequence, kHidden});
  return {b.linear(prefix + ".linear", x, kHidden), attention};
}

} // namespace

Graph buildTensatBert() {
  ModelBuilder b("bert");
  ValueRef t = b.relu("input.relu", b.input("input", {kSequence, kHidden}));
  std::vector<ValueRef> attentions;
  for (int layer = 0; layer < kLayers; ++layer) {
    LayerResult result = attentionLayer(b, "layer" + std::to_string(layer), t);
    attentions.push_back(result.attention);
    t = result.nextInput;
  }
  // TENSAT's root is noop(noop(... noop(attention0, attention1) ..., attention7), last linear):
  // every attention result and the last layer's linear are outputs.
  for (int layer = 0; layer < kLayers; ++layer)
    b.output(attentions[layer], "attention" + std::to_string(layer));
  b.output(t, "output");
  return b.finish();
}

} // namespace tessera::samples
