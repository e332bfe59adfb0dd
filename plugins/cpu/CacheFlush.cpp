#include "CacheFlush.h"

#include "support/FlushFromCaches.h"

namespace tessera::cpu {

void flushFromCaches(std::span<const std::byte> bytes) { tessera_flush_from_caches(bytes.data(), bytes.size()); }

} // namespace tessera::cpu
