// SIP's moves over a listing: one memory instruction one slot up or down inside its basic block,
// the schedule they change (each block's instruction order) and which moves are legal.
#pragma once

#include "sip/Listing.h"

#include <string>
#include <vector>

namespace tessera::sip {

// none: SIP's, every move within a block (the tests catch wrong ones); deps: CuAsmRL's masks
// (no move past a barrier, no register clash with the neighbour, flags included, no store
// reordered with a memory access that may alias it).
enum class Legality { None, Deps };
Legality parseLegality(const std::string& name); // "none" or "deps"; tessera::Error naming both otherwise
const char* legalityName(Legality legality);

struct Move {
  size_t block = 0;
  size_t slot = 0;    // the moving instruction's position in its block
  int direction = -1; // -1 up, +1 down
  bool operator==(const Move&) const = default;
};

// Each block's instruction order; starts as the listing's.
struct Schedule {
  std::vector<std::vector<size_t>> order;
  explicit Schedule(const Listing& listing) : order(listing.blocks) {}
  Schedule() = default;
  void apply(const Move& move); // swaps the slot with its neighbour
};

// True when swapping neighbours `a` and `b` keeps the program's meaning under `deps`.
bool canSwap(const Instruction& a, const Instruction& b);
// Whether two memory accesses may touch the same bytes (conservative: unknown means yes).
bool mayAlias(const Address& a, const Address& b);

// The moves open from `schedule`: a movable instruction with a neighbour in its block, each legal
// under `legality`.
std::vector<Move> legalMoves(const Listing& listing, const Schedule& schedule, Legality legality);

// An instruction of the best kernel that is not where the tuned kernel had it.
struct Displacement {
  size_t instruction = 0; // index in the listing
  std::string text;
  size_t block = 0;
  size_t fromSlot = 0, toSlot = 0;
  size_t fromLine = 0, toLine = 0; // lines of the listing's text, 0-based
};
std::vector<Displacement> displacements(const Listing& listing, const Schedule& schedule);

} // namespace tessera::sip
