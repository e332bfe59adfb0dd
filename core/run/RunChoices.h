// The choices a run offers, in one place for every entry point: the CLI's option checks and help
// texts and the explorer's menus are generated from these lists, never typed again.
#pragma once

#include <string>
#include <vector>

namespace tessera {

struct RunChoice {
  std::string name;
  std::string description; // a line for a menu or a tooltip
};

// strategyNames() (core's four, then the registered ones), each with its line.
std::vector<RunChoice> strategyChoices();

// extract::extractionMethodNames(): tree, ocf, dag, ilp; the choices in menu order, dag (the
// default) first.
std::vector<std::string> extractionMethods();
std::vector<RunChoice> extractionChoices();

// "auto (...), analytic:<h200|a100|v100>, measured:<cpu|cuda|ort>, table:FILE (default auto, or $TESSERA_COST when set)".
std::string costSpecHelp();

// A cost spec as a headline names it: an analytic one says it predicts for its device profile
// ("analytic:h200, a prediction for NVIDIA H200 ..., not a measurement on this machine"); others
// are the spec itself.
std::string costSpecHeadline(const std::string& spec);

// "a, b or c".
std::string listText(const std::vector<std::string>& names, const std::string& last = "or");

} // namespace tessera
