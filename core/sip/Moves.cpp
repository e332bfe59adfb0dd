// Moves, the schedule they edit, and CuAsmRL's legality masks from LLVM's instruction descriptions.
#include "sip/Moves.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::sip {

namespace {

bool intersects(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
  // Both sorted (register units).
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    *i < *j ? ++i : ++j;
  }
  return false;
}

// Whether the instruction reads or writes memory for real (a prefetch is a hint that changes nothing).
bool accessesMemory(const Instruction& i) { return (i.mayLoad || i.mayStore) && !i.prefetch; }

} // namespace

Legality parseLegality(const std::string& name) {
  if (name == "none") return Legality::None;
  if (name == "deps") return Legality::Deps;
  throw Error("unknown legality '" + name + "' (none or deps)");
}

const char* legalityName(Legality legality) { return legality == Legality::None ? "none" : "deps"; }

void Schedule::apply(const Move& move) {
  std::vector<size_t>& block = order.at(move.block);
  const size_t other = move.slot + move.direction;
  if (move.slot >= block.size() || other >= block.size()) throw Error("a move past the end of its block");
  std::swap(block[move.slot], block[other]);
}

bool mayAlias(const Address& a, const Address& b) {
  if (a.base != b.base || a.index != b.index || a.scale != b.scale || a.segment != b.segment) return true;
  if (!a.displacement || !b.displacement) return true;
  return !(*a.displacement + a.width <= *b.displacement || *b.displacement + b.width <= *a.displacement);
}

bool canSwap(const Instruction& a, const Instruction& b) {
  if (a.barrier || b.barrier) return false;
  if (intersects(a.defs, b.uses) || intersects(a.uses, b.defs) || intersects(a.defs, b.defs)) return false;
  if (!accessesMemory(a) || !accessesMemory(b) || (!a.mayStore && !b.mayStore)) return true;
  if (!a.address || !b.address) return false;
  return !mayAlias(*a.address, *b.address);
}

std::vector<Move> legalMoves(const Listing& listing, const Schedule& schedule, Legality legality) {
  std::vector<Move> moves;
  for (size_t b = 0; b < schedule.order.size(); ++b) {
    const std::vector<size_t>& block = schedule.order[b];
    for (size_t slot = 0; slot < block.size(); ++slot) {
      const Instruction& moving = listing.instructions[block[slot]];
      if (!moving.movable) continue;
      for (int direction : {-1, +1}) {
        const size_t other = slot + direction;
        if (other >= block.size()) continue;
        if (legality == Legality::Deps && !canSwap(moving, listing.instructions[block[other]])) continue;
        moves.push_back({b, slot, direction});
      }
    }
  }
  return moves;
}

std::vector<Displacement> displacements(const Listing& listing, const Schedule& schedule) {
  std::vector<Displacement> result;
  for (size_t b = 0; b < listing.blocks.size(); ++b) {
    const std::vector<size_t>& original = listing.blocks[b];
    const std::vector<size_t>& now = schedule.order.at(b);
    for (size_t slot = 0; slot < now.size(); ++slot) {
      const size_t instruction = now[slot];
      if (!listing.instructions[instruction].movable || original[slot] == instruction) continue;
      const size_t from = static_cast<size_t>(std::find(original.begin(), original.end(), instruction) - original.begin());
      result.push_back({instruction, listing.instructions[instruction].text, b, from, slot, listing.instructionLine[original[from]],
                        listing.instructionLine[original[slot]]});
    }
  }
  return result;
}

} // namespace tessera::sip
