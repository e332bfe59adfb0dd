// TASO's backtracking search over whole graphs: a priority queue by cost, a graph is expanded
// when it is within alpha of the best so far; alpha = 1 is greedy sequential rewriting.
#pragma once

#include "search/Strategy.h"

#include <memory>

namespace tessera {

std::unique_ptr<Strategy> makeTasoStrategy(bool greedy);

} // namespace tessera
