#include "db.hpp"

#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "schema.hpp"

namespace media_parity {

namespace fs = std::filesystem;

bool Row::null(int i) const { return sqlite3_column_type(s_, i) == SQLITE_NULL; }
std::string Row::text(int i) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, i))) : std::string();
}
long long Row::integer(int i) const { return sqlite3_column_int64(s_, i); }
double Row::real(int i) const { return sqlite3_column_double(s_, i); }

Connection::Connection(const std::string& path, bool mapped, bool writable) {
  if (!fs::exists(path))
    throw std::runtime_error("no library at " + path + ": build the fixture with `media_parity seed --target DIR`");
  const int mode = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, mode, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open " + path + ": " + msg);
  }
  sqlite3_busy_timeout(db_, 10000);  // a reader of the private copy waits out a write's commit
  if (mapped) sqlite3_exec(db_, "PRAGMA mmap_size = 1073741824", nullptr, nullptr, nullptr);
}

Connection::~Connection() {
  for (auto& [sql, s] : prepared_) sqlite3_finalize(s);
  sqlite3_close(db_);
}

void Connection::query(const std::string& sql, const std::vector<Value>& binds,
                       const std::function<void(const Row&)>& row) {
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr) != SQLITE_OK)
      throw std::runtime_error("cannot prepare (" + std::string(sqlite3_errmsg(db_)) + "): " + sql);
    it = prepared_.emplace(sql, s).first;
  }
  sqlite3_stmt* s = it->second;
  for (std::size_t i = 0; i < binds.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    if (const auto* t = std::get_if<std::string>(&binds[i]))
      sqlite3_bind_text(s, n, t->data(), static_cast<int>(t->size()), SQLITE_STATIC);
    else if (const auto* v = std::get_if<long long>(&binds[i]))
      sqlite3_bind_int64(s, n, *v);
    else
      sqlite3_bind_null(s, n);
  }
  ++statements_;
  int rc;
  Row r(s);
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) row(r);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  if (rc != SQLITE_DONE) throw std::runtime_error("query failed (" + std::string(sqlite3_errmsg(db_)) + "): " + sql);
}

std::optional<long long> Connection::scalar(const std::string& sql, const std::vector<Value>& binds) {
  std::optional<long long> out;
  query(sql, binds, [&](const Row& r) {
    if (!out && !r.null(0)) out = r.integer(0);
  });
  return out;
}

namespace {

// A directory of this server's own under $TMPDIR (the harness gives each server one).
std::string make_private_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = (fs::path(base && *base ? base : "/tmp") / "media_parity-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a directory under " + tmpl);
  return tmpl;
}

// A consistent copy of the library at `from` into a new file `to` (SQLite's online backup).
void copy_library(Connection& from, const std::string& to) {
  sqlite3* target = nullptr;
  if (sqlite3_open_v2(to.c_str(), &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string msg = target ? sqlite3_errmsg(target) : "out of memory";
    sqlite3_close(target);
    throw std::runtime_error("cannot create " + to + ": " + msg);
  }
  sqlite3_backup* b = sqlite3_backup_init(target, "main", from.handle(), "main");
  const int rc = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
  if (b) sqlite3_backup_finish(b);
  const std::string msg = sqlite3_errmsg(target);
  sqlite3_close(target);
  if (rc != SQLITE_DONE) throw std::runtime_error("cannot copy the library to " + to + ": " + msg);
}

}  // namespace

Pool::Pool(std::string path, bool mapped) : path_(std::move(path)), mapped_(mapped) {
  idle_.push_back(std::make_unique<Connection>(path_, mapped_));  // fails now, not at the first request
}

Pool::~Pool() {
  writer_.reset();
  idle_.clear();
  if (!private_dir_.empty()) {
    std::error_code ec;
    fs::remove_all(private_dir_, ec);
  }
}

Pool::Lease Pool::take() {
  std::string path;
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      auto c = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(c), generation_);
    }
    path = path_;
    generation = generation_;
  }
  return Lease(this, std::make_unique<Connection>(path, mapped_), generation);
}

void Pool::give_back(std::unique_ptr<Connection> c, std::uint64_t generation) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (generation == generation_) idle_.push_back(std::move(c));  // else: a connection to the fixture, closed
}

void Pool::write(const std::function<void(Connection&)>& work, std::uint64_t& statements) {
  std::lock_guard<std::mutex> writing(write_mutex_);
  if (!writer_) {
    const std::string dir = make_private_dir();
    const std::string copy = (fs::path(dir) / kDatabaseFile).string();
    try {
      auto source = take();
      copy_library(*source, copy);
      writer_ = std::make_unique<Connection>(copy, mapped_, true);
    } catch (...) {
      std::error_code ec;
      fs::remove_all(dir, ec);
      throw;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    private_dir_ = dir;
    path_ = copy;
    idle_.clear();
    ++generation_;
  }
  auto none = [](const Row&) {};
  const std::uint64_t before = writer_->statements();
  try {
    writer_->query("BEGIN IMMEDIATE", {}, none);
    work(*writer_);
    writer_->query("COMMIT", {}, none);
  } catch (...) {
    sqlite3_exec(writer_->handle(), "ROLLBACK", nullptr, nullptr, nullptr);  // none left when COMMIT failed
    statements = writer_->statements() - before + 1;
    throw;
  }
  statements = writer_->statements() - before;
}

std::string Pool::private_copy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return private_dir_.empty() ? std::string() : path_;
}

std::string json_list(const std::vector<std::string>& values) { return nlohmann::json(values).dump(); }

}  // namespace media_parity
