// The text of core/support/FlushFromCaches.h, for the tuning harness: a C program compiled at run
// time that flushes a kernel's operands from the caches exactly as the CPU profiler does.
#pragma once

#include <string_view>

namespace tessera::tune {

std::string_view flushFromCachesSource();

} // namespace tessera::tune
