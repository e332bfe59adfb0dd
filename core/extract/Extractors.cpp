// Dispatch from a method name to its extractor.
#include "extract/Extractors.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/IlpExtractor.h"
#include "extract/SharedCostExtractor.h"
#include "extract/TreeExtractor.h"

namespace tessera::extract {

std::optional<ExtractionMethod> parseExtractionMethod(std::string_view name) {
  if (name == "tree") return ExtractionMethod::Tree;
  if (name == "ocf") return ExtractionMethod::SharedCost;
  if (name == "dag") return ExtractionMethod::DagGreedy;
  if (name == "ilp") return ExtractionMethod::Ilp;
  return std::nullopt;
}

std::string_view extractionMethodName(ExtractionMethod method) {
  switch (method) {
  case ExtractionMethod::Tree: return "tree";
  case ExtractionMethod::SharedCost: return "ocf";
  case ExtractionMethod::DagGreedy: return "dag";
  case ExtractionMethod::Ilp: return "ilp";
  }
  return "unknown";
}

std::vector<std::string> extractionMethodNames() {
  std::vector<std::string> names;
  for (ExtractionMethod method : {ExtractionMethod::Tree, ExtractionMethod::SharedCost, ExtractionMethod::DagGreedy, ExtractionMethod::Ilp})
    names.emplace_back(extractionMethodName(method));
  return names;
}

Extraction extract(const ExtractionProblem& problem, ExtractionMethod method, const ExtractOptions& options) {
  switch (method) {
  case ExtractionMethod::Tree: return extractTree(problem);
  case ExtractionMethod::SharedCost: return extractSharedCost(problem);
  case ExtractionMethod::DagGreedy: return extractDagGreedy(problem);
  case ExtractionMethod::Ilp: return extractIlp(problem, IlpOptions{options.timeLimitSeconds, true, options.ilpPresolve});
  }
  return extractDagGreedy(problem);
}

} // namespace tessera::extract
