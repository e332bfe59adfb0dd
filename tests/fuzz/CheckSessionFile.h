// What a session fuzz input goes through: the bytes written to a scratch .tsession, opened, and
// read the way `tessera-cli session` and the replay view do (models and candidates loaded as
// graphs, every run's event log folded through a ReplayModel). The contract (Session.h): a
// malformed session is a tessera::Error naming the file, never a crash, and a file refused on
// open is left byte for byte as it was. Shared by fuzz_session and tests/session's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "ir/Graph.h"
#include "replay/ReplayModel.h"
#include "session/Session.h"
#include "support/Error.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::fuzz {

// A fuzzed file can claim many rows; one input must stay fast.
constexpr size_t kMaxGraphLoads = 4;

// SQLite's companion files would carry state from one input to the next.
inline void removeSessionFiles(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path + suffix);
}

inline void readWholeSession(Session& session) {
  std::vector<ModelRecord> models = session.models();
  for (size_t i = 0; i < std::min(models.size(), kMaxGraphLoads); ++i) {
    try {
      session.loadModel(models[i].id).topologicalOrder();
    } catch (const Error&) {
    }
  }
  for (const RunRecord& run : session.runs()) {
    ReplayModel replay(16);
    replay.append(session.events(run.id));
    replay.seekToEnd();
    replay.seekToIndex(replay.size() / 2);
    session.eventCount(run.id);
    session.decisions(run.id);
  }
  std::vector<CandidateRecord> candidates = session.candidates();
  for (size_t i = 0; i < std::min(candidates.size(), kMaxGraphLoads); ++i) {
    session.provenance(candidates[i].id);
    try {
      session.loadCandidate(candidates[i].id).topologicalOrder();
    } catch (const Error&) {
    }
  }
}

// Writes `bytes` to `scratch` (removing what an earlier input left there), opens and reads it.
inline FuzzOutcome checkSessionBytes(const std::string& bytes, const std::string& scratch) {
  removeSessionFiles(scratch);
  writeBytes(scratch, bytes);
  FuzzOutcome outcome;
  auto namesFile = [&](const Error& e) {
    if (std::string(e.what()).find(scratch) == std::string::npos) outcome.defect = std::string("the error does not name the file: ") + e.what();
  };
  try {
    Session session = Session::open(scratch);
    try {
      readWholeSession(session);
      outcome.accepted = true;
    } catch (const Error& e) {
      namesFile(e);
    }
  } catch (const Error& e) {
    namesFile(e);
    if (outcome.defect.empty() && fileBytes(scratch) != bytes)
      outcome.defect = std::string("a session refused on open was modified: ") + e.what();
  }
  removeSessionFiles(scratch);
  return outcome;
}

} // namespace tessera::fuzz
