// A rule pack: the rules a search may use, loaded from Tessera's rule files (or TENSAT's raw
// ones), each with a name and labels so people can pin, veto and filter them.
#pragma once

#include "rewrite/Rule.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

class RuleSet {
public:
  void add(std::unique_ptr<Rule> rule);
  size_t size() const { return rules_.size(); }
  const Rule& rule(size_t i) const { return *rules_[i]; }
  const std::vector<std::unique_ptr<Rule>>& rules() const { return rules_; }
  // nullptr when absent.
  const Rule* find(std::string_view name) const;
  size_t multiCount() const;

  void append(RuleSet other);
  // Drops the rules for which `keep` is false.
  void keepIf(const std::function<bool(const Rule&)>& keep);

private:
  std::vector<std::unique_ptr<Rule>> rules_;
};

enum class RuleFileFormat {
  Tessera,      // `NAME [label,...]: LHS => RHS` and `... && LHS2 => RHS2` for multi-pattern rules
  TensatSingle, // TENSAT's converted.txt: `LHS=>RHS` per line
  TensatMulti,  // TENSAT's converted_multi.txt: consecutive lines form one multi-pattern rule
};

// Parses rule text; `sourceName` names the file in errors, which read "FILE:LINE:COLUMN: problem".
// Unnamed rules are called "<stem>-<line>". Names must be unique within the pack.
RuleSet parseRules(std::string_view text, const std::string& sourceName, RuleFileFormat format);
// Reads a file; the format is TensatMulti for names containing "multi" with no ':' rule names,
// TensatSingle for other files without names, else Tessera.
RuleSet loadRuleFile(const std::string& path);

} // namespace tessera
