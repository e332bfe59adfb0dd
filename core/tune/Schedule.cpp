// Recording and replaying schedule instructions.
#include "tune/Schedule.h"

#include "tune/Primitives.h"

#include "support/Error.h"

namespace tessera::tune {

namespace {

[[noreturn]] void fail(const Instruction& instruction, const std::string& problem) {
  throw Error(std::string("trace: ") + instructionName(instruction.kind) + ": " + problem);
}

void expectArity(const Instruction& instruction, size_t loops, size_t inputs, size_t attrs) {
  if (instruction.loops.size() != loops || instruction.inputs.size() != inputs || instruction.attrs.size() < attrs)
    fail(instruction, "expects " + std::to_string(loops) + " loop(s), " + std::to_string(inputs) + " variable(s) and " +
                          std::to_string(attrs) + " attribute(s)");
}

} // namespace

Schedule::Schedule(const Compute& compute, uint64_t seed) : nest_(initialNest(compute)), rng_(seed) {
  trace_.workload = compute.workload.key();
}

int64_t Schedule::valueOf(const std::string& variable) const {
  auto found = values_.find(variable);
  if (found == values_.end()) throw Error("trace: no categorical variable '" + variable + "'");
  return found->second;
}

const std::vector<int64_t>& Schedule::tileOf(const std::string& variable) const {
  auto found = tiles_.find(variable);
  if (found == tiles_.end()) throw Error("trace: no tile variable '" + variable + "'");
  return found->second;
}

std::string Schedule::samplePerfectTile(const std::string& loop, int parts, int64_t maxInnermost) {
  apply({InstructionKind::SamplePerfectTile, {loop}, {}, {parts, maxInnermost}, {}, "v" + std::to_string(nextVariable_), {}});
  return trace_.instructions.back().output;
}

std::string Schedule::sampleCategorical(const std::vector<int64_t>& candidates, const std::vector<double>& weights) {
  apply({InstructionKind::SampleCategorical, {}, {}, candidates, weights, "v" + std::to_string(nextVariable_), {}});
  return trace_.instructions.back().output;
}

std::vector<std::string> Schedule::split(const std::string& loop, const std::string& factors) {
  apply({InstructionKind::Split, {loop}, {factors}, {}, {}, {}, {}});
  std::vector<std::string> names;
  for (size_t i = 0; i < tileOf(factors).size(); ++i) names.push_back(loop + "." + std::to_string(i));
  return names;
}

void Schedule::reorder(const std::vector<std::string>& order) { apply({InstructionKind::Reorder, order, {}, {}, {}, {}, {}}); }
void Schedule::cacheWrite(const std::string& loopsOutside) { apply({InstructionKind::CacheWrite, {}, {loopsOutside}, {}, {}, {}, {}}); }
void Schedule::computeEpilogueAt(const std::string& inlineFlag) {
  apply({InstructionKind::ComputeEpilogueAt, {}, {inlineFlag}, {}, {}, {}, {}});
}
void Schedule::registerTile(const std::string& loopsOutside) {
  apply({InstructionKind::RegisterTile, {}, {loopsOutside}, {}, {}, {}, {}});
}
void Schedule::parallel(int64_t maxExtent) { apply({InstructionKind::Parallel, {}, {}, {maxExtent}, {}, {}, {}}); }
void Schedule::vectorize(int64_t maxExtent) { apply({InstructionKind::Vectorize, {}, {}, {maxExtent}, {}, {}, {}}); }
void Schedule::unroll(const std::string& maxSteps, int64_t vectorLanes) {
  std::vector<int64_t> attrs;
  if (vectorLanes > 0) attrs.push_back(vectorLanes);
  apply({InstructionKind::Unroll, {}, {maxSteps}, attrs, {}, {}, {}});
}

void Schedule::bind(const std::vector<std::string>& loops, LoopAnnotation binding) {
  const int64_t axis = binding == LoopAnnotation::BlockIdx ? 0 : binding == LoopAnnotation::VThread ? 1 : 2;
  apply({InstructionKind::Bind, loops, {}, {axis}, {}, {}, {}});
}
void Schedule::cacheReadShared(int buffer, int loopsOutside, const std::string& vectorLength) {
  apply({InstructionKind::CacheReadShared, {}, {vectorLength}, {buffer, loopsOutside}, {}, {}, {}});
}

void Schedule::apply(Instruction instruction) {
  switch (instruction.kind) {
  case InstructionKind::SamplePerfectTile: {
    expectArity(instruction, 1, 0, 2);
    const Loop& loop = nest_.loops[nest_.loopIndex(instruction.loops[0])];
    const int64_t parts = instruction.attrs[0], maxInnermost = instruction.attrs[1];
    if (parts < 1 || parts > 8) fail(instruction, "parts " + std::to_string(parts) + " outside [1, 8]");
    if (instruction.decision.empty()) {
      instruction.decision = tune::samplePerfectTile(rng_, loop.extent, static_cast<int>(parts), maxInnermost);
    } else {
      int64_t product = 1;
      for (int64_t f : instruction.decision) {
        // A factor below 1, or one past what is left of the extent, cannot tile it (nor overflow the product).
        if (f < 1 || product > loop.extent / f) {
          product = 0;
          break;
        }
        product *= f;
      }
      if (static_cast<int64_t>(instruction.decision.size()) != parts || product != loop.extent)
        fail(instruction, "decision does not tile " + loop.name + " (extent " + std::to_string(loop.extent) + ") in " +
                              std::to_string(parts) + " parts");
    }
    tiles_[instruction.output] = instruction.decision;
    break;
  }
  case InstructionKind::SampleCategorical: {
    if (instruction.attrs.empty()) fail(instruction, "no candidates");
    if (instruction.decision.empty())
      instruction.decision = {tune::sampleCategorical(rng_, instruction.attrs.size(), instruction.weights)};
    if (instruction.decision.size() != 1 || instruction.decision[0] < 0 ||
        instruction.decision[0] >= static_cast<int64_t>(instruction.attrs.size()))
      fail(instruction, "decision is not one index among " + std::to_string(instruction.attrs.size()) + " candidates");
    values_[instruction.output] = instruction.attrs[instruction.decision[0]];
    break;
  }
  case InstructionKind::Split:
    expectArity(instruction, 1, 1, 0);
    tune::split(nest_, instruction.loops[0], tileOf(instruction.inputs[0]));
    break;
  case InstructionKind::Reorder: tune::reorder(nest_, instruction.loops); break;
  case InstructionKind::CacheWrite:
    expectArity(instruction, 0, 1, 0);
    tune::cacheWrite(nest_, static_cast<int>(valueOf(instruction.inputs[0])));
    break;
  case InstructionKind::ComputeEpilogueAt:
    expectArity(instruction, 0, 1, 0);
    tune::computeEpilogueAt(nest_, valueOf(instruction.inputs[0]) != 0 ? EpiloguePlacement::Inline : EpiloguePlacement::Root);
    break;
  case InstructionKind::RegisterTile:
    expectArity(instruction, 0, 1, 0);
    tune::registerTile(nest_, static_cast<int>(valueOf(instruction.inputs[0])));
    break;
  case InstructionKind::Parallel:
    expectArity(instruction, 0, 0, 1);
    tune::parallelize(nest_, instruction.attrs[0]);
    break;
  case InstructionKind::Vectorize:
    expectArity(instruction, 0, 0, 1);
    tune::vectorize(nest_, instruction.attrs[0]);
    break;
  case InstructionKind::Unroll:
    expectArity(instruction, 0, 1, 0);
    if (instruction.attrs.size() > 1 || (!instruction.attrs.empty() && instruction.attrs[0] < 1))
      fail(instruction, "expects at most one attribute, the vector lanes (at least 1)");
    tune::unroll(nest_, valueOf(instruction.inputs[0]), instruction.attrs.empty() ? 0 : instruction.attrs[0]);
    break;
  case InstructionKind::Bind: {
    if (instruction.loops.empty() || instruction.attrs.size() != 1 || instruction.attrs[0] < 0 || instruction.attrs[0] > 2)
      fail(instruction, "expects loops and one thread axis (0 blockIdx.x, 1 vthread.x, 2 threadIdx.x)");
    const LoopAnnotation binding = instruction.attrs[0] == 0   ? LoopAnnotation::BlockIdx
                                   : instruction.attrs[0] == 1 ? LoopAnnotation::VThread
                                                               : LoopAnnotation::ThreadIdx;
    for (const std::string& loop : instruction.loops) tune::bind(nest_, loop, binding);
    break;
  }
  case InstructionKind::CacheReadShared:
    expectArity(instruction, 0, 1, 2);
    tune::cacheReadShared(nest_, static_cast<int>(instruction.attrs[0]), static_cast<int>(instruction.attrs[1]),
                          valueOf(instruction.inputs[0]));
    break;
  }
  if (instruction.isSampling()) {
    if (instruction.output.empty()) fail(instruction, "defines no variable");
    ++nextVariable_;
  }
  trace_.instructions.push_back(std::move(instruction));
}

Schedule replaySchedule(const Compute& compute, const Trace& trace, uint64_t seed) {
  if (trace.workload != compute.workload.key())
    throw Error("trace: recorded for '" + trace.workload + "', not '" + compute.workload.key() + "'");
  Schedule schedule(compute, seed);
  for (const Instruction& instruction : trace.instructions) schedule.apply(instruction);
  return schedule;
}

} // namespace tessera::tune
