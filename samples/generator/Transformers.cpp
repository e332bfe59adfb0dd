// BERT-base and GPT-2 layers in the form of their torch.onnx exports. Weights are splats (the
// light-model convention of the other samples); the constant integer tensors an export folds
// (position ids, GPT-2's causal mask slice) are real values.
#include "generator/Transformers.h"

#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>

namespace tessera {

namespace {

constexpr int64_t kSequence = 128;
constexpr int64_t kHidden = 768;
constexpr int64_t kHeads = 12;
constexpr int64_t kHeadSize = kHidden / kHeads;
constexpr int64_t kFeedForward = 3072;

// Graph construction with the names an export gives: one helper per op, weights by name.
class LayerWriter {
public:
  explicit LayerWriter(std::string modelName) { graph_.info.name = std::move(modelName); graph_.info.opset = 14; }

  ValueRef input(const std::string& name, DType type) { return {graph_.addInput(name, {type, {1, kSequence}}), 0}; }
  ValueRef weight(const std::string& name, Shape shape, double value) {
    return {graph_.addWeight(name, Tensor::splat({DType::Float32, std::move(shape)}, value)), 0};
  }
  ValueRef scalar(const std::string& name, double value) { return weight(name, {}, value); }
  ValueRef constant(const std::string& name, Tensor value) { return {graph_.addWeight(name, std::move(value)), 0}; }
  ValueRef op(OpKind kind, const std::string& name, std::vector<ValueRef> inputs, Attributes attrs = {}) {
    return {graph_.addNode(kind, std::move(inputs), std::move(attrs), name), 0};
  }

  // nn.Linear / Conv1D: MatMul by a [in, out] weight, then Add of the bias.
  ValueRef linear(const std::string& name, ValueRef x, int64_t in, int64_t out) {
    ValueRef product = op(OpKind::MatMul, name + "/MatMul", {x, weight(name + ".weight", {in, out}, 1.0 / static_cast<double>(in))});
    return op(OpKind::Add, name + "/Add", {product, weight(name + ".bias", {out}, 0.0)});
  }
  ValueRef layerNorm(const std::string& name, ValueRef x, float epsilon) {
    return op(OpKind::LayerNorm, name, {x, weight(name + ".weight", {kHidden}, 1.0), weight(name + ".bias", {kHidden}, 0.0)},
              {{"axis", int64_t{-1}}, {"epsilon", epsilon}});
  }
  // [1, S, H] -> [1, heads, S, headSize], or [1, heads, headSize, S] for keys.
  ValueRef splitHeads(const std::string& name, ValueRef x, bool keys) {
    ValueRef reshaped = op(OpKind::Reshape, name + "/Reshape", {x}, {{"shape", Shape{1, kSequence, kHeads, kHeadSize}}});
    return op(OpKind::Transpose, name + "/Transpose", {reshaped}, {{"perm", keys ? Shape{0, 2, 3, 1} : Shape{0, 2, 1, 3}}});
  }
  ValueRef mergeHeads(const std::string& name, ValueRef x) {
    ValueRef transposed = op(OpKind::Transpose, name + "/Transpose", {x}, {{"perm", Shape{0, 2, 1, 3}}});
    return op(OpKind::Reshape, name + "/Reshape", {transposed}, {{"shape", Shape{1, kSequence, kHidden}}});
  }
  // get_extended_attention_mask: (1 - mask[:, None, None, :].float()) * finfo(float32).min.
  ValueRef additiveMask(ValueRef mask) {
    ValueRef unsqueezed = op(OpKind::Unsqueeze, "/Unsqueeze_mask", {mask}, {{"axes", Shape{1, 2}}});
    ValueRef floats = op(OpKind::Cast, "/Cast_mask", {unsqueezed}, {{"to", std::string("f32")}});
    ValueRef inverted = op(OpKind::Sub, "/Sub_mask", {scalar("/Constant_one", 1.0), floats});
    return op(OpKind::Mul, "/Mul_mask", {inverted, scalar("/Constant_min", std::numeric_limits<float>::lowest())});
  }
  void output(ValueRef value, const std::string& name) { graph_.addOutput(value, name); }
  Graph finish() { return std::move(graph_); }

private:
  Graph graph_;
};

Tensor positionIds() {
  std::vector<int64_t> ids(kSequence);
  for (int64_t i = 0; i < kSequence; ++i) ids[static_cast<size_t>(i)] = i;
  return Tensor::fromInts({DType::Int64, {1, kSequence}}, std::move(ids));
}

Graph buildBertBaseLayer() {
  LayerWriter w("bert_base_layer");
  ValueRef ids = w.input("input_ids", DType::Int64);
  ValueRef mask = w.input("attention_mask", DType::Int64);
  ValueRef types = w.input("token_type_ids", DType::Int64);

  const std::string e = "bert.embeddings";
  ValueRef words = w.op(OpKind::Gather, e + ".word_embeddings/Gather", {w.weight(e + ".word_embeddings.weight", {30522, kHidden}, 0.02), ids});
  ValueRef typed = w.op(OpKind::Gather, e + ".token_type_embeddings/Gather", {w.weight(e + ".token_type_embeddings.weight", {2, kHidden}, 0.02), types});
  ValueRef positions = w.op(OpKind::Gather, e + ".position_embeddings/Gather",
                            {w.weight(e + ".position_embeddings.weight", {512, kHidden}, 0.02), w.constant(e + ".position_ids", positionIds())});
  ValueRef sum = w.op(OpKind::Add, e + "/Add_1", {w.op(OpKind::Add, e + "/Add", {words, typed}), positions});
  ValueRef hidden = w.layerNorm(e + ".LayerNorm", sum, 1e-12f);
  ValueRef additive = w.additiveMask(mask);

  const std::string a = "bert.encoder.layer.0.attention";
  ValueRef q = w.splitHeads(a + ".self.query", w.linear(a + ".self.query", hidden, kHidden, kHidden), false);
  ValueRef k = w.splitHeads(a + ".self.key", w.linear(a + ".self.key", hidden, kHidden, kHidden), true);
  ValueRef v = w.splitHeads(a + ".self.value", w.linear(a + ".self.value", hidden, kHidden, kHidden), false);
  ValueRef scores = w.op(OpKind::Div, a + ".self/Div", {w.op(OpKind::MatMul, a + ".self/MatMul", {q, k}), w.scalar(a + ".self/Constant_scale", 8.0)});
  ValueRef masked = w.op(OpKind::Add, a + ".self/Add", {scores, additive});
  ValueRef probs = w.op(OpKind::Softmax, a + ".self/Softmax", {masked}, {{"axis", int64_t{-1}}});
  ValueRef context = w.mergeHeads(a + ".self", w.op(OpKind::MatMul, a + ".self/MatMul_1", {probs, v}));
  ValueRef attended = w.op(OpKind::Add, a + ".output/Add", {w.linear(a + ".output.dense", context, kHidden, kHidden), hidden});
  ValueRef normed = w.layerNorm(a + ".output.LayerNorm", attended, 1e-12f);

  // Feed-forward with GELU as torch exports it: x * 0.5 * (1 + erf(x / sqrt(2))).
  const std::string f = "bert.encoder.layer.0";
  ValueRef inner = w.linear(f + ".intermediate.dense", normed, kHidden, kFeedForward);
  ValueRef erf = w.op(OpKind::Erf, f + ".intermediate/Erf", {w.op(OpKind::Div, f + ".intermediate/Div", {inner, w.scalar(f + ".intermediate/Constant_sqrt2", std::sqrt(2.0))})});
  ValueRef onePlus = w.op(OpKind::Add, f + ".intermediate/Add", {erf, w.scalar(f + ".intermediate/Constant_one", 1.0)});
  ValueRef gelu = w.op(OpKind::Mul, f + ".intermediate/Mul_1", {w.op(OpKind::Mul, f + ".intermediate/Mul", {inner, onePlus}), w.scalar(f + ".intermediate/Constant_half", 0.5)});
  ValueRef out = w.op(OpKind::Add, f + ".output/Add", {w.linear(f + ".output.dense", gelu, kFeedForward, kHidden), normed});
  w.output(w.layerNorm(f + ".output.LayerNorm", out, 1e-12f), "last_hidden_state");
  return w.finish();
}

Graph buildGpt2Block() {
  LayerWriter w("gpt2_block");
  ValueRef ids = w.input("input_ids", DType::Int64);
  ValueRef mask = w.input("attention_mask", DType::Int64);

  ValueRef words = w.op(OpKind::Gather, "transformer.wte/Gather", {w.weight("transformer.wte.weight", {50257, kHidden}, 0.02), ids});
  ValueRef positions = w.op(OpKind::Gather, "transformer.wpe/Gather",
                            {w.weight("transformer.wpe.weight", {1024, kHidden}, 0.01), w.constant("transformer.position_ids", positionIds())});
  ValueRef hidden = w.op(OpKind::Add, "transformer/Add", {words, positions});
  ValueRef additive = w.additiveMask(mask);

  const std::string h = "transformer.h.0";
  ValueRef x = w.layerNorm(h + ".ln_1", hidden, 1e-5f);
  ValueRef qkv = w.linear(h + ".attn.c_attn", x, kHidden, 3 * kHidden);
  ValueRef split = w.op(OpKind::Split, h + ".attn/Split", {qkv}, {{"axis", int64_t{2}}, {"split", Shape{kHidden, kHidden, kHidden}}});
  ValueRef q = w.splitHeads(h + ".attn.query", split, false);
  // split_heads then key.transpose(-1, -2): the exporter fuses the two Transposes into one.
  ValueRef k = w.splitHeads(h + ".attn.key", {split.node, 1}, true);
  ValueRef v = w.splitHeads(h + ".attn.value", {split.node, 2}, false);
  ValueRef scores = w.op(OpKind::Div, h + ".attn/Div", {w.op(OpKind::MatMul, h + ".attn/MatMul", {q, k}), w.scalar(h + ".attn/Constant_scale", 8.0)});
  // The causal mask: the export folds bias[:, :, 0:S, 0:S] of the registered lower-triangular
  // buffer into a Bool constant; masked scores become finfo(float32).min before the padding mask.
  std::vector<int64_t> lower(static_cast<size_t>(kSequence * kSequence));
  for (int64_t r = 0; r < kSequence; ++r)
    for (int64_t c = 0; c < kSequence; ++c) lower[static_cast<size_t>(r * kSequence + c)] = c <= r ? 1 : 0;
  ValueRef causal = w.constant(h + ".attn.bias_slice", Tensor::fromInts({DType::Bool, {1, 1, kSequence, kSequence}}, std::move(lower)));
  ValueRef kept = w.op(OpKind::Where, h + ".attn/Where", {causal, scores, w.scalar(h + ".attn/Constant_min", std::numeric_limits<float>::lowest())});
  ValueRef probs = w.op(OpKind::Softmax, h + ".attn/Softmax", {w.op(OpKind::Add, h + ".attn/Add", {kept, additive})}, {{"axis", int64_t{-1}}});
  ValueRef context = w.mergeHeads(h + ".attn", w.op(OpKind::MatMul, h + ".attn/MatMul_1", {probs, v}));
  ValueRef attended = w.op(OpKind::Add, h + "/Add", {w.linear(h + ".attn.c_proj", context, kHidden, kHidden), hidden});

  // MLP with gelu_new: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
  ValueRef y = w.linear(h + ".mlp.c_fc", w.layerNorm(h + ".ln_2", attended, 1e-5f), kHidden, kFeedForward);
  const std::string m = h + ".mlp.act";
  ValueRef cube = w.op(OpKind::Pow, m + "/Pow", {y, w.scalar(m + "/Constant_three", 3.0)});
  ValueRef inner = w.op(OpKind::Add, m + "/Add", {y, w.op(OpKind::Mul, m + "/Mul_1", {cube, w.scalar(m + "/Constant_coefficient", 0.044715)})});
  ValueRef scaled = w.op(OpKind::Mul, m + "/Mul_2", {inner, w.scalar(m + "/Constant_sqrt_2_over_pi", std::sqrt(2.0 / std::numbers::pi))});
  ValueRef onePlus = w.op(OpKind::Add, m + "/Add_1", {w.op(OpKind::Tanh, m + "/Tanh", {scaled}), w.scalar(m + "/Constant_one", 1.0)});
  ValueRef gelu = w.op(OpKind::Mul, m + "/Mul_3", {w.op(OpKind::Mul, m + "/Mul", {y, w.scalar(m + "/Constant_half", 0.5)}), onePlus});
  ValueRef out = w.op(OpKind::Add, h + "/Add_1", {w.linear(h + ".mlp.c_proj", gelu, kFeedForward, kHidden), attended});
  w.output(w.layerNorm("transformer.ln_f", out, 1e-5f), "last_hidden_state");
  return w.finish();
}

} // namespace

std::vector<std::string> transformerModelNames() { return {"bert_base_layer", "gpt2_block"}; }

Graph buildTransformerModel(std::string_view name) {
  if (name == "bert_base_layer") return buildBertBaseLayer();
  if (name == "gpt2_block") return buildGpt2Block();
  throw Error("unknown transformer model '" + std::string(name) + "' (known: bert_base_layer, gpt2_block)");
}

void writeTransformerModels(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw errorInFile(dir, "not a directory");
  for (const std::string& name : transformerModelNames())
    onnx_io::exportOnnxFile(buildTransformerModel(name), (std::filesystem::path(dir) / (name + ".onnx")).string());
}

} // namespace tessera
