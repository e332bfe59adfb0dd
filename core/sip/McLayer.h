// LLVM's MC layer for this machine, in-process: assembly text parsed into instructions with their
// descriptions, and assembled into an ELF object. The only part of core/sip that includes LLVM.
#pragma once

#include "sip/Listing.h"

#include <string>
#include <utility>
#include <vector>

namespace tessera::sip {

struct ParsedInstruction {
  size_t line = 0; // 0-based line of the text it came from
  Instruction instruction;
};

// Every instruction of the text, in order. Throws tessera::Error with the parser's first messages.
std::vector<ParsedInstruction> parseInstructions(const std::string& assembly);

struct AssembledObject {
  std::string bytes; // the ELF object; empty when assembly failed
  std::string error; // the MC layer's messages
  bool ok() const { return !bytes.empty(); }
};

// The text assembled by the MC layer (as llvm-mc -filetype=obj would), never throwing for bad text.
AssembledObject assembleObject(const std::string& assembly);

} // namespace tessera::sip
