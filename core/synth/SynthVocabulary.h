// What rule synthesis enumerates over (TASO's generator, issue #32): the op variants (an op with
// fixed attribute values, as TASO's Conv3x3S, Concat_1, Transpose_10) and the input variables of a
// few shapes. Built from an explicit list of op names (TENSAT's `ewadd`, `matmul`, `conv2d`, ... or
// IR names such as `Transpose`, `Softmax`) or from the ops and attribute values of given models.
#pragma once

#include "ir/Attributes.h"
#include "ir/Graph.h"
#include "ir/Op.h"
#include "ir/Tensor.h"
#include "ir/TensorType.h"
#include "synth/SynthTerm.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::synth {

struct SynthOp {
  std::string label;   // shown in progress and origins: "conv2d[s1,same]", "Transpose{perm=[1,0]}"
  std::string dslName; // the op's name in the rule DSL: "ewadd", "Transpose"
  OpKind kind = OpKind::Identity;
  bool tensat = false;       // written in TENSAT's syntax (numbers before the tensors)
  int arity = 1;
  int outputs = 1;           // 2 for split
  bool commutative = false;  // operands enumerated in one order only
  Attributes attrs;          // native ops: the attribute values, written in `{...}`
  int64_t axis = 0;          // tensat concat / split: the axis
  int64_t rank = 0;          // tensat concat: the operands' rank (TENSAT writes it)
  int64_t strideH = 1, strideW = 1, padding = 0; // tensat conv2d (padding SAME=0 VALID=1)
  bool fusedForm = false; // added as what a runtime fuses the models' spellings into (HardSwish, composed transposes)
};

struct SynthVariable {
  std::string prefix; // "x", "w", "b": activations, weights, vectors (names read better)
  TensorType type;
  // A model's scalar constants: `literal` is one value, written `#c` (a division by 8, an epsilon);
  // `scalar` any one-element weight, written `#?s` (the checker draws it away from zero). Ops are
  // never applied to constants alone (that is constant folding, not a rewrite).
  bool scalar = false;
  std::optional<double> literal;

  bool isConstant() const { return scalar || literal.has_value(); }
};

// The values a variable takes when fingerprinted or checked on `shape`: a literal its value, a
// `#?s` scalar one value in [0.5, 2), anything else uniform in [low, high) by (seed, name).
Tensor variableValue(const SynthVariable& variable, const Shape& shape, uint64_t seed, const std::string& name, float low = -1.0f,
                     float high = 1.0f);

// Where a mined pattern occurs: the model, its root node, and per variable id the model's type
// there and whether it is a weight (what the pattern's cost at that site is computed on).
struct ModelSite {
  std::string model;
  std::string node;
  std::map<int, std::pair<TensorType, bool>> variables; // variable id -> (type in the model, is a weight)
};

// A left-hand side taken from the models (--from-model): a tree of ops as it occurs in a model,
// with the model's attribute values, its inputs renamed to synthesis variables.
struct ModelPattern {
  Term term;
  uint64_t occurrences = 0;
  std::map<std::string, uint64_t> perModel; // model -> occurrences
  std::vector<ModelSite> sites;             // the first few
};

struct MiningCounts {
  uint64_t trees = 0;       // trees of up to N ops rooted at model nodes
  uint64_t unmapped = 0;    // an input with no synthesis variable to stand for it (rank, too many of one shape)
  uint64_t weightsOnly = 0; // every input a weight: constant folding, not a rewrite
  uint64_t distinct = 0;    // distinct patterns after renaming
  std::map<std::string, uint64_t> perModel; // model -> distinct patterns it holds
  std::string stopReason;   // the mining budget, when it stopped early
};

struct SynthVocabulary {
  std::vector<SynthOp> ops;
  std::vector<SynthVariable> variables;
  std::vector<std::string> notes; // what a model had that synthesis leaves out, and why
  std::vector<ModelPattern> patterns; // --from-model with mining: the models' own left-hand sides
  MiningCounts mining;
};

struct VocabularyOptions {
  int variablesPerShape = 3; // TASO's generator: x1..x3, w1..w3 of each shape
  int literalsPerModel = 2;  // the models' most used scalar constants written as literals (#8)
  // The models' own trees of up to this many ops become left-hand sides (0: none, TASO's plain
  // enumeration). Their ops join the vocabulary with the models' attributes (native Conv with its
  // kernel, strides, pads and groups, Concat of several inputs), with the fused forms a runtime has
  // for their spellings (HardSwish, HardSigmoid, Gelu, composed transposes) as right-hand sides.
  int mineMaxOps = 0;
  uint64_t maxPatterns = 200'000; // mining budget: distinct patterns kept
};

// An op of the vocabulary in its IR spelling with these attributes and operand count.
SynthOp nativeSynthOp(OpKind kind, Attributes attrs, int arity);

// The index of `op` in the vocabulary (by label), appended when new.
int findOrAddOp(SynthVocabulary& vocabulary, SynthOp op);

// The IR attributes of `op` applied to operands of these types, or nullopt when it does not apply
// (shapes that do not fit, TENSAT's equal-type and equal-rank rules). `splitSizes` sizes a split.
std::optional<Attributes> applicationAttributes(const SynthOp& op, std::span<const TensorType> inputs,
                                                std::span<const int64_t> splitSizes = {});

// The DSL text of `op` applied to already-rendered operands; `port` picks split_0 / split_1.
std::string renderApplication(const SynthOp& op, std::span<const std::string> operands, int port);

// From names as the rule DSL writes them. Throws tessera::Error naming the op for an unknown name,
// an op synthesis cannot enumerate, or one the reference interpreter cannot evaluate.
SynthVocabulary vocabularyFromOps(const std::vector<std::string>& names, const VocabularyOptions& options = {});

// The ops of the models that synthesis supports, with the attribute values and ranks they use;
// `notes` lists what was left out. Throws tessera::Error when no op is left.
SynthVocabulary vocabularyFromModels(std::span<const Graph* const> models, std::span<const std::string> modelNames,
                                     const VocabularyOptions& options = {});

} // namespace tessera::synth
