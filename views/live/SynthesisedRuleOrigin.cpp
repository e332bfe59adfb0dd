#include "SynthesisedRuleOrigin.h"

#include "rewrite/DefaultRules.h"
#include "synth/RuleOrigins.h"

#include <map>
#include <string>

namespace tessera::views {

QString synthesisedRuleOrigin(const QString& rule) {
  static const std::map<std::string, std::string> origins = synth::ruleOrigins(defaultRulesText());
  auto it = origins.find(rule.toStdString());
  return it == origins.end() ? QString() : QString::fromStdString(it->second);
}

} // namespace tessera::views
