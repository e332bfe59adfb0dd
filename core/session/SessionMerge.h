// Merging one session file into another: what launched shards recorded in sessions of their own
// becomes part of the one session a run in a single process would have written.
#pragma once

#include <cstddef>
#include <string>

namespace tessera {

class Session;

// Copies every run of the session file `from` into `into` with its event log, decisions,
// candidates and their provenance, and the measured op costs, in one transaction. A model
// already in `into` (same name and ONNX bytes) is shared; a run already there (same strategy,
// parameters, seed and start time) is not copied again, so merging the same file twice adds
// nothing. Returns the runs copied. Throws tessera::Error naming `from` when it is not a session
// this Tessera reads.
size_t mergeSession(Session& into, const std::string& from);

} // namespace tessera
