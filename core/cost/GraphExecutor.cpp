// The default single-run timing of a GraphExecutor, for backends that only time whole series.
#include "cost/GraphExecutor.h"

namespace tessera {

namespace {

class UnpreparedTimedGraph final : public TimedGraph {
public:
  UnpreparedTimedGraph(GraphExecutor& executor, const Graph& graph) : executor_(executor), graph_(graph) {}
  double runMs() override { return executor_.measureLatencyMs(graph_, 0, 1); }

private:
  GraphExecutor& executor_;
  const Graph& graph_;
};

} // namespace

std::unique_ptr<TimedGraph> GraphExecutor::prepareTiming(const Graph& graph) {
  return std::make_unique<UnpreparedTimedGraph>(*this, graph);
}

} // namespace tessera
