// One entry point over all extractors, chosen by name ("tree", "ocf", "dag", "ilp"): what the CLI
// and the search strategies call.
#pragma once

#include "extract/Extraction.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::extract {

enum class ExtractionMethod {
  Tree,       // egg's greedy tree cost
  SharedCost, // PACT'24 greedy ("ocf")
  DagGreedy,  // greedy on exact DAG cost
  Ilp,        // exact, CBC
};

std::optional<ExtractionMethod> parseExtractionMethod(std::string_view name);
std::string_view extractionMethodName(ExtractionMethod method);
// Every method's name, in the order above: what option checks and menus offer.
std::vector<std::string> extractionMethodNames();

struct ExtractOptions {
  double timeLimitSeconds = 0; // ILP only; <= 0 means no limit
  bool ilpPresolve = true;     // ILP only; see IlpOptions::presolve
};

// Throws tessera::Error for a malformed problem or one whose roots have no acyclic term.
Extraction extract(const ExtractionProblem& problem, ExtractionMethod method, const ExtractOptions& options = {});

} // namespace tessera::extract
