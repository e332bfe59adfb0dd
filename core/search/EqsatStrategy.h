// TENSAT's optimiser behind the Strategy interface: seed an e-graph with the model, saturate it
// with the rules under limits (one step per iteration), extract the cheapest graph. Scheduling is
// egg's default BackoffScheduler (parameters backoff_match_limit = 1000, backoff_ban_length = 5;
// 0 turns it off) with a cap of match_limit = 20,000 matches per rule and iteration; multi-pattern
// rules run outside both (Runner.h), in k_multi iterations after the single-pattern fixpoint
// (multi_schedule=late) or first (multi_schedule=first). Before each multi-pattern round after the
// first, the graph extracted then is a candidate too: the round's merges can close cycles whose
// filtering drops e-nodes that graph needed. `tensat=1` is TENSAT's own run: first, no match cap,
// backoff as egg's default, one extraction at the end.
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
