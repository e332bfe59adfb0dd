// The one exception type core throws for bad input: it carries a message a user can act on.
#pragma once

#include <stdexcept>
#include <string>

namespace tessera {

// Thrown for malformed models, rule files, sessions and JSON. The message names the
// file (where one is known) and the problem; callers at the edge print it and exit non-zero.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Prefixes an error message with the file it came from, once.
inline Error errorInFile(const std::string& file, const std::string& problem) {
  return Error(file + ": " + problem);
}

} // namespace tessera
