// The mail cache in SQLite: the schema, the fixture's file name and the test user, and a thin
// RAII over the C API (one connection, prepared statements) that the seeder, the snapshot
// readers and the writer share.
//
//   users(id, login, password)
//   accounts(id, user_id, name)                 three connected accounts under one user
//   mailboxes(id, account_id, name, uidvalidity, uidnext, highestmodseq, recent_from_uid)
//   messages(id, mailbox_id, uid, modseq, flags TEXT, internal_date TEXT, size, message_id, subject)
//
// `flags` is the space-separated IMAP flag list as the upstream server sent it ("\Seen
// \Flagged $Forwarded"), `internal_date` IMAP's date-time ("17-Jul-2026 02:44:25 +0000").
// A mailbox's name as the proxy shows it: the primary account's mailboxes by their own name
// (INBOX, Sent...), the others' as "<account>/<mailbox>".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace imap_select {

inline constexpr const char* kCacheFile = "mail.sqlite";
inline constexpr const char* kUser = "alice@example.test";
inline constexpr const char* kPassword = "imap-select-pw";

inline constexpr const char* kSchema = R"sql(
CREATE TABLE users (id INTEGER PRIMARY KEY, login TEXT NOT NULL UNIQUE, password TEXT NOT NULL);
CREATE TABLE accounts (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), name TEXT NOT NULL);
CREATE TABLE mailboxes (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id),
                        name TEXT NOT NULL, uidvalidity INTEGER NOT NULL, uidnext INTEGER NOT NULL,
                        highestmodseq INTEGER NOT NULL, recent_from_uid INTEGER NOT NULL,
                        UNIQUE (account_id, name));
CREATE TABLE messages (id INTEGER PRIMARY KEY, mailbox_id INTEGER NOT NULL REFERENCES mailboxes(id),
                       uid INTEGER NOT NULL, modseq INTEGER NOT NULL, flags TEXT NOT NULL,
                       internal_date TEXT NOT NULL, size INTEGER NOT NULL, message_id TEXT NOT NULL,
                       subject TEXT NOT NULL, UNIQUE (mailbox_id, uid));
)sql";

class Statement;

// One connection. Opening sets WAL and a busy timeout (only writers ever wait: WAL readers
// see the last commit without taking the write lock).
class Db {
 public:
  enum class Mode { ReadOnly, ReadWrite, Create };
  Db(const std::string& path, Mode mode);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  void exec(const char* sql);
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Db& db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, std::string_view v);
  bool step();  // true: a row is ready
  void reset();
  std::int64_t i64(int col) const;
  std::string_view text(int col) const;

 private:
  Db& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN (or `begin`) now, COMMIT on commit(), ROLLBACK if left without committing.
class Transaction {
 public:
  explicit Transaction(Db& db, const char* begin = "BEGIN");
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Db& db_;
  bool open_ = true;
};

// Every mailbox as the proxy shows it ("INBOX", "Sent", "work/INBOX"...) with its id, in id order.
std::vector<std::pair<std::string, std::int64_t>> list_mailboxes(Db& db);
// The id of the shown name (INBOX, also after an account's "/", case-insensitively); 0: none.
std::int64_t find_mailbox(const std::vector<std::pair<std::string, std::int64_t>>& mailboxes, std::string_view name);

// A consistent copy of the cache at `from` into a new file `to` (SQLite's online backup).
void copy_database(const std::string& from, const std::string& to);

}  // namespace imap_select
