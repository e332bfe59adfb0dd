#include "session/EventCodec.h"

#include "ir/Op.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace tessera::event_codec {

namespace {

using nlohmann::json;

// JSON has no infinities (a first BestCostChanged starts from +inf): they travel as strings.
json encodeDouble(double value) {
  if (std::isfinite(value)) return value;
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

double decodeDouble(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value == "inf") return std::numeric_limits<double>::infinity();
  if (value == "-inf") return -std::numeric_limits<double>::infinity();
  if (value == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw Error("expected a number, got " + value.dump());
}

template <typename Enum, typename NameOf>
Enum enumFromName(std::string_view name, Enum last, NameOf nameOf, const char* what) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (nameOf(static_cast<Enum>(i)) == name) return static_cast<Enum>(i);
  throw Error(std::string("unknown ") + what + " '" + std::string(name) + "'");
}

json encode(const ENodeAdded& e) {
  return {{"c", e.eclass}, {"op", opName(e.node.op)}, {"p", e.node.port}, {"a", e.node.payload}, {"ch", e.node.children}};
}
json encode(const ClassesMerged& e) { return {{"k", e.kept}, {"a", e.absorbed}}; }
json encode(const RuleApplied& e) {
  return {{"r", e.rule}, {"s", e.step}, {"m", e.matched}, {"res", e.results}, {"n", e.newNodes}};
}
json encode(const MctsNodeCreated& e) {
  json j = {{"id", e.id}, {"par", e.parent}, {"act", e.action}, {"d", e.depth}, {"en", e.enodes}};
  if (e.prior) j["pr"] = encodeDouble(*e.prior); // only PUCT's nodes carry one
  return j;
}
json encode(const MctsNodeVisited& e) { return {{"id", e.id}}; }
json encode(const MctsBackedUp& e) {
  return {{"id", e.id}, {"v", e.visits}, {"q", encodeDouble(e.totalValue)}, {"rw", encodeDouble(e.reward)}};
}
json encode(const StepCommitted& e) {
  return {{"s", e.step}, {"act", e.action}, {"node", e.mctsNode}, {"v", e.visits},
          {"mv", encodeDouble(e.meanValue)}, {"en", e.enodes}, {"ec", e.eclasses}};
}
json encode(const CandidateExtracted& e) {
  return {{"i", e.candidate}, {"s", e.step}, {"ms", encodeDouble(e.costMs)}, {"m", e.method}};
}
json encode(const BestCostChanged& e) {
  return {{"s", e.step}, {"prev", encodeDouble(e.previousMs)}, {"ms", encodeDouble(e.costMs)}};
}
json encode(const RunStateChanged& e) { return {{"st", runStateName(e.state)}, {"why", e.reason}}; }
json encode(const UserDecision& e) { return {{"k", decisionName(e.kind)}, {"r", e.rule}, {"s", e.step}}; }
json encode(const EGraphRebased& e) {
  json rules = json::array(), steps = json::array();
  for (const SeedOrigin& origin : e.seed) {
    rules.push_back(origin.rule);
    steps.push_back(origin.step);
  }
  return {{"s", e.step}, {"r", rules}, {"rs", steps}};
}

// Candidates as parallel arrays, like a rebase's seed: short keys, one list per field.
json encode(const AgentDecided& e) {
  json rules = json::array(), locations = json::array(), originals = json::array(), deltas = json::array(),
       probabilities = json::array();
  for (const AgentCandidate& c : e.candidates) {
    rules.push_back(c.rule);
    locations.push_back(c.location);
    originals.push_back(c.originalOps);
    deltas.push_back(encodeDouble(c.costDeltaMs));
    probabilities.push_back(encodeDouble(c.probability));
  }
  return {{"s", e.step}, {"v", encodeDouble(e.value)}, {"n", e.listed}, {"r", rules},
          {"loc", locations}, {"o", originals}, {"d", deltas}, {"p", probabilities}, {"ch", e.chosen}};
}

template <typename T>
T field(const json& object, const char* key) {
  return object.at(key).get<T>();
}

EventPayload decode(EventKind kind, const json& j) {
  switch (kind) {
  case EventKind::ENodeAdded: {
    ENodeAdded e;
    e.eclass = field<EClassId>(j, "c");
    std::string op = field<std::string>(j, "op");
    std::optional<OpKind> opKind = opFromName(op);
    if (!opKind) throw Error("unknown op '" + op + "'");
    e.node.op = *opKind;
    e.node.port = field<uint16_t>(j, "p");
    e.node.payload = field<uint32_t>(j, "a");
    e.node.children = field<std::vector<EClassId>>(j, "ch");
    return e;
  }
  case EventKind::ClassesMerged: return ClassesMerged{field<EClassId>(j, "k"), field<EClassId>(j, "a")};
  case EventKind::RuleApplied:
    return RuleApplied{field<std::string>(j, "r"), field<int>(j, "s"), field<std::vector<EClassId>>(j, "m"),
                       field<std::vector<EClassId>>(j, "res"), field<uint32_t>(j, "n")};
  case EventKind::MctsNodeCreated: {
    MctsNodeCreated e{field<uint32_t>(j, "id"), field<uint32_t>(j, "par"), field<std::string>(j, "act"), field<int>(j, "d"),
                      field<size_t>(j, "en")};
    if (auto prior = j.find("pr"); prior != j.end()) e.prior = decodeDouble(*prior); // absent before PUCT
    return e;
  }
  case EventKind::MctsNodeVisited: return MctsNodeVisited{field<uint32_t>(j, "id")};
  case EventKind::MctsBackedUp:
    return MctsBackedUp{field<uint32_t>(j, "id"), field<uint32_t>(j, "v"), decodeDouble(j.at("q")), decodeDouble(j.at("rw"))};
  case EventKind::StepCommitted:
    return StepCommitted{field<int>(j, "s"),      field<std::string>(j, "act"), field<uint32_t>(j, "node"), field<uint32_t>(j, "v"),
                         decodeDouble(j.at("mv")), field<size_t>(j, "en"),        field<size_t>(j, "ec")};
  case EventKind::CandidateExtracted:
    return CandidateExtracted{field<int>(j, "i"), field<int>(j, "s"), decodeDouble(j.at("ms")), field<std::string>(j, "m")};
  case EventKind::BestCostChanged: return BestCostChanged{field<int>(j, "s"), decodeDouble(j.at("prev")), decodeDouble(j.at("ms"))};
  case EventKind::RunStateChanged:
    return RunStateChanged{enumFromName(field<std::string>(j, "st"), RunState::Finished, runStateName, "run state"),
                           field<std::string>(j, "why")};
  case EventKind::UserDecision:
    return UserDecision{enumFromName(field<std::string>(j, "k"), DecisionKind::Stop, decisionName, "decision"),
                        field<std::string>(j, "r"), field<int>(j, "s")};
  case EventKind::EGraphRebased: {
    EGraphRebased e{field<int>(j, "s"), {}};
    const auto rules = field<std::vector<std::string>>(j, "r");
    const auto steps = field<std::vector<int>>(j, "rs");
    if (rules.size() != steps.size()) throw Error("seed rules and steps differ in length");
    for (size_t i = 0; i < rules.size(); ++i) e.seed.push_back({rules[i], steps[i]});
    return e;
  }
  case EventKind::AgentDecided: {
    AgentDecided e{field<int>(j, "s"), decodeDouble(j.at("v")), field<uint32_t>(j, "n"), {}, field<int>(j, "ch")};
    const auto rules = field<std::vector<std::string>>(j, "r");
    const auto locations = field<std::vector<std::vector<uint32_t>>>(j, "loc");
    const auto originals = field<std::vector<std::vector<uint32_t>>>(j, "o");
    const json& deltas = j.at("d");
    const json& probabilities = j.at("p");
    if (locations.size() != rules.size() || originals.size() != rules.size() || deltas.size() != rules.size() || probabilities.size() != rules.size())
      throw Error("agent decision: candidate fields differ in length");
    for (size_t i = 0; i < rules.size(); ++i)
      e.candidates.push_back({rules[i], locations[i], originals[i], decodeDouble(deltas[i]), decodeDouble(probabilities[i])});
    if (e.chosen < 0 || static_cast<size_t>(e.chosen) >= e.candidates.size())
      throw Error("agent decision: chosen candidate " + std::to_string(e.chosen) + " is not listed");
    return e;
  }
  case EventKind::Count: break;
  }
  throw Error("unknown event kind");
}

} // namespace

std::string encodePayload(const EventPayload& payload) {
  return std::visit([](const auto& e) { return encode(e).dump(); }, payload);
}

EventKind kindFromName(std::string_view name) {
  return enumFromName(name, static_cast<EventKind>(static_cast<int>(EventKind::Count) - 1), eventKindName, "event kind");
}

EventPayload decodePayload(std::string_view kindName, std::string_view text) {
  EventKind kind = kindFromName(kindName);
  try {
    json j = json::parse(text);
    if (!j.is_object()) throw Error("payload is not a JSON object");
    return decode(kind, j);
  } catch (const json::exception& e) {
    throw Error(std::string(eventKindName(kind)) + " payload: " + e.what());
  }
}

} // namespace tessera::event_codec
