// Finding a model's tunable kernels: Conv, MatMul and Gemm nodes mapped onto workloads.
#include "tune/ModelWorkloads.h"

#include "tune/SignatureWorkload.h"

#include "cost/GraphCost.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tessera::tune {

ModelWorkloads modelWorkloads(const Graph& graph) {
  ModelWorkloads result;
  std::map<std::string, size_t> byKey;
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
    std::string why;
    std::optional<Workload> workload = tunableWorkload(signatureOf(graph, id), &why);
    if (!workload) {
      if (!why.empty()) result.skipped.push_back(describeNode(node) + ": " + why);
      continue;
    }
    auto [at, inserted] = byKey.emplace(workload->key(), result.workloads.size());
    if (inserted) result.workloads.push_back({*workload, 0, {}});
    ModelWorkload& entry = result.workloads[at->second];
    ++entry.count;
    entry.nodes.push_back(node.name);
  }
  std::stable_sort(result.workloads.begin(), result.workloads.end(),
                   [](const ModelWorkload& a, const ModelWorkload& b) { return a.totalFlops() > b.totalFlops(); });
  return result;
}

} // namespace tessera::tune
