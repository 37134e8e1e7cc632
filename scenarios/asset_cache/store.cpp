#include "store.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

namespace asset_cache {

AssetStore::AssetStore(const std::string& fixture_dir) {
  const std::string path = fixture_dir + "/assets.sqlite";
  if (!std::filesystem::exists(path))
    throw std::runtime_error("no catalogue at " + path + ": build the fixture with `asset_cache seed --target " +
                             fixture_dir + "`");
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error("cannot open " + path + ": " + msg);
  }
  const char* sql =
      "SELECT a.content_gz FROM assets a JOIN versions v ON v.id = a.version_id "
      "JOIN packages p ON p.id = v.package_id WHERE p.name = ?1 AND v.version = ?2 AND a.file = ?3";
  if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &lookup_, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(db_);
    sqlite3_close(db_);
    throw std::runtime_error("the catalogue at " + path + " is not an asset_cache fixture (" + msg + "): reseed it");
  }
}

AssetStore::~AssetStore() {
  sqlite3_finalize(newest_);
  sqlite3_finalize(lookup_);
  sqlite3_close(db_);
}

std::optional<std::string> AssetStore::fetch(std::string_view package, std::string_view version,
                                             std::string_view file) {
  sqlite3_bind_text(lookup_, 1, package.data(), static_cast<int>(package.size()), SQLITE_STATIC);
  sqlite3_bind_text(lookup_, 2, version.data(), static_cast<int>(version.size()), SQLITE_STATIC);
  sqlite3_bind_text(lookup_, 3, file.data(), static_cast<int>(file.size()), SQLITE_STATIC);
  return step_blob(lookup_);
}

std::optional<std::string> AssetStore::fetch_newest(std::string_view package, std::string_view file) {
  if (!newest_ && sqlite3_prepare_v2(db_,
                                     "SELECT a.content_gz FROM assets a JOIN versions v ON v.id = a.version_id "
                                     "JOIN packages p ON p.id = v.package_id WHERE p.name = ?1 AND a.file = ?2 "
                                     "ORDER BY v.id DESC LIMIT 1",
                                     -1, &newest_, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("cannot prepare the newest-version lookup: ") + sqlite3_errmsg(db_));
  sqlite3_bind_text(newest_, 1, package.data(), static_cast<int>(package.size()), SQLITE_STATIC);
  sqlite3_bind_text(newest_, 2, file.data(), static_cast<int>(file.size()), SQLITE_STATIC);
  return step_blob(newest_);
}

std::optional<std::string> AssetStore::step_blob(sqlite3_stmt* stmt) {
  std::optional<std::string> out;
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
    out.emplace(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
  }
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    throw std::runtime_error(std::string("asset lookup failed: ") + sqlite3_errmsg(db_));
  return out;
}

}  // namespace asset_cache
