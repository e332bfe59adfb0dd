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
  if (op.kind == OpKind::Concat && op.tensat)
    out.concatSizes = {types[0].shape[op.axis], types[1].shape[op.axis]};
  else
    for (const EvaluatedTerm& arg : args)
      if (out.concatSizes.empty()) out.concatSizes = arg.concatSizes;
  return out;
}

} // namespace tessera::synth
