// A thin RAII layer over SQLite: a connection, prepared statements with typed binds, and
// transactions that roll back unless committed. Errors throw tessera::Error naming the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tessera::sql {

class Database;

class Statement {
public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& other) noexcept;

  // 1-based parameter index, as in SQLite.
  Statement& bind(int index, int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bindBlob(int index, std::string_view bytes);
  Statement& bindNull(int index);

  // Advances; false when done. Throws on error.
  bool step();
  // Runs to completion (for statements without results).
  void run();
  void reset();

  int64_t columnInt(int column) const;
  double columnDouble(int column) const;
  std::string columnText(int column) const;
  std::string columnBlob(int column) const;
  bool columnIsNull(int column) const;

private:
  Database* db_;
  sqlite3_stmt* statement_ = nullptr;
};

class Database {
public:
  enum class Mode { ReadWrite, ReadOnly, Create };
  // Opens (or creates) the file. Create and ReadWrite set WAL, foreign keys and synchronous=NORMAL.
  Database(const std::string& path, Mode mode);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void execute(std::string_view sql); // one or more statements without results
  int64_t queryInt(std::string_view sql);
  int64_t lastInsertId() const;
  int64_t changes() const; // rows changed by the last INSERT, UPDATE or DELETE
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }
  [[noreturn]] void fail(const std::string& what) const;

private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE on construction; ROLLBACK in the destructor unless commit() was called.
class Transaction {
public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

private:
  Database& db_;
  bool done_ = false;
};

} // namespace tessera::sql
