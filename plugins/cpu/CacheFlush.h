// Evicting memory from the CPU's caches, so that the next read of it comes from main memory: how a
// model's weights reach their ops when the weights outgrow the last-level cache, since the rest of
// the model has run between two reads of any one of them.
#pragma once

#include <cstddef>
#include <span>

namespace tessera::cpu {

// Writes back and evicts every cache line of `bytes` from every cache level, and waits until done.
void flushFromCaches(std::span<const std::byte> bytes);

} // namespace tessera::cpu
