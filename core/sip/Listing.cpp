// The listing of a tuned kernel: its assembly lines split into basic blocks.
#include "sip/Listing.h"

#include "sip/McLayer.h"
#include "sip/NativeCode.h"

#include "support/Error.h"
#include "tune/LlvmBuilder.h"

#include <sstream>

namespace tessera::sip {

namespace {

std::string trimmed(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const size_t last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

} // namespace

std::vector<std::string> Listing::renderLines(const std::vector<std::vector<size_t>>& order) const {
  std::vector<std::string> rendered = lines;
  for (size_t b = 0; b < blocks.size(); ++b)
    for (size_t k = 0; k < blocks[b].size(); ++k) rendered[instructionLine[blocks[b][k]]] = instructions[order.at(b).at(k)].text;
  return rendered;
}

std::string Listing::render(const std::vector<std::vector<size_t>>& order) const {
  std::string text;
  for (const std::string& line : renderLines(order)) text += line + "\n";
  return text;
}

size_t Listing::movableCount() const {
  size_t count = 0;
  for (const Instruction& instruction : instructions) count += instruction.movable ? 1 : 0;
  return count;
}

Listing parseListing(const std::string& assembly) {
  Listing listing;
  // Blank lines and whole-line comments go, so every kept line is a label, a directive or one instruction.
  std::istringstream in(assembly);
  for (std::string line; std::getline(in, line);) {
    std::string text = trimmed(line);
    if (text.empty() || text[0] == '#') continue;
    listing.lines.push_back(std::move(text));
  }
  std::vector<ParsedInstruction> parsed = parseInstructions(listing.text());
  std::vector<int> instructionAt(listing.lines.size(), -1);
  for (ParsedInstruction& p : parsed) {
    if (p.line >= listing.lines.size()) throw Error("the MC layer placed an instruction past the end of the kernel's assembly");
    if (instructionAt[p.line] >= 0)
      throw Error("line " + std::to_string(p.line + 1) + " of the kernel's assembly holds more than one instruction: " + listing.lines[p.line]);
    instructionAt[p.line] = static_cast<int>(listing.instructions.size());
    p.instruction.text = listing.lines[p.line];
    listing.instructions.push_back(std::move(p.instruction));
    listing.instructionLine.push_back(p.line);
  }
  // A label or a directive ends a block: nothing moves across one.
  std::vector<size_t> block;
  for (size_t line = 0; line < listing.lines.size(); ++line) {
    if (instructionAt[line] >= 0) {
      block.push_back(static_cast<size_t>(instructionAt[line]));
      continue;
    }
    if (!block.empty()) listing.blocks.push_back(std::move(block));
    block.clear();
  }
  if (!block.empty()) listing.blocks.push_back(std::move(block));
  return listing;
}

Listing lowerToListing(const std::string& llvmIr) { return x86McAdapter()->listing(tune::compileLlvmIrToAssembly(llvmIr)); }

} // namespace tessera::sip
