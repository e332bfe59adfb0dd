// TENSAT's optimiser behind the Strategy interface: seed an e-graph with the model, saturate it
// with the rules under limits (one step per iteration), extract the cheapest graph. Scheduling is
// egg's default BackoffScheduler (parameters backoff_match_limit = 1000, backoff_ban_length = 5);
// backoff_match_limit=0 gives TENSAT's simple scheduler, which lets explosive rules (associativity,
// multi-pattern concat rules) fill the node budget before fusions run.
#pragma once

#include "search/Strategy.h"

namespace tessera {

class EqsatStrategy : public Strategy {
public:
  std::string_view name() const override { return "eqsat"; }
  void validate(const SearchOptions& options) const override;
  SearchResult run(const SearchInput& input) override;
};

} // namespace tessera
