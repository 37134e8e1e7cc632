// One API request as the handlers see it: the route, its decoded query parameters, and how
// this server answers (variant, test flags, lie).
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace media_parity {

class ResponseCache;  // server.hpp: the lie "played-cache"

// Jellyfin's DTOs keep their declared field order; so do ours (and both variants share it).
using Json = nlohmann::ordered_json;

struct HttpError : std::runtime_error {
  int status;
  HttpError(int s, const std::string& what) : std::runtime_error(what), status(s) {}
};

struct ServeOptions {
  bool after = false;                     // --variant after: the fixed read path
  bool fill_people = false;               // --test-fill-people: People on every item that has a cast
  bool empty_lists = false;               // --test-empty-lists: every list answered empty
  bool lie_no_people = false;             // --lie no-people: Fields=People answered without People
  bool lie_stale_counts = false;          // --lie stale-counts: /Items/Counts from the first answer's counts
  bool lie_no_tiebreak = false;           // --lie no-tiebreak: /Items sorted by SortName without the Id tiebreak
  bool lie_total_from_page = false;       // --lie total-from-page: /Items' TotalRecordCount not counted
  bool lie_all_folders = false;           // --lie all-folders: every library, the user's restriction unread
  bool lie_default_user = false;          // --lie default-user: no or an unknown UserId answered as the administrator
  bool lie_ignore_disabled = false;       // --lie ignore-disabled: a disabled user's libraries served
  bool lie_precompute_libraries = false;  // --lie precompute-libraries: every user's libraries derived before listen
  bool lie_played_cache = false;          // --lie played-cache: GET answers kept, never invalidated
  bool lie_prepared_count = false;        // --lie prepared-count: X-Perfgate-Statements counts preparations only
  // The lie "played-cache": the cache itself (server.hpp), made by serve().
  std::shared_ptr<ResponseCache> response_cache;
  // The lie "precompute-libraries": user id -> library ids, derived once before the server listens.
  std::shared_ptr<const std::map<std::string, std::vector<std::string>>> precomputed;
};

class Request {
 public:
  // target: "/Items?Recursive=true&..." (percent- and '+'-decoded here).
  explicit Request(const std::string& target);
  const std::string& path() const { return path_; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  bool has(const std::string& name) const { return params_.count(name) != 0; }
  // A non-negative integer parameter; 400 naming it when it is not one.
  long long integer(const std::string& name, long long fallback) const;
  // A comma-separated list ("Movie,Episode"), empty entries dropped.
  std::vector<std::string> list(const std::string& name) const;
  // Fields=People,Overview,...: whether `field` was asked for.
  bool field(const std::string& field) const;
  bool descending() const { return get("SortOrder", "Ascending") == "Descending"; }
  // The route and its parameters in name order ("/Items?Limit=50&UserId=user03"): the same
  // question whatever order a client wrote its parameters in.
  std::string key() const;

 private:
  std::string path_;
  std::map<std::string, std::string> params_;
};

}  // namespace media_parity
