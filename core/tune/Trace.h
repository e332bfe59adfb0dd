// A schedule as data: the instructions that built it and the decisions its sampling
// instructions took. Replaying the instructions with the same decisions rebuilds the same loop
// nest; a mutation changes a decision, never an instruction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::tune {

enum class InstructionKind {
  SamplePerfectTile, // loops[0]; attrs = {parts, maxInnermost}; decision = the factors
  SampleCategorical, // attrs = candidate values; weights; decision = {chosen index}
  Split,             // loops[0]; inputs[0] = a SamplePerfectTile variable
  Reorder,           // loops = the new order
  CacheWrite,        // inputs[0] = loops outside the accumulator (< 0: none)
  ComputeEpilogueAt, // inputs[0] = 1 inline into the write-back, 0 at the root
  RegisterTile,      // inputs[0] = loops outside the register tile (< 0: none)
  Parallel,          // attrs[0] = max collapsed extent
  Vectorize,         // attrs[0] = max vector extent
  Unroll,            // inputs[0] = max unrolled steps
  Bind,              // loops = the loops to bind; attrs[0] = 0 blockIdx.x, 1 vthread.x, 2 threadIdx.x
  CacheReadShared,   // attrs = {buffer (0 lhs, 1 rhs), loops outside}; inputs[0] = vector length
};

const char* instructionName(InstructionKind kind);
std::optional<InstructionKind> instructionKind(std::string_view name);

struct Instruction {
  InstructionKind kind = InstructionKind::Split;
  std::vector<std::string> loops;
  std::vector<std::string> inputs; // random variables read
  std::vector<int64_t> attrs;
  std::vector<double> weights; // SampleCategorical's probabilities (uniform when empty)
  std::string output;          // the random variable a sampling instruction defines
  std::vector<int64_t> decision;

  bool isSampling() const {
    return kind == InstructionKind::SamplePerfectTile || kind == InstructionKind::SampleCategorical;
  }
  friend bool operator==(const Instruction&, const Instruction&) = default;
};

struct Trace {
  std::string workload; // Workload::key()
  std::vector<Instruction> instructions;

  // Indices of the sampling instructions, the decisions a search may change.
  std::vector<size_t> samplingInstructions() const;
  friend bool operator==(const Trace&, const Trace&) = default;
};

// {"version": 1, "workload": "...", "instructions": [{"kind": "Split", "loops": [...], ...}]}
std::string traceToJson(const Trace& trace);
// Throws tessera::Error naming what is malformed (it does not check the decisions: replay does).
Trace traceFromJson(std::string_view json);
// One instruction a line, for people: what each sampling instruction chose, first, where a narrow
// view still shows it ("v0 = [4, 2, 8] by SamplePerfectTile(i, 3 parts, innermost <= 64)"), and each
// variable an instruction reads next to the value it took ("Split(i, factors v0 = [4, 2, 8])").
std::string traceToText(const Trace& trace);

} // namespace tessera::tune
