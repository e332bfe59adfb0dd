// The protocol every strategy follows with the person watching it, in one place, so that views,
// sessions and replays see the same order of events from any search:
//   Started; then per step: the user's decisions (stamped with the step), Paused ... Resumed while
//   paused; each candidate as CandidateExtracted, followed by BestCostChanged when it is cheaper
//   than the best so far; finally the best settled (never costlier than the original) and
//   Finished or Stopped with the stop reason.
#pragma once

#include "rewrite/StopReason.h"
#include "search/Strategy.h"

namespace tessera {

class RunProtocol {
public:
  // `result` is the strategy's result being filled; it must outlive the protocol.
  RunProtocol(const SearchInput& input, SearchResult& result) : input_(input), result_(result) {}

  // Prices the original into result.originalCostMs and publishes Started.
  void start();
  // Between steps: records decisions, blocks while paused, and says whether to go on (false: the
  // person stopped the run).
  bool beforeStep(int step);
  // Appends the candidate to the result and announces it; returns its index.
  int addCandidate(Candidate candidate);
  // The cost to beat: the best candidate's, or the original's.
  double bestCostMs() const;
  // Sets the stop reason, settles the best graph and publishes Finished (Stopped when the person
  // stopped it).
  void finish(StopReason reason);

private:
  void recordDecisions(int step);

  const SearchInput& input_;
  SearchResult& result_;
};

} // namespace tessera
