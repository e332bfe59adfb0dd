// Where a synthesised rule of the default pack came from: `rules synthesize` writes each rule after a
// comment naming the enumerated pattern pair it was found from (core/synth/RuleOrigins.h).
#pragma once

#include <QString>

namespace tessera::views {

// The origin of `rule` in the default pack, or an empty string for a rule that was not synthesised.
QString synthesisedRuleOrigin(const QString& rule);

} // namespace tessera::views
