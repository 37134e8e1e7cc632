#include "db.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace media_parity {

bool Row::null(int i) const { return sqlite3_column_type(s_, i) == SQLITE_NULL; }
std::string Row::text(int i) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, i))) : std::string();
}
long long Row::integer(int i) const { return sqlite3_column_int64(s_, i); }
double Row::real(int i) const { return sqlite3_column_double(s_, i); }

Connection::Connection(const std::string& path, bool mapped) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error("no library at " + path + ": build the fixture with `media_parity seed --target DIR`");
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error("cannot open " + path + ": " + msg);
  }
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

Pool::Pool(std::string path, bool mapped) : path_(std::move(path)), mapped_(mapped) {
  idle_.push_back(std::make_unique<Connection>(path_, mapped_));  // fails now, not at the first request
}

Pool::Lease Pool::take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      auto c = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(c));
    }
  }
  return Lease(this, std::make_unique<Connection>(path_, mapped_));
}

void Pool::give_back(std::unique_ptr<Connection> c) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.push_back(std::move(c));
}

std::string json_list(const std::vector<std::string>& values) { return nlohmann::json(values).dump(); }

}  // namespace media_parity
