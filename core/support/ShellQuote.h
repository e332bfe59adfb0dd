// Text as words a POSIX shell reads back unchanged: for scripts the launcher writes and for
// command lines a report shows so that they can be run again.
#pragma once

#include <string>

namespace tessera {

// `text` as one word for sh: single-quoted, with embedded quotes escaped.
inline std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// `text` as one word for sh, left bare where it needs no quotes, so a command line stays readable.
inline std::string shellWord(const std::string& text) {
  static constexpr const char* kSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%";
  const bool bare = !text.empty() && text.find_first_not_of(kSafe) == std::string::npos;
  return bare ? text : shellQuote(text);
}

} // namespace tessera
