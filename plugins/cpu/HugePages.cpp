#include "HugePages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#ifdef __linux__
#include <sys/mman.h>
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 // linux/mman.h since 6.1; older C headers lack it
#endif
#endif

namespace tessera::cpu {

namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

// Collapses each huge-page range `bytes` touches; how many the kernel took.
size_t collapse(std::span<const std::byte> bytes) {
  size_t collapsed = 0;
#ifdef __linux__
  if (bytes.empty()) return 0;
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data()) & ~(kHugePage - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(bytes.data() + bytes.size());
  for (std::uintptr_t page = begin; page < end; page += kHugePage)
    if (madvise(reinterpret_cast<void*>(page), kHugePage, MADV_COLLAPSE) == 0) ++collapsed;
#else
  (void)bytes;
#endif
  return collapsed;
}

} // namespace

void backWithHugePages(std::span<const std::byte> bytes) {
  if (hugePagesAvailable()) collapse(bytes);
}

bool hugePagesAvailable() {
  static const bool available = [] {
    // Two huge pages' worth, touched, so that at least one aligned range lies wholly inside it.
    const size_t size = 2 * kHugePage;
    void* scratch = std::aligned_alloc(kHugePage, size);
    if (!scratch) return false;
    std::memset(scratch, 1, size);
    const bool collapsed = collapse({static_cast<const std::byte*>(scratch), size}) > 0;
    std::free(scratch);
    return collapsed;
  }();
  return available;
}

} // namespace tessera::cpu
