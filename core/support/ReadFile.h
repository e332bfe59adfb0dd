// Reading a whole input file with errors that name it (missing, a directory, too large, unreadable).
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

// Throws tessera::Error "<path>: ..." on failure; `maxBytes` guards against absurd inputs.
std::string readFileBytes(const std::string& path, uintmax_t maxBytes);

} // namespace tessera
