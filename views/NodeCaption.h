// The text a graph node shows: a title (op and its key attributes, or a tensor's name) and a
// detail line (output shape). Shared by the graph view, the search bar and tool tips.
#pragma once

#include "ir/Graph.h"

#include <string>

namespace tessera::views {

struct NodeCaption {
  std::string title;  // "Conv 3×3 /2 +Relu", "input", "MaxPool 3×3 /2"
  std::string detail; // "1×64×112×112"; several outputs are separated by ", "
};

NodeCaption nodeCaption(const Graph& graph, NodeId node);

// "1×64×56×56"; a scalar is "scalar".
std::string shapeCaption(const Shape& shape);

// Cuts `text` to at most `maxChars` characters (UTF-8 aware), ending with "…" when cut.
std::string elide(const std::string& text, size_t maxChars);

} // namespace tessera::views
