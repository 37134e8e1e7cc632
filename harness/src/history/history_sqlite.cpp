// The history in a SQLite file (the default, .perfgate/history.sqlite).
#include <sqlite3.h>

#include "common/errors.hpp"
#include "history/history_sql.hpp"

namespace perfgate::history {

namespace {

class SqliteSql : public Sql {
 public:
  explicit SqliteSql(const std::string& path) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
      std::string m = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw RunError("cannot open the history database " + path + ": " + m);
    }
    // Another perfgate adding its runs holds the write lock a few milliseconds per run; a whole
    // fleet's results added at once can queue for far longer.
    sqlite3_busy_timeout(db_, 60000);
  }
  ~SqliteSql() override { sqlite3_close(db_); }
  long long exec(const std::string& sql, const std::vector<Value>& params) override {
    run(sql, params, nullptr);
    return sqlite3_changes(db_);
  }
  // IMMEDIATE: a deferred transaction that reads and then writes fails at once with SQLITE_BUSY
  // (no busy wait) when another writer got there between the two.
  void begin_write() override { run("BEGIN IMMEDIATE", {}, nullptr); }
  void begin_schema_change() override { begin_write(); }
  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override {
    std::vector<Row> rows;
    run(sql, params, &rows);
    return rows;
  }
  std::string list_tables() const override { return "SELECT name FROM sqlite_master WHERE type = 'table'"; }
  bool shared_with_others() const override { return false; }

 private:
  void run(const std::string& sql, const std::vector<Value>& params, std::vector<Row>* rows) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail();
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int k = static_cast<int>(i) + 1;
      const Value& v = params[i];
      if (v.kind == Value::Null)
        sqlite3_bind_null(st, k);
      else if (v.kind == Value::Text)
        sqlite3_bind_text(st, k, v.text.c_str(), -1, SQLITE_TRANSIENT);
      else if (v.kind == Value::Real)
        sqlite3_bind_double(st, k, v.real);
      else
        sqlite3_bind_int64(st, k, v.integer);
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (!rows) continue;
      Row r;
      for (int c = 0; c < sqlite3_column_count(st); ++c)
        if (sqlite3_column_type(st, c) == SQLITE_NULL)
          r.push_back(std::nullopt);
        else if (sqlite3_column_type(st, c) == SQLITE_FLOAT)  // as text SQLite keeps 15 digits: not the value
          r.push_back(Value::of(sqlite3_column_double(st, c)).as_text());
        else
          r.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c))));
      rows->push_back(std::move(r));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) fail();
  }
  [[noreturn]] void fail() {
    const int code = sqlite3_errcode(db_);
    const std::string m = sqlite3_errmsg(db_);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
      throw UsageError(path_ + ": not a perfgate history database (" + m + ")");
    throw RunError("history database " + path_ + ": " + m);
  }
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Sql> open_sqlite(const std::string& path) { return std::make_unique<SqliteSql>(path); }

}  // namespace perfgate::history
