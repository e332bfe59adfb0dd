#include "search/TasoStrategy.h"

#include "support/Error.h"

namespace tessera {

// Placeholder until the TASO search lands: refuses to run rather than pretending.
std::unique_ptr<Strategy> makeTasoStrategy(bool greedy) {
  (void)greedy; throw Error("strategy 'taso' is not built yet"); }

} // namespace tessera
