// The session file's schema: the application_id tag, the schema version kept in user_version and
// the migrations that bring an older file up to date, plus the read-only check a file passes
// before a Session writes anything to it.
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

namespace sql {
class Database;
}

namespace session_schema {

constexpr int64_t kApplicationId = 0x5453534E; // "TSSN"
// v1: models, runs, events, candidates, node origins. v2: user decisions and measured op costs.
// v3: egraph_rebased events. v4: runs.in_sample.
constexpr int kCurrentVersion = 4;

// Reads the file without changing it (raw header, then a read-only connection) and returns its
// schema version. Throws tessera::Error naming the file for a missing file, one that is not
// SQLite, not a Tessera session, truncated, corrupt or written by a newer Tessera.
int checkFile(const std::string& path);

// Runs the migrations from the database's user_version up to `target`, each with its version bump
// in one IMMEDIATE transaction. Tests pass a lower target to make older files.
void migrate(sql::Database& db, int target = kCurrentVersion);

} // namespace session_schema

} // namespace tessera
