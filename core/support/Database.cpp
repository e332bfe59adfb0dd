#include "support/Database.h"

#include "support/Error.h"

#include <sqlite3.h>

namespace tessera::sql {

Database::Database(const std::string& path, Mode mode) : path_(path) {
  int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (mode == Mode::Create) flags |= SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "cannot open";
    sqlite3_close(db_);
    db_ = nullptr;
    throw errorInFile(path, message);
  }
  try {
    sqlite3_busy_timeout(db_, 5000);
    execute("PRAGMA foreign_keys=ON");
    if (mode != Mode::ReadOnly) {
      execute("PRAGMA journal_mode=WAL");
      execute("PRAGMA synchronous=NORMAL");
    }
  } catch (...) {
    // A file that is not a database opens and then fails here; no destructor runs for it.
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

// close_v2: a statement still alive (a bug elsewhere) makes the connection wait for its
// finalization instead of leaving it open for good, as sqlite3_close would.
Database::~Database() { sqlite3_close_v2(db_); }

void Database::fail(const std::string& what) const { throw errorInFile(path_, what + ": " + sqlite3_errmsg(db_)); }

void Database::execute(std::string_view sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw errorInFile(path_, text);
  }
}

int64_t Database::queryInt(std::string_view sql) {
  Statement statement(*this, sql);
  if (!statement.step()) fail("query returned no row");
  return statement.columnInt(0);
}

int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(db_); }

int64_t Database::changes() const { return sqlite3_changes(db_); }

Statement::Statement(Database& db, std::string_view sql) : db_(&db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &statement_, nullptr) != SQLITE_OK)
    db.fail("cannot prepare '" + std::string(sql.substr(0, 60)) + "'");
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), statement_(other.statement_) { other.statement_ = nullptr; }

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement& Statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(statement_, index, value) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(statement_, index, value) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bindBlob(int index, std::string_view bytes) {
  if (sqlite3_bind_blob(statement_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Statement& Statement::bindNull(int index) {
  if (sqlite3_bind_null(statement_, index) != SQLITE_OK) db_->fail("bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_->fail("step");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int64_t Statement::columnInt(int column) const { return sqlite3_column_int64(statement_, column); }
double Statement::columnDouble(int column) const { return sqlite3_column_double(statement_, column); }
std::string Statement::columnText(int column) const {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement_, column)) : std::string();
}
std::string Statement::columnBlob(int column) const {
  const void* blob = sqlite3_column_blob(statement_, column);
  return blob ? std::string(static_cast<const char*>(blob), sqlite3_column_bytes(statement_, column)) : std::string();
}
bool Statement::columnIsNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

Transaction::Transaction(Database& db) : db_(db) { db_.execute("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (done_) return;
  try {
    db_.execute("ROLLBACK");
  } catch (...) {
    // A destructor must not throw; the connection reports the problem on its next use.
  }
}

void Transaction::commit() {
  db_.execute("COMMIT");
  done_ = true;
}

} // namespace tessera::sql
