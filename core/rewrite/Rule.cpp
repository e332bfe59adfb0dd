#include "rewrite/Rule.h"

#include <algorithm>
#include <limits>

namespace tessera {

namespace {
class ListedMatches final : public MatchStream {
public:
  explicit ListedMatches(std::vector<RuleMatch> matches) : matches_(std::move(matches)) {}
  bool next(RuleMatch& match) override {
    if (next_ == matches_.size()) return false;
    match = std::move(matches_[next_++]);
    return true;
  }

private:
  std::vector<RuleMatch> matches_;
  size_t next_ = 0;
};
} // namespace

bool Rule::hasLabel(const std::string& label) const {
  return std::find(labels_.begin(), labels_.end(), label) != labels_.end();
}

std::unique_ptr<MatchStream> Rule::stream(const EGraph& egraph) const {
  return std::make_unique<ListedMatches>(search(egraph, std::numeric_limits<size_t>::max()));
}

} // namespace tessera
