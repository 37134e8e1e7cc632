#include "mail_db.hpp"

#include <sqlite3.h>
#include <strings.h>

#include <stdexcept>

namespace imap_select {

namespace {
[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw std::runtime_error(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}
}  // namespace

Db::Db(const std::string& path, Mode mode) : path_(path) {
  const int flags = mode == Mode::ReadOnly    ? SQLITE_OPEN_READONLY
                    : mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE
                                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    const std::string msg = "cannot open the mail cache " + path;
    sqlite3_close(db_);
    db_ = nullptr;
    fail(nullptr, msg + (mode == Mode::Create ? "" : " (made by `imap_select seed`)"));
  }
  sqlite3_busy_timeout(db_, 10000);
  if (mode != Mode::ReadOnly) exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
}

Db::~Db() { sqlite3_close(db_); }

void Db::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = std::string(path_) + ": " + (err ? err : "error");
    sqlite3_free(err);
    throw std::runtime_error(msg);
  }
}

Statement::Statement(Db& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v3(db.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK)
    fail(db.handle(), db.path() + ": cannot prepare '" + sql + "'");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}

Statement& Statement::bind(int i, std::string_view v) {
  sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_.handle(), db_.path() + ": " + sqlite3_sql(stmt_));
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::i64(int col) const { return sqlite3_column_int64(stmt_, col); }

std::string_view Statement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : std::string_view();
}

Transaction::Transaction(Db& db, const char* begin) : db_(db) { db_.exec(begin); }

Transaction::~Transaction() {
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

std::vector<std::pair<std::string, std::int64_t>> list_mailboxes(Db& db) {
  // The primary account (the lowest id) shows its mailboxes bare, the others under their name.
  Statement q(db,
              "SELECT CASE WHEN a.id = (SELECT MIN(id) FROM accounts) THEN m.name ELSE a.name || '/' || m.name END, "
              "m.id FROM mailboxes m JOIN accounts a ON a.id = m.account_id ORDER BY m.id");
  std::vector<std::pair<std::string, std::int64_t>> out;
  while (q.step()) out.emplace_back(std::string(q.text(0)), q.i64(1));
  return out;
}

std::int64_t find_mailbox(const std::vector<std::pair<std::string, std::int64_t>>& mailboxes, std::string_view name) {
  // RFC 3501 5.1: INBOX is case-insensitive; the rest of a name is not.
  auto inbox_at = [](std::string_view s, std::size_t at) {
    return s.size() == at + 5 && strncasecmp(s.data() + at, "INBOX", 5) == 0;
  };
  for (const auto& [shown, id] : mailboxes) {
    if (shown == name) return id;
    const std::size_t at = shown.size() - 5;
    if (shown.size() >= 5 && shown.compare(at, 5, "INBOX") == 0 && name.size() == shown.size() &&
        name.substr(0, at) == std::string_view(shown).substr(0, at) && inbox_at(name, at))
      return id;
  }
  return 0;
}

void copy_database(const std::string& from, const std::string& to) {
  Db source(from, Db::Mode::ReadOnly);
  Db target(to, Db::Mode::Create);
  sqlite3_backup* b = sqlite3_backup_init(target.handle(), "main", source.handle(), "main");
  if (!b) fail(target.handle(), "cannot copy " + from + " to " + to);
  const int rc = sqlite3_backup_step(b, -1);
  sqlite3_backup_finish(b);
  if (rc != SQLITE_DONE) fail(target.handle(), "cannot copy " + from + " to " + to);
  target.exec("PRAGMA journal_mode=WAL");
}

}  // namespace imap_select
