/* Evicting a buffer from every cache level, so that the next run of an op meets its operands in
   main memory, as it does inside a whole model. Written in C because it has two users: the CPU
   plugin's profiler (plugins/cpu/CacheFlush.cpp) and the kernel tuner's harness, a C program
   compiled at run time, which carries this file's text (core/tune/CMakeLists.txt embeds it). */
#ifndef TESSERA_SUPPORT_FLUSH_FROM_CACHES_H
#define TESSERA_SUPPORT_FLUSH_FROM_CACHES_H

#include <stddef.h>
#include <stdint.h>

/* Flushes every cache line of [data, data + bytes), then waits until the flushes are done. 64 bytes
   is the smallest line of the CPUs supported; a larger line is flushed more than once. */
static inline void tessera_flush_from_caches(const void* data, size_t bytes) {
  if (bytes == 0) return;
  const uintptr_t line = 64;
  const uintptr_t end = (uintptr_t)data + bytes;
  for (uintptr_t p = (uintptr_t)data & ~(line - 1); p < end; p += line) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_clflush((const void*)p);
#elif defined(__aarch64__)
    __asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
#else
#error "tessera_flush_from_caches: no cache-flush instruction known for this architecture"
#endif
  }
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_mfence();
#elif defined(__aarch64__)
  __asm__ volatile("dsb ish" : : : "memory");
#endif
}

#endif
