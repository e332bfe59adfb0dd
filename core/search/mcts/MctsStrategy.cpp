#include "search/MctsStrategy.h"

#include "support/Error.h"

namespace tessera {

// Placeholder until the MCTS search lands: refuses to run rather than pretending.
std::unique_ptr<Strategy> makeMctsStrategy() { throw Error("strategy 'mcts' is not built yet"); }

} // namespace tessera
