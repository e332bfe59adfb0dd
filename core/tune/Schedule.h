// A traced schedule: each call applies a primitive to the loop nest and records the instruction,
// and each sampling call draws its decision from the schedule's RNG. replaySchedule() runs a
// recorded trace again, taking the decisions from it.
#pragma once

#include "tune/LoopNest.h"
#include "tune/Sampling.h"
#include "tune/Trace.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::tune {

class Schedule {
public:
  Schedule(const Compute& compute, uint64_t seed);

  // Sampling: each returns the name of the random variable it defines.
  std::string samplePerfectTile(const std::string& loop, int parts, int64_t maxInnermost);
  std::string sampleCategorical(const std::vector<int64_t>& candidates, const std::vector<double>& weights = {});
  int64_t valueOf(const std::string& variable) const;
  const std::vector<int64_t>& tileOf(const std::string& variable) const;

  // Primitives (tune/Primitives.h), recorded.
  std::vector<std::string> split(const std::string& loop, const std::string& factors);
  void reorder(const std::vector<std::string>& order);
  void cacheWrite(const std::string& loopsOutside);
  void computeEpilogueAt(const std::string& inlineFlag);
  void registerTile(const std::string& loopsOutside);
  void parallel(int64_t maxExtent);
  void vectorize(int64_t maxExtent);
  // vectorLanes: see tune::unroll; 0 (traces written before it existed) counts a vector loop as one step.
  void unroll(const std::string& maxSteps, int64_t vectorLanes = 0);
  void bind(const std::vector<std::string>& loops, LoopAnnotation binding);
  void cacheReadShared(int buffer, int loopsOutside, const std::string& vectorLength);

  // Applies one instruction and appends it. A sampling instruction with a decision keeps it
  // (after checking it fits); one without samples. Throws tessera::Error for an instruction
  // that does not apply (a missing loop or variable, a decision that does not fit).
  void apply(Instruction instruction);

  const LoopNest& nest() const { return nest_; }
  const Trace& trace() const { return trace_; }

private:
  LoopNest nest_;
  Trace trace_;
  Rng rng_;
  std::map<std::string, std::vector<int64_t>> tiles_;
  std::map<std::string, int64_t> values_;
  int nextVariable_ = 0;
};

// Replays `trace` on the compute; decisions come from the trace, and any a sampling instruction
// lacks are drawn with `seed`. Throws tessera::Error when the trace is for another workload or
// does not apply.
Schedule replaySchedule(const Compute& compute, const Trace& trace, uint64_t seed = 0);

} // namespace tessera::tune
