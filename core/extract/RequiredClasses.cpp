// Required classes by a bottom-up pass over bitsets indexed by post-order position.
#include "extract/RequiredClasses.h"

#include <bit>

namespace tessera::extract {

namespace {

// Rows of one bit per model class, one row per model class, in one block.
class BitMatrix {
public:
  BitMatrix(size_t rows, size_t columns) : words_((columns + 63) / 64), bits_(rows * words_, 0) {}
  uint64_t* row(size_t r) { return bits_.data() + r * words_; }
  size_t words() const { return words_; }

private:
  size_t words_;
  std::vector<uint64_t> bits_;
};

} // namespace

std::vector<std::vector<uint32_t>> nearestRequiredClasses(const ExtractionProblem& problem,
                                                          const std::vector<std::vector<uint32_t>>& aliveNodes,
                                                          size_t maxClasses) {
  const size_t classes = problem.classCount();
  std::vector<std::vector<uint32_t>> nearest(classes);
  // Model classes numbered by post-order position: a class's descendants (off cycles) come first.
  std::vector<uint32_t> order;
  for (uint32_t c : bottomUpClassOrder(problem))
    if (!aliveNodes[c].empty()) order.push_back(c);
  if (order.size() > maxClasses) return nearest;
  constexpr uint32_t kOutside = UINT32_MAX;
  std::vector<uint32_t> position(classes, kOutside);
  for (uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;

  BitMatrix required(order.size(), order.size());
  const size_t words = required.words();
  std::vector<uint64_t> term(words), covered(words);
  std::vector<uint8_t> done(order.size(), 0);
  for (uint32_t i = 0; i < order.size(); ++i) {
    uint64_t* own = required.row(i);
    bool first = true;
    for (uint32_t n : aliveNodes[order[i]]) {
      // What node n's terms contain: its child classes and what each of them requires.
      std::fill(term.begin(), term.end(), 0);
      for (uint32_t child : distinctChildren(problem.nodes[n])) {
        uint32_t at = position[child];
        if (at == kOutside) continue; // not in the model: n is never chosen anyway
        term[at / 64] |= uint64_t{1} << (at % 64);
        if (!done[at]) continue; // met on a cycle before its own entry: only itself
        const uint64_t* below = required.row(at);
        for (size_t w = 0; w < words; ++w) term[w] |= below[w];
      }
      for (size_t w = 0; w < words; ++w) own[w] = first ? term[w] : own[w] & term[w];
      first = false;
    }
    own[i / 64] &= ~(uint64_t{1} << (i % 64));
    done[i] = 1;

    // Nearest first (highest position): a class required by one already kept is implied.
    std::fill(covered.begin(), covered.end(), 0);
    for (size_t w = words; w-- > 0;) {
      for (uint64_t bits = own[w]; bits;) {
        const int top = 63 - std::countl_zero(bits);
        bits &= ~(uint64_t{1} << top);
        const size_t at = w * 64 + top;
        if (covered[w] >> top & 1) continue;
        nearest[order[i]].push_back(order[at]);
        const uint64_t* below = required.row(at);
        for (size_t v = 0; v < words; ++v) covered[v] |= below[v];
      }
    }
  }
  return nearest;
}

} // namespace tessera::extract
