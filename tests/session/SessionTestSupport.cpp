#include "SessionTestSupport.h"

#include "onnx/OnnxImport.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unistd.h>

namespace tessera::test {

std::string tempSessionPath(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto dir = std::filesystem::temp_directory_path() / ("tessera-session-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / (tag + ".tsession")).string();
}

Graph sampleModel(const std::string& name) {
  return onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + name + ".onnx");
}

Candidate sampleCandidate(const Graph& graph, double costMs, int step) {
  Candidate candidate;
  candidate.graph = graph;
  candidate.costMs = costMs;
  candidate.method = "dag";
  candidate.step = step;
  candidate.origins.resize(graph.size());
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (graph.node(id).kind == OpKind::Input || graph.node(id).kind == OpKind::Weight) continue;
    if (id % 3 == 0) candidate.origins[id] = {"fuse-conv-relu", static_cast<int>(id % 7)};
  }
  // A node without a name must still be found again by its provenance.
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (graph.node(id).kind == OpKind::Input || graph.node(id).kind == OpKind::Weight) continue;
    candidate.graph.mutableNode(id).name.clear();
    break;
  }
  return candidate;
}

std::vector<Event> eventsOfEveryKind() {
  std::vector<EventPayload> payloads = {
      ENodeAdded{7, ENode{OpKind::Relu, 0, 3, {1, 2, 4000000000u}}},
      ClassesMerged{3, 9},
      RuleApplied{"ewadd-assoc \"quoted\"", 4, {1, 2}, {}, 2},
      MctsNodeCreated{5, 2, "fuse-conv", 3, 123456789012},
      MctsNodeVisited{42},
      MctsBackedUp{5, 10, 0.1 + 0.2, -1e-300},
      StepCommitted{2, "iteration", 0, 7, 1.0 / 3.0, 1000, 300},
      CandidateExtracted{0, 2, 12.345678901234567, "ilp"},
      BestCostChanged{1, std::numeric_limits<double>::infinity(), 5.5},
      RunStateChanged{RunState::Finished, "node_limit"},
      UserDecision{DecisionKind::Veto, "matmul-assoc", 6},
      EGraphRebased{9, {{"", -1}, {"fuse-conv-relu", 3}, {"tensat-m05", 7}}},
      AgentDecided{4, -0.125, 37, {{"fuse-conv-relu", {12, 13}, {12}, -0.0625, 0.75}, {"stop", {}, {}, 0, 0.2}, {"matmul-assoc", {4000000000u, 2, 9}, {1, 2, 3}, 1e-300, 0.05}}, 2},
  };
  std::vector<Event> events;
  for (EventPayload& payload : payloads) events.push_back({events.size(), 0.001 * static_cast<double>(events.size()), payload});
  return events;
}

size_t decisionsAmong(const std::vector<Event>& events) {
  return static_cast<size_t>(std::count_if(events.begin(), events.end(), [](const Event& e) { return e.kind() == EventKind::UserDecision; }));
}

std::vector<Event> manyEvents(size_t count, uint64_t firstSequence) {
  std::vector<Event> kinds = eventsOfEveryKind();
  std::vector<Event> events;
  events.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Event event = kinds[i % kinds.size()];
    event.sequence = firstSequence + i;
    event.seconds = 1e-4 * static_cast<double>(event.sequence);
    if (auto* added = std::get_if<ENodeAdded>(&event.payload)) added->eclass = static_cast<EClassId>(i);
    events.push_back(std::move(event));
  }
  return events;
}

namespace {

bool sameDouble(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool samePayload(const ENodeAdded& a, const ENodeAdded& b) { return a.eclass == b.eclass && a.node == b.node; }
bool samePayload(const ClassesMerged& a, const ClassesMerged& b) { return a.kept == b.kept && a.absorbed == b.absorbed; }
bool samePayload(const RuleApplied& a, const RuleApplied& b) {
  return a.rule == b.rule && a.step == b.step && a.matched == b.matched && a.results == b.results && a.newNodes == b.newNodes;
}
bool samePayload(const MctsNodeCreated& a, const MctsNodeCreated& b) {
  return a.id == b.id && a.parent == b.parent && a.action == b.action && a.depth == b.depth && a.enodes == b.enodes;
}
bool samePayload(const MctsNodeVisited& a, const MctsNodeVisited& b) { return a.id == b.id; }
bool samePayload(const MctsBackedUp& a, const MctsBackedUp& b) {
  return a.id == b.id && a.visits == b.visits && sameDouble(a.totalValue, b.totalValue) && sameDouble(a.reward, b.reward);
}
bool samePayload(const StepCommitted& a, const StepCommitted& b) {
  return a.step == b.step && a.action == b.action && a.mctsNode == b.mctsNode && a.visits == b.visits &&
         sameDouble(a.meanValue, b.meanValue) && a.enodes == b.enodes && a.eclasses == b.eclasses;
}
bool samePayload(const CandidateExtracted& a, const CandidateExtracted& b) {
  return a.candidate == b.candidate && a.step == b.step && sameDouble(a.costMs, b.costMs) && a.method == b.method;
}
bool samePayload(const BestCostChanged& a, const BestCostChanged& b) {
  return a.step == b.step && sameDouble(a.previousMs, b.previousMs) && sameDouble(a.costMs, b.costMs);
}
bool samePayload(const RunStateChanged& a, const RunStateChanged& b) { return a.state == b.state && a.reason == b.reason; }
bool samePayload(const UserDecision& a, const UserDecision& b) { return a.kind == b.kind && a.rule == b.rule && a.step == b.step; }
bool samePayload(const EGraphRebased& a, const EGraphRebased& b) { return a.step == b.step && a.seed == b.seed; }
bool samePayload(const AgentDecided& a, const AgentDecided& b) {
  return a.step == b.step && sameDouble(a.value, b.value) && a.listed == b.listed && a.candidates == b.candidates && a.chosen == b.chosen;
}

} // namespace

bool sameEvent(const Event& a, const Event& b) {
  if (a.sequence != b.sequence || !sameDouble(a.seconds, b.seconds) || a.payload.index() != b.payload.index()) return false;
  return std::visit(
      [&b](const auto& left) {
        using T = std::decay_t<decltype(left)>;
        return samePayload(left, std::get<T>(b.payload));
      },
      a.payload);
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace tessera::test
