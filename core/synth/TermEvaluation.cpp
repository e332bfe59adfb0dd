#include "synth/TermEvaluation.h"

#include "interp/Interpreter.h"
#include "ir/ShapeInference.h"
#include "support/Error.h"
#include "synth/SynthVocabulary.h"

namespace tessera::synth {

std::optional<EvaluatedTerm> evaluateTerm(const Term& term, const SynthVocabulary& vocabulary, const VariableValues& values) {
  if (term.isVariable()) return EvaluatedTerm{values(term.variable), {}};
  const SynthOp& op = vocabulary.ops[term.op];
  std::vector<EvaluatedTerm> args;
  for (const Term& arg : term.args) {
    std::optional<EvaluatedTerm> value = evaluateTerm(arg, vocabulary, values);
    if (!value) return std::nullopt;
    args.push_back(std::move(*value));
  }
  std::vector<TensorType> types;
  for (const EvaluatedTerm& arg : args) types.push_back(arg.value.type());
  std::optional<Attributes> attrs = applicationAttributes(op, types, args.empty() ? std::span<const int64_t>{} : args[0].concatSizes);
  if (!attrs) return std::nullopt;
  Node node;
  node.kind = op.kind;
  node.attrs = *attrs;
  node.inputs.resize(args.size());
  EvaluatedTerm out;
  try {
    node.outputTypes = inferOutputTypes(op.kind, node.attrs, types);
    std::vector<const Tensor*> operands;
    for (const EvaluatedTerm& arg : args) operands.push_back(&arg.value);
    out.value = evaluateNode(node, operands).at(static_cast<size_t>(term.port)).materialized();
  } catch (const Error&) {
    return std::nullopt;
  } catch (const std::out_of_range&) {
    return std::nullopt;
  }
  std::vector<std::vector<int64_t>> sizes;
  for (const EvaluatedTerm& arg : args) sizes.push_back(arg.concatSizes);
  out.concatSizes = concatSizesAfter(op, types, sizes);
  return out;
}

std::vector<int64_t> concatSizesAfter(const SynthOp& op, std::span<const TensorType> operands,
                                      std::span<const std::vector<int64_t>> operandSizes) {
  if (op.kind == OpKind::Concat && op.tensat) return {operands[0].shape[op.axis], operands[1].shape[op.axis]};
  for (const std::vector<int64_t>& sizes : operandSizes)
    if (!sizes.empty()) return sizes;
  return {};
}

} // namespace tessera::synth
