// Where synthesised rules came from: a pack written by `rules synthesize` puts a comment
// `# origin: <the enumerated pattern pair>` before each rule. Comments are not part of a rule, so
// the explorer reads them from the pack's text by rule name.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tessera::synth {

// Rule name -> origin, for each rule line directly preceded by an `# origin:` comment.
std::map<std::string, std::string> ruleOrigins(std::string_view packText);

} // namespace tessera::synth
