// The history in a PostgreSQL database (a DSN given to --db), over libpq.
#include <libpq-fe.h>

#include <cstdlib>

#include "common/errors.hpp"
#include "history/history_sql.hpp"

namespace perfgate::history {

namespace {

class PostgresSql : public Sql {
 public:
  explicit PostgresSql(const std::string& dsn) {
    conn_ = PQconnectdb(dsn.c_str());
    if (PQstatus(conn_) != CONNECTION_OK) {
      std::string m = PQerrorMessage(conn_);
      PQfinish(conn_);
      while (!m.empty() && m.back() == '\n') m.pop_back();
      throw RunError("cannot connect to the history database: " + m);
    }
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);  // "relation already exists, skipping"
  }
  ~PostgresSql() override { PQfinish(conn_); }
  long long exec(const std::string& sql, const std::vector<Value>& params) override {
    long long changed = 0;
    run(sql, params, &changed);
    return changed;
  }
  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override { return run(sql, params); }
  // Row locks and ON CONFLICT serialise writers of one run; nothing more is needed.
  void begin_write() override { run("BEGIN", {}); }
  // Concurrent CREATE TABLE IF NOT EXISTS can fail on PostgreSQL's catalog (pg_type's unique
  // index), and two migrations would add one column twice: an advisory lock, held to commit,
  // makes them one at a time.
  void begin_schema_change() override {
    run("BEGIN", {});
    run("SELECT pg_advisory_xact_lock(" + std::to_string(kSchemaLockKey) + ")", {});
  }
  std::string list_tables() const override {
    return "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'perfgate_%'";
  }
  bool shared_with_others() const override { return true; }

 private:
  static std::string dollars(const std::string& sql) {
    std::string out;
    for (std::size_t i = 0; i < sql.size(); ++i) out += sql[i] == '?' ? '$' : sql[i];
    return out;
  }
  static constexpr long long kSchemaLockKey = 0x7065726667617465;  // "perfgate"
  std::vector<Row> run(const std::string& sql, const std::vector<Value>& params, long long* changed = nullptr) {
    std::vector<std::string> texts;
    for (const auto& p : params) texts.push_back(p.as_text());
    std::vector<const char*> values;
    for (std::size_t i = 0; i < params.size(); ++i)
      values.push_back(params[i].kind == Value::Null ? nullptr : texts[i].c_str());
    PGresult* res = PQexecParams(conn_, dollars(sql).c_str(), static_cast<int>(params.size()), nullptr, values.data(),
                                 nullptr, nullptr, 0);
    const auto status = PQresultStatus(res);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      std::string m = PQresultErrorMessage(res);
      PQclear(res);
      while (!m.empty() && m.back() == '\n') m.pop_back();
      throw RunError("history database (PostgreSQL): " + m);
    }
    if (changed) {
      const char* n = PQcmdTuples(res);
      *changed = n && *n ? std::atoll(n) : 0;
    }
    std::vector<Row> rows;
    for (int r = 0; r < PQntuples(res); ++r) {
      Row row;
      for (int c = 0; c < PQnfields(res); ++c)
        row.push_back(PQgetisnull(res, r, c) ? std::nullopt : std::optional<std::string>(PQgetvalue(res, r, c)));
      rows.push_back(std::move(row));
    }
    PQclear(res);
    return rows;
  }
  PGconn* conn_ = nullptr;
};

}  // namespace

std::unique_ptr<Sql> connect_postgres(const std::string& dsn) { return std::make_unique<PostgresSql>(dsn); }

}  // namespace perfgate::history
