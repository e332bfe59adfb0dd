// Finding nodes by name, op or tensor shape: what the search bar (Ctrl+F) of a graph view runs.
#pragma once

#include "ir/Graph.h"

#include <string_view>
#include <vector>

namespace tessera::views {

// Case-insensitive. "op:conv", "name:fire2" and "shape:64x56x56" restrict the field searched;
// without a prefix a node matches when its name contains the query, its op name contains it, or
// (for a query of dimensions such as "64,56,56", "64x56x56" or "[1,64]") one of its output shapes
// contains those whole dimensions in a row. Returns node ids in increasing order.
std::vector<NodeId> findNodes(const Graph& graph, std::string_view query);

} // namespace tessera::views
