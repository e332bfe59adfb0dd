// A short, stable name for a text's content: FNV-1a 64 as 16 hex digits. It tells files apart in
// records (a rule file a run used, a cached build); it is not a cryptographic hash.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace tessera {

inline std::string fnv1aHex(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

} // namespace tessera
