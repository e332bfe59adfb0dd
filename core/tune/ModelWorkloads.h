// The tunable kernels of a model: each distinct matmul, batched matmul and conv2d signature of a
// graph as a Workload, with how often it occurs, most expensive (FLOPs x occurrences) first.
#pragma once

#include "tune/Workload.h"

#include "ir/Graph.h"

#include <string>
#include <vector>

namespace tessera::tune {

struct ModelWorkload {
  Workload workload;
  int count = 0;                 // nodes of the graph with this signature
  std::vector<std::string> nodes; // their names
  double totalFlops() const { return workload.flops() * count; }
};

struct ModelWorkloads {
  std::vector<ModelWorkload> workloads;
  // Heavy nodes the tuner cannot express (grouped or dilated conv, transposed Gemm, ...), each
  // as "node 'x' (Conv): why".
  std::vector<std::string> skipped;
};

ModelWorkloads modelWorkloads(const Graph& graph);

} // namespace tessera::tune
