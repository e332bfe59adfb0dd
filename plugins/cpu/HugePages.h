// Backing large buffers with 2 MB pages. A model streams tens to hundreds of MB of weights and
// activations; with 4 KB pages every 4 KB costs a TLB miss, and how many of those a process pays
// varies with where its memory landed, so timings differ from one process to the next. Linux
// collapses resident memory into huge pages on request (madvise MADV_COLLAPSE, Linux 6.1+).
#pragma once

#include <cstddef>
#include <span>

namespace tessera::cpu {

// Asks the kernel to back every 2 MB-aligned range that `bytes` touches with one huge page. A
// range that reaches memory not mapped, or a kernel without MADV_COLLAPSE, keeps its small pages:
// the request is a hint and never fails. The values are unchanged.
void backWithHugePages(std::span<const std::byte> bytes);

// Whether this kernel collapses memory into huge pages (tried once on a scratch block).
bool hugePagesAvailable();

} // namespace tessera::cpu
