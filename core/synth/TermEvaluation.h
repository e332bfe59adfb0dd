// A synthesis term evaluated by the reference interpreter on given variable values: how a mined
// model pattern is fingerprinted and how a candidate rule's sides are compared on stretched shapes.
#pragma once

#include "ir/Tensor.h"
#include "ir/TensorType.h"
#include "synth/SynthTerm.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace tessera::synth {

struct SynthOp;
struct SynthVocabulary;

struct EvaluatedTerm {
  Tensor value;
  std::vector<int64_t> concatSizes; // the first concat of the term: how a split of it is sized
};

// The value of a variable (called once per occurrence; may cache).
using VariableValues = std::function<Tensor(int variable)>;

// How a split below an op is sized: a TENSAT concat's operand sizes on its axis, or else the
// first operand's that has them (`operandSizes`, one per operand).
std::vector<int64_t> concatSizesAfter(const SynthOp& op, std::span<const TensorType> operands,
                                      std::span<const std::vector<int64_t>> operandSizes);

// nullopt when the term does not type-check on these values or an op fails on them.
std::optional<EvaluatedTerm> evaluateTerm(const Term& term, const SynthVocabulary& vocabulary, const VariableValues& values);

} // namespace tessera::synth
