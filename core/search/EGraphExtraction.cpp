#include "search/EGraphExtraction.h"

#include "extract/Extractors.h"
#include "support/Error.h"

#include <algorithm>
#include <chrono>

namespace tessera {

double ENodeCoster::cost(const EGraph& egraph, EClassId eclass, const ENode& node) {
  if (node.isLeaf()) return 0.0;
  const EClassData& data = egraph.data(eclass);
  if (data.allWeights && node.op != OpKind::Opaque) return 0.0;
  OpSignature signature;
  signature.kind = node.op;
  for (EClassId child : node.children) signature.inputs.push_back(egraph.data(child).type);
  if (node.op == OpKind::Opaque) {
    const Node& opaque = egraph.leaf(node.payload).node;
    signature.outputs = opaque.outputTypes;
    signature.attrs.set("op_type", opaque.opaque->opType);
  } else {
    signature.outputs = {data.type};
    signature.attrs = egraph.attributes().get(node.payload);
  }
  std::string key = signature.key();
  auto it = costs_.find(key);
  if (it != costs_.end()) return it->second;
  double ms = model_.costMs(signature);
  costs_.emplace(std::move(key), ms);
  return ms;
}

EGraphProblem toExtractionProblem(const EGraph& egraph, std::span<const EClassId> roots, ENodeCoster& coster) {
  // Viable classes have a kept (unfiltered) node whose children are all viable: a fixpoint from
  // the leaves up. Only viable nodes can be part of an extraction.
  std::vector<EClassId> ids = egraph.classIds();
  std::unordered_map<EClassId, bool> viable;
  for (EClassId id : ids) viable[id] = false;
  auto nodeViable = [&](const ENode& node) {
    if (egraph.isFiltered(node)) return false;
    for (EClassId child : node.children)
      if (!viable[egraph.find(child)]) return false;
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (EClassId id : ids) {
      if (viable[id]) continue;
      const auto& nodes = egraph.eclass(id).nodes;
      if (std::any_of(nodes.begin(), nodes.end(), nodeViable)) viable[id] = changed = true;
    }
  }

  EGraphProblem result;
  std::unordered_map<EClassId, uint32_t> index;
  auto classIndex = [&](EClassId id) {
    id = egraph.find(id);
    auto [it, inserted] = index.try_emplace(id, static_cast<uint32_t>(result.classOf.size()));
    if (inserted) result.classOf.push_back(id);
    return it->second;
  };
  for (EClassId root : roots) {
    if (!viable[egraph.find(root)]) throw Error("e-class " + std::to_string(root) + " of a graph output has no extractable term");
    result.problem.roots.push_back(classIndex(root));
  }
  // Breadth over reachable classes; nodes reference child classes by their problem index.
  for (size_t next = 0; next < result.classOf.size(); ++next) {
    EClassId id = result.classOf[next];
    auto problemClass = static_cast<uint32_t>(next);
    for (const ENode& node : egraph.eclass(id).nodes) {
      if (!nodeViable(node)) continue;
      extract::ExtractionNode pnode;
      pnode.op = std::string(opName(node.op));
      pnode.eclass = problemClass;
      pnode.cost = coster.cost(egraph, id, node);
      for (EClassId child : node.children) pnode.children.push_back(classIndex(child));
      result.problem.nodes.push_back(std::move(pnode));
      result.nodeOf.push_back(&node);
    }
  }
  extract::indexClasses(result.problem);
  return result;
}

Graph graphFromProblemChoice(const EGraph& egraph, const SeededGraph& seed, const EGraphProblem& converted,
                             const std::vector<int32_t>& choice, std::vector<ENode>* sources) {
  std::unordered_map<EClassId, const ENode*> chosen;
  for (size_t c = 0; c < choice.size(); ++c)
    if (choice[c] >= 0) chosen[converted.classOf[c]] = converted.nodeOf[static_cast<size_t>(choice[c])];
  return graphFromChoice(egraph, seed, [&](EClassId id) -> const ENode* {
    auto it = chosen.find(egraph.find(id));
    return it == chosen.end() ? nullptr : it->second;
  }, sources);
}

ExtractedGraph extractGraph(const EGraph& egraph, const SeededGraph& seed, ENodeCoster& coster, const std::string& method,
                            double ilpTimeLimitSeconds) {
  auto start = std::chrono::steady_clock::now();
  EGraphProblem converted = toExtractionProblem(egraph, seed.outputs, coster);
  std::optional<extract::ExtractionMethod> parsed = extract::parseExtractionMethod(method);
  if (!parsed) throw Error("unknown extraction method '" + method + "' (use tree, ocf, dag or ilp)");
  extract::ExtractOptions options;
  options.timeLimitSeconds = ilpTimeLimitSeconds;
  extract::Extraction extraction = extract::extract(converted.problem, *parsed, options);

  ExtractedGraph result;
  result.graph = graphFromProblemChoice(egraph, seed, converted, extraction.choice, &result.sources);
  result.dagCostMs = extraction.dagCost;
  result.method = method;
  result.provenOptimal = extraction.provenOptimal;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace tessera
