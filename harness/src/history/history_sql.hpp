// The SQL the history speaks to either database (history_sqlite.cpp, history_postgres.cpp):
// the same statements for both, placeholders ?1, ?2 ... (PostgreSQL's connection rewrites them
// to $1, $2 ...), every value bound and read as text or NULL, so the history logic above it
// (history_db.cpp) is written once.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::history {

// A bound value: text, a number, an integer or NULL.
struct Value {
  enum Kind { Null, Text, Real, Int } kind = Null;
  std::string text;
  double real = 0;
  long long integer = 0;
  static Value of(const std::string& s) { return {Text, s, 0, 0}; }
  static Value of(double d) { return {Real, "", d, 0}; }
  static Value of_int(long long i) { return {Int, "", 0, i}; }
  static Value null() { return {}; }
  std::string as_text() const {
    if (kind == Text) return text;
    if (kind == Int) return std::to_string(integer);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", real);
    return buf;
  }
};
using Row = std::vector<std::optional<std::string>>;

class Sql {
 public:
  virtual ~Sql() = default;
  // The rows the statement inserted, updated or deleted.
  virtual long long exec(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  virtual std::vector<Row> query(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  // A transaction that will write: it waits for (and then excludes) every other writer from its
  // first statement, so what it reads stays true until it commits.
  virtual void begin_write() = 0;
  // One that changes the schema: also excludes other perfgates creating or migrating the tables.
  virtual void begin_schema_change() = 0;
  // The statement listing the database's tables (its first column the name).
  virtual std::string list_tables() const = 0;
  // Whether tables of other programs may share the database (a PostgreSQL database may hold
  // anything; a SQLite file with other tables is someone else's).
  virtual bool shared_with_others() const = 0;
};

// Throws RunError when the file cannot be opened (its folder must exist).
std::unique_ptr<Sql> open_sqlite(const std::string& path);
// Throws RunError when the server cannot be reached.
std::unique_ptr<Sql> connect_postgres(const std::string& dsn);

}  // namespace perfgate::history
