#include "RecordedRuns.h"

#include "cost/CostModel.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"

#include <random>

namespace tessera::recorded {

std::vector<Event> recordSearchRun(const std::string& strategy, const std::string& model, size_t nodeLimit,
                                   double timeLimitSeconds, const std::string& extractMethod) {
  const Graph graph = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + model + ".onnx");
  const RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  auto cost = makeCostModel("analytic:h200");
  Control control;
  EventStream stream;
  EventRecorder recorder;
  stream.attach(&recorder);
  SearchOptions options;
  options.nodeLimit = nodeLimit;
  options.timeLimitSeconds = timeLimitSeconds;
  options.extractTimeLimitSeconds = 10;
  options.extractMethod = extractMethod;
  SearchInput input{graph, list, *cost, control, stream, options};
  makeStrategy(strategy)->run(input);
  return std::move(recorder.events);
}

std::vector<Event> syntheticMctsRun(int steps, int simulations, uint64_t seed) {
  static const char* kRules[] = {"fuse-conv-relu", "matmul-assoc", "concat-split", "transpose-merge", "ewadd-comm"};
  std::mt19937_64 rng(seed);
  std::vector<Event> events;
  double seconds = 0;
  auto emit = [&](EventPayload payload) {
    seconds += 0.001;
    events.push_back(Event{events.size(), seconds, std::move(payload)});
  };
  struct Node {
    uint32_t parent;
    int depth;
    uint32_t visits = 0;
    double total = 0;
  };
  std::vector<Node> nodes{{0, 0}};
  emit(RunStateChanged{RunState::Started, {}});
  emit(MctsNodeCreated{0, 0, "", 0, 100});
  uint32_t root = 0;
  double best = 10.0;
  for (int step = 0; step < steps; ++step) {
    for (int sim = 0; sim < simulations; ++sim) {
      // Descend a random existing path below the root, then expand one child.
      std::vector<uint32_t> path{root};
      for (uint32_t id = root;;) {
        std::vector<uint32_t> children;
        for (uint32_t c = 0; c < nodes.size(); ++c)
          if (c != id && nodes[c].parent == id && c != 0) children.push_back(c);
        if (children.empty() || rng() % 3 == 0) break;
        id = children[rng() % children.size()];
        path.push_back(id);
      }
      const auto child = static_cast<uint32_t>(nodes.size());
      nodes.push_back({path.back(), nodes[path.back()].depth + 1});
      emit(MctsNodeCreated{child, path.back(), kRules[rng() % 5], nodes[child].depth, 100 + 10 * child});
      path.push_back(child);
      for (uint32_t id : path) emit(MctsNodeVisited{id});
      const double reward = static_cast<double>(rng() % 100) / 100.0;
      for (auto it = path.rbegin(); it != path.rend(); ++it) {
        Node& n = nodes[*it];
        ++n.visits;
        n.total += reward;
        emit(MctsBackedUp{*it, n.visits, n.total, reward});
      }
    }
    // Commit the most visited child of the root.
    uint32_t chosen = root;
    for (uint32_t c = 1; c < nodes.size(); ++c)
      if (nodes[c].parent == root && (chosen == root || nodes[c].visits > nodes[chosen].visits)) chosen = c;
    if (chosen == root) break;
    std::string action;
    for (const Event& e : events)
      if (auto* created = std::get_if<MctsNodeCreated>(&e.payload); created && created->id == chosen) action = created->action;
    const Node& n = nodes[chosen];
    emit(StepCommitted{step, action, chosen, n.visits, n.total / n.visits, 100 + 10 * chosen, 50 + 5 * chosen});
    const double next = best * 0.9;
    emit(CandidateExtracted{step, step, next, "dag"});
    emit(BestCostChanged{step, best, next});
    best = next;
    root = chosen;
  }
  emit(RunStateChanged{RunState::Finished, "steps"});
  return events;
}

} // namespace tessera::recorded
