// Transformer layers as Hugging Face models exported by torch.onnx write them (opset 14, constant
// folding on): int64 token ids into embedding Gathers, an int64 attention mask turned into an
// additive float mask, LayerNormalization, Softmax over the last axis, and GELU spelled with Erf
// (BERT) or Tanh and Pow (GPT-2). Separate from the nine-model benchmark suite.
#pragma once

#include "ir/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

// bert_base_layer: BERT-base embeddings and one encoder layer (hidden 768, 12 heads, FFN 3072,
// sequence 128). gpt2_block: GPT-2 embeddings, one decoder block with its causal mask, and the
// final LayerNorm (hidden 768, 12 heads, sequence 128).
std::vector<std::string> transformerModelNames();
// Throws tessera::Error naming the model and the known names when `name` is not one of them.
Graph buildTransformerModel(std::string_view name);
// Writes <dir>/<name>.onnx for both; the directory must exist.
void writeTransformerModels(const std::string& dir);

} // namespace tessera
