// What a rules fuzz input goes through: the rule parser in all three formats (Tessera's
// `NAME [labels]: LHS => RHS [&& ...] [where ...]`, TENSAT's single and multi-pattern files), and
// every rule it accepts searched and applied on a small e-graph, as the runner does next.
// Shared by fuzz_rules and tests/rewrite's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "egraph/EGraph.h"
#include "egraph/GraphConversion.h"
#include "ir/Graph.h"
#include "rewrite/RuleSet.h"
#include "support/Error.h"

#include <string>
#include <string_view>

namespace tessera::fuzz {

// Ops the rules name (TENSAT's conv2d/matmul/ewadd/relu/concat, the IR's Conv/Add), over inputs
// whose shapes let most rules type-check.
inline const Graph& ruleTestGraph() {
  static const Graph graph = [] {
    auto f32 = [](Shape shape) { return TensorType{DType::Float32, std::move(shape)}; };
    Graph g;
    NodeId x = g.addInput("x", f32({1, 4, 8, 8}));
    NodeId w = g.addInput("w", f32({4, 4, 3, 3}));
    NodeId w1 = g.addInput("w1", f32({4, 4, 1, 1}));
    NodeId a = g.addInput("a", f32({4, 4}));
    NodeId b = g.addInput("b", f32({4, 4}));
    NodeId conv = g.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    NodeId conv1 = g.addNode(OpKind::Conv, {{x}, {w1}});
    NodeId sum = g.addNode(OpKind::Add, {{conv}, {conv1}});
    g.addOutput({g.addNode(OpKind::Relu, {{sum}})});
    g.addOutput({g.addNode(OpKind::Concat, {{conv}, {conv1}}, {{"axis", int64_t{1}}})});
    NodeId mm = g.addNode(OpKind::MatMul, {{a}, {b}});
    g.addOutput({g.addNode(OpKind::Add, {{mm}, {a}})});
    return g;
  }();
  return graph;
}

inline void searchAndApply(const RuleSet& rules) {
  EGraph egraph;
  seedEGraph(egraph, ruleTestGraph());
  egraph.rebuild();
  for (const auto& rule : rules.rules()) {
    rule->describe();
    for (const RuleMatch& match : rule->search(egraph, 4)) {
      try {
        rule->apply(egraph, match);
      } catch (const Error&) {
      }
    }
  }
  egraph.rebuild();
}

// `source` names the text in errors, which must read "SOURCE:LINE:COLUMN: problem".
inline FuzzOutcome checkRuleText(std::string_view text, const std::string& source) {
  FuzzOutcome outcome;
  for (RuleFileFormat format : {RuleFileFormat::Tessera, RuleFileFormat::TensatSingle, RuleFileFormat::TensatMulti}) {
    RuleSet rules;
    try {
      rules = parseRules(text, source, format);
    } catch (const Error& e) {
      if (std::string_view(e.what()).substr(0, source.size() + 1) != source + ":")
        outcome.defect = std::string("the error does not name the file: ") + e.what();
      continue;
    }
    outcome.accepted = true;
    searchAndApply(rules);
  }
  return outcome;
}

} // namespace tessera::fuzz
