// PACT'24's published speedups on the paper suite (../shared/reference/README.md, table "PACT'24
// (equality saturation + MCTS)"), printed by `bench` beside Tessera's own numbers.
#pragma once

#include <string_view>

namespace tessera::cli {

// Speedup (orig - opt) / orig * 100, mean of 5 seeds at node limit 2000; seconds per model.
// "Main/final" is the extraction inside the search / at the end.
struct PublishedResult {
  std::string_view model; // Tessera's sample name
  double tensatPct;       // TENSAT's equality saturation
  double ocfIlpPct;       // MCTS, OCF inside, ILP at the end
  double ilpIlpPct;       // MCTS, ILP both
  double tensatSeconds;
  double ocfIlpSeconds;
  double ilpIlpSeconds;
};

// The paper's row for a model of the suite (by sample name: bert, nasnet_a, ...), or nullptr.
const PublishedResult* pact24Result(std::string_view model);

} // namespace tessera::cli
