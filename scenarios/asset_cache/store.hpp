// The asset catalogue in SQLite (written by `asset_cache seed`, read by `serve`).
//
//   packages(id, name UNIQUE)
//   versions(id, package_id, version, UNIQUE(package_id, version))
//   assets(id, version_id, file, content_type, raw_size, content_gz BLOB, UNIQUE(version_id, file))
//
// AssetStore is owned by the server's actor thread: one connection, one prepared statement.
#pragma once

#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace asset_cache {

inline constexpr const char* kSchema = R"sql(
CREATE TABLE packages (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE versions (id INTEGER PRIMARY KEY, package_id INTEGER NOT NULL REFERENCES packages(id),
                       version TEXT NOT NULL, UNIQUE (package_id, version));
CREATE TABLE assets (id INTEGER PRIMARY KEY, version_id INTEGER NOT NULL REFERENCES versions(id),
                     file TEXT NOT NULL, content_type TEXT NOT NULL, raw_size INTEGER NOT NULL,
                     content_gz BLOB NOT NULL, UNIQUE (version_id, file));
)sql";

class AssetStore {
 public:
  // Opens DIR/assets.sqlite read-only; throws naming the fix when it is not there.
  explicit AssetStore(const std::string& fixture_dir);
  ~AssetStore();
  AssetStore(const AssetStore&) = delete;
  AssetStore& operator=(const AssetStore&) = delete;

  // The gzip bytes of /assets/<package>/<version>/<file>, or nullopt.
  std::optional<std::string> fetch(std::string_view package, std::string_view version, std::string_view file);
  // The gzip bytes of the package's file in its newest version, or nullopt (the lie
  // "guess-version": an unknown version answered with a known one).
  std::optional<std::string> fetch_newest(std::string_view package, std::string_view file);

 private:
  std::optional<std::string> step_blob(sqlite3_stmt* stmt);
  sqlite3* db_ = nullptr;
  sqlite3_stmt* lookup_ = nullptr;
  sqlite3_stmt* newest_ = nullptr;
};

}  // namespace asset_cache
