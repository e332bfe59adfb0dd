#include "NodeSearch.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

namespace tessera::views {

namespace {

enum class Field { Any, Op, Name, Shape };

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// ",64,56,56," from "64x56x56", "[64, 56, 56]", "64×56×56"; nullopt when the text is not dimensions.
std::optional<std::string> dimensionPattern(std::string_view query) {
  std::string digits;
  bool sawDigit = false;
  for (size_t i = 0; i < query.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(query[i]);
    if (std::isdigit(c)) {
      digits += static_cast<char>(c);
      sawDigit = true;
      continue;
    }
    if (c == ',' || c == 'x' || c == 'X' || c == ' ' || c == '*') {
      if (!digits.empty() && digits.back() != ',') digits += ',';
      continue;
    }
    if (c == '[' || c == ']') continue;
    // "×" is two bytes in UTF-8: 0xC3 0x97.
    if (c == 0xC3 && i + 1 < query.size() && static_cast<unsigned char>(query[i + 1]) == 0x97) {
      if (!digits.empty() && digits.back() != ',') digits += ',';
      ++i;
      continue;
    }
    return std::nullopt;
  }
  if (!sawDigit) return std::nullopt;
  while (!digits.empty() && digits.back() == ',') digits.pop_back();
  return "," + digits + ",";
}

bool shapeMatches(const Node& node, const std::string& pattern) {
  for (const TensorType& type : node.outputTypes) {
    std::string text = ",";
    for (int64_t d : type.shape) text += std::to_string(d) + ",";
    if (text.find(pattern) != std::string::npos) return true;
  }
  return false;
}

std::string opNameOf(const Node& node) {
  if (node.kind == OpKind::Opaque && node.opaque) return node.opaque->opType;
  return std::string(opName(node.kind));
}

} // namespace

std::vector<NodeId> findNodes(const Graph& graph, std::string_view rawQuery) {
  std::string_view query = trim(rawQuery);
  Field field = Field::Any;
  for (auto [prefix, f] : {std::pair{"op:", Field::Op}, std::pair{"name:", Field::Name}, std::pair{"shape:", Field::Shape}}) {
    std::string_view p(prefix);
    if (query.size() >= p.size() && lower(query.substr(0, p.size())) == p) {
      field = f;
      query = trim(query.substr(p.size()));
      break;
    }
  }
  std::vector<NodeId> found;
  if (query.empty()) return found;
  std::string needle = lower(query);
  std::optional<std::string> dims = dimensionPattern(query);
  if (field == Field::Shape && !dims) return found;

  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    bool byName = (field == Field::Any || field == Field::Name) && lower(node.name).find(needle) != std::string::npos;
    bool byOp = (field == Field::Any || field == Field::Op) && lower(opNameOf(node)).find(needle) != std::string::npos;
    bool byShape = (field == Field::Any || field == Field::Shape) && dims && shapeMatches(node, *dims);
    if (byName || byOp || byShape) found.push_back(id);
  }
  return found;
}

} // namespace tessera::views
