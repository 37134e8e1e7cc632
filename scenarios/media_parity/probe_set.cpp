// The untimed probes the harness asks once per sample after the window (service.probes: the
// fixture's probes.txt). Written by the seeder because the write probe names a movie by its id,
// chosen from this library's user data.
#include <optional>
#include <string>
#include <vector>

#include "db.hpp"
#include "schema.hpp"
#include "seed.hpp"

namespace media_parity {

namespace {

// The first page of user03's played movies (user03 sees the movies library only), as /Items
// sorts it: SortName, then Id.
const char* const kPlayedPage =
    "/Items?Recursive=true&IncludeItemTypes=Movie&Filters=IsPlayed&SortBy=SortName&Limit=50";
constexpr const char* kProbeUser = "user03";
constexpr const char* kDatePlayed = "2024-06-01T12:00:00.0000000Z";

// A movie user03 has not played whose (SortName, Id) lies inside that page's first and last
// entry, so that marking it played puts it on the page; the first unplayed movie when the page
// has no such gap (a tiny library), any movie when every one is played.
std::string movie_to_mark(Connection& db) {
  const std::string user = [&] {
    std::string id;
    db.query("SELECT Id FROM Users WHERE Username = ?1", {std::string(kProbeUser)},
             [&](const Row& r) { id = r.text(0); });
    return id;
  }();
  const std::string movie(stored_type("Movie"));
  const std::string played =
      "EXISTS (SELECT 1 FROM UserData u WHERE u.ItemId = b.Id AND u.UserId = ?2 AND u.Played = 1)";
  std::vector<std::pair<std::string, std::string>> page;  // SortName, Id
  db.query("SELECT b.SortName, b.Id FROM BaseItems b WHERE b.Type = ?1 AND " + played +
               " ORDER BY b.SortName, b.Id LIMIT 50",
           {movie, user}, [&](const Row& r) { page.emplace_back(r.text(0), r.text(1)); });
  std::optional<std::string> id;
  auto take = [&](const Row& r) { id = r.text(0); };
  if (!page.empty())
    db.query(
        "SELECT b.Id FROM BaseItems b WHERE b.Type = ?1 AND NOT " + played +
            " AND (b.SortName, b.Id) > (?3, ?4) AND (b.SortName, b.Id) < (?5, ?6) ORDER BY b.SortName, b.Id LIMIT 1",
        {movie, user, page.front().first, page.front().second, page.back().first, page.back().second}, take);
  if (!id)
    db.query("SELECT b.Id FROM BaseItems b WHERE b.Type = ?1 AND NOT " + played + " ORDER BY b.SortName, b.Id LIMIT 1",
             {movie, user}, take);
  if (!id) db.query("SELECT b.Id FROM BaseItems b WHERE b.Type = ?1 ORDER BY b.SortName, b.Id LIMIT 1", {movie}, take);
  if (!id) throw std::runtime_error("the library has no movie for the write probe");
  return *id;
}

}  // namespace

std::vector<std::string> probe_set(const std::string& db_path) {
  Connection db(db_path, false);
  const std::string user = std::string("&UserId=") + kProbeUser;
  return {
      "# Bad input, answered with BEFORE's error: an unknown user (404), no UserId (400), a negative",
      "# StartIndex and an unsupported SortBy (400), an unknown route (404).",
      "/Items?Recursive=true&IncludeItemTypes=Movie&UserId=nobody",
      "/Items?Recursive=true&IncludeItemTypes=Movie",
      "/Items?Recursive=true&IncludeItemTypes=Movie&StartIndex=-5&UserId=user01",
      "/Items?Recursive=true&IncludeItemTypes=Movie&SortBy=Bogus&UserId=user01",
      "/Items/Nope?UserId=user01",
      "# The one disabled account (seed.cpp users): 403 \"user is disabled\" on a listing, a by-name",
      "# page and the counts.",
      std::string("/Items?Recursive=true&IncludeItemTypes=Movie&Limit=50&UserId=") + kDisabledUser,
      std::string("/Artists?Limit=50&UserId=") + kDisabledUser,
      std::string("/Items/Counts?UserId=") + kDisabledUser,
      "# A write between two asks of one page (cache.freshness): user03's played movies; an unplayed",
      "# movie of that page's range marked played (Jellyfin's mark played, a fixed datePlayed, on the",
      "# server's private copy of the library); the same page, its parameters in another order: it",
      "# must hold the movie, played on that date.",
      kPlayedPage + user,
      "POST /Users/" + std::string(kProbeUser) + "/PlayedItems/" + movie_to_mark(db) + "?datePlayed=" + kDatePlayed,
      "/Items?UserId=" + std::string(kProbeUser) + "&Limit=50&SortBy=SortName&Filters=IsPlayed&IncludeItemTypes=Movie" +
          "&Recursive=true",
  };
}

}  // namespace media_parity
