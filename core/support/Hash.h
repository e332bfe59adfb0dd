// Hash combining used by structural hashes (graphs, attributes, e-nodes).
#pragma once

#include <cstddef>

namespace tessera {

inline void hashCombine(size_t& seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

} // namespace tessera
