// TENSAT's optimiser behind the Strategy interface: seed an e-graph with the model, saturate it
// with the rules under limits (one step per iteration), extract the cheapest graph.
#pragma once

#include "search/Strategy.h"

namespace tessera {

class EqsatStrategy : public Strategy {
public:
  std::string_view name() const override { return "eqsat"; }
  SearchResult run(const SearchInput& input) override;
};

} // namespace tessera
