#include "rl/ObservationJson.h"

#include "support/Error.h"
#include "support/JsonCount.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace tessera {

namespace {

void require(bool holds, const char* what) {
  if (!holds) throw Error(std::string("an observation's ") + what);
}

bool allFinite(const std::vector<float>& numbers) {
  return std::all_of(numbers.begin(), numbers.end(), [](float x) { return std::isfinite(x); });
}

bool allRows(const std::vector<int32_t>& rows, int64_t nodes) {
  return std::all_of(rows.begin(), rows.end(), [nodes](int32_t row) { return row >= 0 && row < nodes; });
}

} // namespace

nlohmann::json observationJson(const Observation& o) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const CandidateObservation& c : o.candidates)
    candidates.push_back({{"rule", c.rule}, {"rows", c.rows}, {"cost_delta_pct", c.costDeltaPct}, {"op_delta", c.opDelta}});
  const GraphObservation& g = o.graph;
  return {{"nodes", g.nodes},         {"ops", g.ops},           {"figures", g.figures}, {"senders", g.senders},
          {"receivers", g.receivers}, {"globals", g.globals},   {"candidates", candidates}};
}

Observation observationFromJson(const nlohmann::json& json) {
  Observation o;
  GraphObservation& g = o.graph;
  try {
    g.nodes = jsonCount<int64_t>(json, "nodes");
    g.ops = jsonCounts<int32_t>(json, "ops");
    g.figures = json.at("figures").get<std::vector<float>>();
    g.senders = jsonCounts<int32_t>(json, "senders");
    g.receivers = jsonCounts<int32_t>(json, "receivers");
    g.globals = json.at("globals").get<std::vector<float>>();
    for (const nlohmann::json& c : json.at("candidates"))
      o.candidates.push_back({jsonCount<int32_t>(c, "rule"), jsonCounts<int32_t>(c, "rows"), c.at("cost_delta_pct").get<float>(),
                              c.at("op_delta").get<float>()});
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("a malformed observation: ") + e.what());
  }
  require(g.nodes >= 0 && static_cast<size_t>(g.nodes) == g.ops.size(), "node count is not the count of its ops");
  require(std::all_of(g.ops.begin(), g.ops.end(), [](int32_t op) { return op >= 0 && op < opKindCount(); }), "op kinds are out of range");
  require(g.figures.size() == g.ops.size() * static_cast<size_t>(nodeFigureSize()) && allFinite(g.figures),
          "node figures are not nodes x figures finite numbers");
  require(g.senders.size() == g.receivers.size() && allRows(g.senders, g.nodes) && allRows(g.receivers, g.nodes),
          "edges are not pairs of its rows");
  require(g.globals.size() == static_cast<size_t>(globalFeatureSize()) && allFinite(g.globals), "global features are not its count of finite numbers");
  for (const CandidateObservation& c : o.candidates)
    require(c.rule >= 0 && allRows(c.rows, g.nodes) && std::isfinite(c.costDeltaPct) && std::isfinite(c.opDelta),
            "candidates name rules or rows it does not have");
  return o;
}

} // namespace tessera
