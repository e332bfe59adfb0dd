// A tuned kernel's x86 machine code after register allocation, as SIP edits it: the assembly
// lines LLVM printed, each instruction's facts from LLVM's MC layer (MCInstrDesc, MCRegisterInfo)
// and the basic blocks (runs of instructions between labels and directives) moves stay inside.
// Plain data: nothing here needs LLVM's headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::sip {

// An x86 memory operand (base + index * scale + displacement), registers as LLVM numbers them.
struct Address {
  unsigned base = 0, index = 0, segment = 0;
  int64_t scale = 1;
  std::optional<int64_t> displacement; // absent when symbolic
  int width = 8;                       // bytes at most: the widest register the instruction names
};

struct Instruction {
  std::string text;   // the assembly line, trimmed
  std::string opcode; // LLVM's name, e.g. VMOVUPSYmr
  bool mayLoad = false, mayStore = false;
  bool prefetch = false;
  // A branch, call, return or an instruction with side effects LLVM does not model: nothing moves past it.
  bool barrier = false;
  // SIP's search space: a vector load, store or broadcast (a vector register and memory), or a prefetch.
  bool movable = false;
  std::vector<unsigned> defs, uses; // register units written and read, implicit ones (flags) included
  std::optional<Address> address;
};

struct Listing {
  std::vector<std::string> lines;         // the assembly text, one entry per line
  std::vector<Instruction> instructions;  // in text order
  std::vector<size_t> instructionLine;    // instructions[i] is lines[instructionLine[i]]
  std::vector<std::vector<size_t>> blocks; // instruction indices, in text order, per basic block

  // The lines with each block's instructions in `order` (per block, a permutation of its indices).
  std::vector<std::string> renderLines(const std::vector<std::vector<size_t>>& order) const;
  // Those lines as one text.
  std::string render(const std::vector<std::vector<size_t>>& order) const;
  std::string text() const { return render(blocks); }
  size_t movableCount() const;
};

// The kernel's IR compiled as the tuner's LLVM builder compiles it, then its assembly parsed back
// by the MC layer. Throws tessera::Error when LLVM rejects the IR or cannot parse its own output.
Listing lowerToListing(const std::string& llvmIr);
// Parses assembly text this machine's LLVM printed (exposed for tests). Throws tessera::Error.
Listing parseListing(const std::string& assembly);

} // namespace tessera::sip
