// A rewrite rule: finds matches in a clean e-graph (never mutating it) and applies one match by
// adding the right-hand side and merging it with what it matched. Single-pattern rules match one
// e-class; multi-pattern rules (TENSAT) match two at once, their shared variables agreeing.
#pragma once

#include "egraph/EGraph.h"
#include "ir/Graph.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera {

struct RuleMatch {
  std::vector<EClassId> roots;    // the matched class of each source pattern
  std::vector<EClassId> bindings; // one class per pattern variable (rule-specific order)
  std::vector<uint32_t> attributes; // interned attributes per attribute variable (`Conv@a`)
};

struct RuleApplication {
  bool typeChecked = false;     // the right-hand side(s) could be built
  bool changed = false;         // a merge changed the e-graph
  std::vector<EClassId> results; // the class each right-hand side was built in
};

// A rule's matches in one state of the e-graph, handed out one at a time, so the caller may apply
// each before it takes the next (TENSAT applies multi-pattern matches while it joins) and stop at
// any point without the rest ever being built. The e-graph may grow between calls to next().
class MatchStream {
public:
  virtual ~MatchStream() = default;
  // Fills `match` (its vectors are reused) and returns true, or returns false when none is left.
  virtual bool next(RuleMatch& match) = 0;
};

class Rule {
public:
  Rule(std::string name, std::vector<std::string> labels) : name_(std::move(name)), labels_(std::move(labels)) {}
  virtual ~Rule() = default;

  const std::string& name() const { return name_; }
  const std::vector<std::string>& labels() const { return labels_; }
  bool hasLabel(const std::string& label) const;
  virtual bool isMulti() const { return false; }
  // A multi-pattern rule whose two sources are one pattern and whose two orders build equivalent
  // merges (TENSAT's learned rules): each unordered pair of matched classes is used once.
  virtual bool isSymmetric() const { return false; }
  virtual std::string describe() const = 0; // "lhs => rhs" for people

  // Every match, up to `limit`. The e-graph must be clean (rebuilt).
  virtual std::vector<RuleMatch> search(const EGraph& egraph, size_t limit) const = 0;
  // Every match, unbounded, as a stream over the e-graph as it is now (clean). The default hands
  // out search(egraph, SIZE_MAX).
  virtual std::unique_ptr<MatchStream> stream(const EGraph& egraph) const;
  virtual RuleApplication apply(EGraph& egraph, const RuleMatch& match) const = 0;

  // Small instances of the rule for numeric verification, from seeded random shapes: the
  // left-hand side(s) and the right-hand side(s) as graphs over the same inputs, outputs in
  // source order.
  struct VerificationCase {
    Graph before;
    Graph after;
  };
  virtual std::vector<VerificationCase> verificationCases(uint64_t seed, int count) const = 0;

private:
  std::string name_;
  std::vector<std::string> labels_;
};

} // namespace tessera
