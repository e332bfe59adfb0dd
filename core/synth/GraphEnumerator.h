// TASO's graph enumeration: every graph of up to N ops of the vocabulary over the variables (depth-
// first, each op's output computed once when it is pushed), each recorded with a fingerprint of its
// outputs (the op outputs no other op consumes; one or two of them) on fixed random inputs.
//
// Fingerprints are float projections compared within a tolerance, not TASO's integers modulo a
// prime: the vocabulary holds relu, tanh, erf, softmax and divisions, which have no exact integer
// stand-in (TASO replaced relu by the polynomial x(x+1)+1 and so could never find that relu is
// idempotent), and float32 regrouping (associativity of matmul, sums reordered) moves equal graphs
// by rounding, so hashing rounded values would split them at rounding boundaries. A fingerprint is
// three fixed random projections per output; graphs are grouped by sorting on the first and
// sweeping with a tolerance, then comparing all projections. A false match costs only a refused
// verification; a missed one costs a rule.
#pragma once

#include "ir/Tensor.h"
#include "ir/TensorType.h"
#include "synth/SynthTerm.h"
#include "synth/SynthVocabulary.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera::synth {

constexpr int kMaxSynthOps = 8;
constexpr int kProjections = 3;

// One enumerated graph, compact (millions are kept): value ids 0..V-1 are the variables, then
// each op's outputs in push order.
struct EnumeratedGraph {
  struct OpUse {
    uint16_t op = 0;
    std::array<uint8_t, 2> inputs{};
  };
  std::array<OpUse, kMaxSynthOps> ops{};
  std::array<uint8_t, 2> outputs{}; // value ids, in fingerprint order
  uint8_t opCount = 0;
  uint8_t outputCount = 0;
  bool hasSplit = false;
  uint64_t typeKey = 0; // the output types
  float scale = 0;      // sum of |output| over all outputs: the tolerance's yardstick
  std::array<double, 2 * kProjections> projections{};
};

struct EnumerationLimits {
  int maxOps = 3;
  uint64_t maxGraphs = 20'000'000;   // graphs visited
  double timeLimitSeconds = 900;
  uint64_t maxMemoryBytes = uint64_t{1} << 30; // fingerprint records kept
  double fingerprintLow = -1, fingerprintHigh = 1; // the random inputs' range
  uint64_t seed = 1;
  // When not empty: only these variables are inputs, each in any order (no renaming pruning):
  // the right-hand sides for left-hand sides over exactly these variables.
  std::vector<int> onlyVariables;
  std::vector<int> onlyOps; // when not empty: only these vocabulary ops
};

struct EnumerationResult {
  std::vector<EnumeratedGraph> graphs; // fingerprinted (1 or 2 outputs, finite values)
  uint64_t visited = 0;                // graphs enumerated (every op sequence pushed)
  uint64_t nonFinite = 0;              // dropped: an output held NaN or infinity
  uint64_t redundant = 0;              // graphs with a value equal to another one: recorded, not extended
  std::string stopReason;              // empty when enumeration completed
  double seconds = 0;
};

using EnumerationProgress = std::function<void(const EnumerationResult& sofar)>;

EnumerationResult enumerateGraphs(const SynthVocabulary& vocabulary, const EnumerationLimits& limits,
                                  const EnumerationProgress& progress = {});

// The output terms of a recorded graph, in its fingerprint order.
std::vector<Term> outputTerms(const EnumeratedGraph& graph, const SynthVocabulary& vocabulary);

// The fingerprint of a single value (a graph of one output with no ops), computed as the
// enumeration computes its graphs' on the same variable values: a mined pattern's, to look up.
EnumeratedGraph fingerprintOf(const Tensor& output);

// Looks up the enumerated graphs whose fingerprint agrees with a probe's within tolerance.
class FingerprintIndex {
public:
  explicit FingerprintIndex(const std::vector<EnumeratedGraph>& graphs);
  std::vector<uint32_t> matches(const EnumeratedGraph& probe) const;

private:
  const std::vector<EnumeratedGraph>& graphs_;
  std::vector<uint32_t> order_; // by (type key, output count, first projection)
};

// Groups of graphs whose fingerprints agree within tolerance (indices into `graphs`); only groups
// of two or more are returned.
std::vector<std::vector<uint32_t>> groupByFingerprint(const std::vector<EnumeratedGraph>& graphs);

} // namespace tessera::synth
