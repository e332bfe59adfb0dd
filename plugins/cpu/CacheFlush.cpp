#include "CacheFlush.h"

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#elif defined(__aarch64__)
#else
#error "flushFromCaches: no cache-flush instruction known for this architecture"
#endif

namespace tessera::cpu {

void flushFromCaches(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  constexpr std::uintptr_t line = 64; // the smallest line of the CPUs supported; a larger one is flushed more than once
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data()) & ~(line - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(bytes.data() + bytes.size());
#if defined(__x86_64__) || defined(__i386__)
  for (std::uintptr_t address = begin; address < end; address += line) _mm_clflush(reinterpret_cast<const void*>(address));
  _mm_mfence();
#else
  for (std::uintptr_t address = begin; address < end; address += line)
    asm volatile("dc civac, %0" : : "r"(address) : "memory");
  asm volatile("dsb ish" : : : "memory");
#endif
}

} // namespace tessera::cpu
