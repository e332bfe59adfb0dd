#include "rewrite/MultiPatternJoin.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tessera {

void SideMatches::add(EClassId root, std::span<const EClassId> matchBindings, std::span<const uint32_t> matchAttributes) {
  roots.push_back(root);
  bindings.insert(bindings.end(), matchBindings.begin(), matchBindings.end());
  attributes.insert(attributes.end(), matchAttributes.begin(), matchAttributes.end());
}

// ---- DescendantIndex ----

struct DescendantIndex::State {
  const EGraph& egraph;
  std::unordered_map<EClassId, uint32_t> bitOf; // target -> bit
  size_t words = 0;
  std::unordered_map<EClassId, size_t> rowOf; // class -> offset of its bitset in `rows`
  std::vector<uint64_t> rows;

  explicit State(const EGraph& g) : egraph(g) {}

  // Post-order walk from `start` over unfiltered e-nodes; a class's row is the union of its
  // children's rows and bits. A child still on the walk's stack closes a cycle (only possible
  // through nodes the cycle filter has not reached yet) and is left out.
  void computeFrom(EClassId start) {
    if (rowOf.count(start)) return;
    struct Frame {
      EClassId eclass;
      size_t node = 0;
      size_t child = 0;
    };
    std::vector<Frame> stack{{start}};
    std::unordered_set<EClassId> onStack{start};
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const std::vector<ENode>& nodes = egraph.eclass(frame.eclass).nodes;
      if (frame.node == nodes.size()) {
        finish(frame.eclass);
        onStack.erase(frame.eclass);
        stack.pop_back();
        continue;
      }
      const ENode& node = nodes[frame.node];
      if (frame.child == node.children.size() || (frame.child == 0 && egraph.isFiltered(node))) {
        ++frame.node;
        frame.child = 0;
        continue;
      }
      EClassId child = egraph.find(node.children[frame.child++]);
      if (rowOf.count(child) || onStack.count(child)) continue;
      onStack.insert(child);
      stack.push_back({child}); // invalidates `frame`; the loop takes back() afresh
    }
  }

  void finish(EClassId eclass) {
    const size_t offset = rows.size();
    rows.resize(offset + words, 0);
    for (const ENode& node : egraph.eclass(eclass).nodes) {
      if (egraph.isFiltered(node)) continue;
      for (EClassId child : node.children) {
        child = egraph.find(child);
        if (auto bit = bitOf.find(child); bit != bitOf.end()) rows[offset + bit->second / 64] |= uint64_t(1) << (bit->second % 64);
        auto row = rowOf.find(child);
        if (row == rowOf.end()) continue; // on the stack: a cycle
        for (size_t w = 0; w < words; ++w) rows[offset + w] |= rows[row->second + w];
      }
    }
    rowOf.emplace(eclass, offset);
  }
};

DescendantIndex::DescendantIndex(const EGraph& egraph, std::span<const EClassId> targets, std::span<const EClassId> sources)
    : state_(std::make_unique<State>(egraph)) {
  for (EClassId target : targets) state_->bitOf.try_emplace(egraph.find(target), static_cast<uint32_t>(state_->bitOf.size()));
  state_->words = (state_->bitOf.size() + 63) / 64;
  for (EClassId source : sources)
    if (source != kUnboundClass) state_->computeFrom(egraph.find(source));
}

DescendantIndex::~DescendantIndex() = default;

bool DescendantIndex::isBelow(EClassId target, EClassId eclass) const {
  auto bit = state_->bitOf.find(target);
  auto row = state_->rowOf.find(eclass);
  if (bit == state_->bitOf.end() || row == state_->rowOf.end()) return false;
  const size_t offset = row->second;
  return (state_->rows[offset + bit->second / 64] >> (bit->second % 64)) & 1;
}

// ---- the join ----

namespace {

// The variables (and attribute variables) both sides bind: the join key.
struct SharedSlots {
  std::vector<size_t> variables;
  std::vector<size_t> attributes;
};

SharedSlots sharedSlots(const SideMatches& first, const SideMatches& second) {
  SharedSlots shared;
  if (first.size() == 0 || second.size() == 0) return shared;
  // Every match of a side binds the same variables: its pattern's.
  for (size_t v = 0; v < first.variableCount; ++v)
    if (first.bindings[v] != kUnboundClass && second.bindings[v] != kUnboundClass) shared.variables.push_back(v);
  for (size_t a = 0; a < first.attributeCount; ++a)
    if (first.attributes[a] != kUnboundAttribute && second.attributes[a] != kUnboundAttribute) shared.attributes.push_back(a);
  return shared;
}

uint64_t mix(uint64_t hash, uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  return hash;
}

class JoinStream final : public MatchStream {
public:
  JoinStream(const EGraph& egraph, SideMatches first, SideMatches second, JoinSettings settings)
      : egraph_(egraph), first_(std::move(first)), second_(std::move(second)), settings_(std::move(settings)),
        shared_(sharedSlots(first_, second_)) {
    // Index the second side by the hash of its key; equal keys are checked exactly when paired.
    byKey_.reserve(second_.size());
    for (size_t j = 0; j < second_.size(); ++j) byKey_.emplace_back(keyHash(second_, j), static_cast<uint32_t>(j));
    std::sort(byKey_.begin(), byKey_.end());
    if (settings_.checkDescendants && anyCandidate()) {
      std::vector<EClassId> targets = first_.roots;
      targets.insert(targets.end(), second_.roots.begin(), second_.roots.end());
      std::vector<EClassId> inputs = first_.bindings;
      inputs.insert(inputs.end(), second_.bindings.begin(), second_.bindings.end());
      descendants_ = std::make_unique<DescendantIndex>(egraph_, targets, inputs);
    }
  }

  bool next(RuleMatch& match) override {
    for (;;) {
      if (cursor_ == bucketEnd_) {
        if (started_ && ++i_ >= first_.size()) return false;
        if (!started_) {
          started_ = true;
          if (first_.size() == 0) return false;
        }
        std::tie(cursor_, bucketEnd_) = bucket(keyHash(first_, i_));
        continue;
      }
      const size_t j = byKey_[cursor_++].second;
      if (!pairs(i_, j)) continue;
      combine(i_, j, match);
      if (settings_.accept && !settings_.accept(match)) continue;
      return true;
    }
  }

private:
  uint64_t keyHash(const SideMatches& side, size_t i) const {
    uint64_t hash = 0;
    for (size_t v : shared_.variables) hash = mix(hash, side.bindingsOf(i)[v]);
    for (size_t a : shared_.attributes) hash = mix(hash, side.attributesOf(i)[a]);
    return hash;
  }

  std::pair<size_t, size_t> bucket(uint64_t hash) const {
    auto lower = std::lower_bound(byKey_.begin(), byKey_.end(), std::make_pair(hash, uint32_t(0)));
    auto upper = std::upper_bound(lower, byKey_.end(), std::make_pair(hash, ~uint32_t(0)));
    return {static_cast<size_t>(lower - byKey_.begin()), static_cast<size_t>(upper - byKey_.begin())};
  }

  bool anyCandidate() const {
    for (size_t i = 0; i < first_.size(); ++i) {
      auto [begin, end] = bucket(keyHash(first_, i));
      if (begin != end) return true;
    }
    return false;
  }

  bool pairs(size_t i, size_t j) {
    const EClassId a = first_.roots[i], b = second_.roots[j];
    if (a == b) return false; // the same value twice gains nothing
    if (settings_.symmetric && b < a) return false;
    std::span<const EClassId> x = first_.bindingsOf(i), y = second_.bindingsOf(j);
    for (size_t v : shared_.variables)
      if (x[v] != y[v]) return false;
    for (size_t s : shared_.attributes)
      if (first_.attributesOf(i)[s] != second_.attributesOf(j)[s]) return false;
    if (!descendants_) return true;
    // TENSAT's descendant sets are strict, so its check lets through a pair whose input is the
    // other's root, and the cycle filter removes what it built; that pair is rejected here too.
    for (std::span<const EClassId> inputs : {x, y})
      for (EClassId input : inputs) {
        if (input == kUnboundClass) continue;
        if (input == a || input == b || descendants_->isBelow(a, input) || descendants_->isBelow(b, input)) return false;
      }
    return true;
  }

  void combine(size_t i, size_t j, RuleMatch& match) const {
    match.roots.assign({first_.roots[i], second_.roots[j]});
    std::span<const EClassId> x = first_.bindingsOf(i), y = second_.bindingsOf(j);
    match.bindings.assign(x.begin(), x.end());
    for (size_t v = 0; v < y.size(); ++v)
      if (match.bindings[v] == kUnboundClass) match.bindings[v] = y[v];
    std::span<const uint32_t> p = first_.attributesOf(i), q = second_.attributesOf(j);
    match.attributes.assign(p.begin(), p.end());
    for (size_t a = 0; a < q.size(); ++a)
      if (match.attributes[a] == kUnboundAttribute) match.attributes[a] = q[a];
  }

  const EGraph& egraph_;
  SideMatches first_;
  SideMatches second_;
  JoinSettings settings_;
  SharedSlots shared_;
  std::vector<std::pair<uint64_t, uint32_t>> byKey_; // (key hash, index into second_), sorted
  std::unique_ptr<DescendantIndex> descendants_;
  bool started_ = false;
  size_t i_ = 0;
  size_t cursor_ = 0, bucketEnd_ = 0;
};

} // namespace

std::unique_ptr<MatchStream> joinSideMatches(const EGraph& egraph, SideMatches first, SideMatches second, JoinSettings settings) {
  return std::make_unique<JoinStream>(egraph, std::move(first), std::move(second), std::move(settings));
}

} // namespace tessera
