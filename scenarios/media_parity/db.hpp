// A SQLite connection that counts the statements it runs, and the pool the server takes them
// from. One statement is one execution of a prepared statement (however many rows it returns):
// the figure the write-up counts per request (397 on /Artists, 90 on /Items/Counts). Reads are
// read-only; a write (Pool::write) goes to the server's private copy of the library.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace media_parity {

using Value = std::variant<std::nullptr_t, long long, std::string>;

// One result row; valid inside the row callback only.
class Row {
 public:
  explicit Row(sqlite3_stmt* s) : s_(s) {}
  bool null(int i) const;
  std::string text(int i) const;  // "" for NULL
  long long integer(int i) const;
  double real(int i) const;

 private:
  sqlite3_stmt* s_;
};

class Connection {
 public:
  // mapped: PRAGMA mmap_size = 1 GiB (AFTER); otherwise SQLite's default page cache (BEFORE).
  // writable: opened read-write (the private copy's writer); otherwise read-only.
  Connection(const std::string& path, bool mapped, bool writable = false);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs `sql` (prepared once per connection) with `binds` as ?1, ?2 ...; calls `row` per row.
  void query(const std::string& sql, const std::vector<Value>& binds, const std::function<void(const Row&)>& row);
  // The first column of the first row, if any.
  std::optional<long long> scalar(const std::string& sql, const std::vector<Value>& binds);
  std::uint64_t statements() const { return statements_; }
  std::size_t prepared() const { return prepared_.size(); }  // distinct statements prepared so far
  sqlite3* handle() { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, sqlite3_stmt*> prepared_;
  std::uint64_t statements_ = 0;
};

// Connections are reused across requests (like a server's pool): BEFORE's unmapped page cache
// is per connection, so every pooled connection reads the same pages again.
//
// Writes (Jellyfin's mark-played) never touch the fixture: the first write copies the library
// (SQLite's online backup) into a private directory under $TMPDIR, removed with the pool, and
// from then on every connection taken opens the copy; those taken before finish on the fixture.
// Until a write, start-up and every read are what they were without one.
class Pool {
 public:
  Pool(std::string path, bool mapped);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  struct Lease {
    Pool* pool;
    std::unique_ptr<Connection> connection;
    std::uint64_t generation;
    Lease(Pool* p, std::unique_ptr<Connection> c, std::uint64_t g) : pool(p), connection(std::move(c)), generation(g) {}
    Lease(Lease&&) = default;
    ~Lease() {
      if (connection) pool->give_back(std::move(connection), generation);
    }
    Connection& operator*() { return *connection; }
  };
  Lease take();
  // Runs `work` on the private copy's writer inside BEGIN IMMEDIATE ... COMMIT (ROLLBACK when
  // it throws), one write at a time; `statements`: how many that ran, set even when it throws.
  void write(const std::function<void(Connection&)>& work, std::uint64_t& statements);
  // The private copy, once a write has made it ("" before).
  std::string private_copy() const;

 private:
  void give_back(std::unique_ptr<Connection> c, std::uint64_t generation);
  std::string path_;
  bool mapped_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::uint64_t generation_ = 0;  // bumped when path_ moves to the private copy
  std::mutex write_mutex_;
  std::string private_dir_;
  std::unique_ptr<Connection> writer_;
};

// A JSON array of strings, for `IN (SELECT value FROM json_each(?))`: one bind for any list.
std::string json_list(const std::vector<std::string>& values);

}  // namespace media_parity
