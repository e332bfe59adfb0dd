// Splitting text at a separator, for the small text formats core reads (workload specs, the op
// table's attribute lists, TASO's model files). The pieces view the text, which must outlive them.
#pragma once

#include <string_view>
#include <vector>

namespace tessera {

// Every piece, empty ones included: "a,,b" -> {"a", "", "b"}; "" -> {""}.
inline std::vector<std::string_view> splitText(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      pieces.push_back(text.substr(start));
      return pieces;
    }
    pieces.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

// The non-empty pieces: "a  b " split at ' ' -> {"a", "b"}; "" -> {}.
inline std::vector<std::string_view> splitWords(std::string_view text, char separator) {
  std::vector<std::string_view> words;
  for (std::string_view piece : splitText(text, separator))
    if (!piece.empty()) words.push_back(piece);
  return words;
}

} // namespace tessera
