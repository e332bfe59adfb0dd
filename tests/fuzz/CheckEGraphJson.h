// What an e-graph JSON fuzz input goes through: the egraph-serialize reader (what `tessera-cli
// extract` reads), then the cheap extractors on what it accepts (the ILP needs CBC and time). An
// extraction that succeeds must be a valid choice. Shared by fuzz_egraph_json and tests/extract's
// corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "extract/EGraphJson.h"
#include "extract/Extraction.h"
#include "extract/Extractors.h"
#include "support/Error.h"

#include <string>

namespace tessera::fuzz {

// Empty when the extractor refused cleanly or returned a valid choice.
inline std::string extractionDefect(const extract::ExtractionProblem& problem, extract::ExtractionMethod method) {
  extract::Extraction result;
  try {
    result = extract::extract(problem, method);
  } catch (const Error&) {
    return {}; // no acyclic term
  }
  std::string defect = extract::choiceDefect(problem, result.choice);
  if (defect.empty()) return {};
  return std::string(extract::extractionMethodName(method)) + " extraction is invalid: " + defect;
}

// `source` names the text in errors, which must read "SOURCE: problem".
inline FuzzOutcome checkEGraphJson(const std::string& text, const std::string& source) {
  FuzzOutcome outcome;
  extract::ExtractionProblem problem;
  try {
    problem = extract::parseEGraphJson(text, source);
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(source + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
    return outcome;
  }
  outcome.accepted = true;
  for (extract::ExtractionMethod method :
       {extract::ExtractionMethod::Tree, extract::ExtractionMethod::DagGreedy, extract::ExtractionMethod::SharedCost}) {
    outcome.defect = extractionDefect(problem, method);
    if (!outcome.defect.empty()) break;
  }
  return outcome;
}

} // namespace tessera::fuzz
