// /Items, /Items/Latest, /UserItems/Resume, /Search/Hints: pages of items described whole.
#include <algorithm>

#include "access.hpp"
#include "describe.hpp"
#include "listing.hpp"
#include "routes.hpp"
#include "schema.hpp"

namespace media_parity {

namespace {

const std::vector<std::string> kListable = {"Movie",       "Series",     "Season", "Episode",
                                            "MusicArtist", "MusicAlbum", "Audio"};

std::string user_data_exists(Where& w, const std::string& user, const std::string& condition) {
  return "EXISTS (SELECT 1 FROM UserData u WHERE u.ItemId = b.Id AND u.UserId = " + w.bind(user) + " AND " + condition +
         ")";
}

// Genres=Action|Comedy / Studios=...: items carrying one of the named values.
void named_values(Where& w, const Request& q, const char* param, int type) {
  std::vector<std::string> names;
  const std::string v = q.get(param);
  for (std::size_t start = 0; start < v.size();) {
    auto end = std::min(v.find('|', start), v.size());
    if (end > start) {
      std::string n = v.substr(start, end - start);
      std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      names.push_back(n);
    }
    start = end + 1;
  }
  if (names.empty()) return;
  w.and_(
      "EXISTS (SELECT 1 FROM ItemValuesMap m JOIN ItemValues v ON v.ItemValueId = m.ItemValueId WHERE "
      "m.ItemId = b.Id AND v.Type = " +
      w.bind(static_cast<long long>(type)) + " AND v.CleanValue IN (SELECT value FROM json_each(" +
      w.bind(json_list(names)) + ")))");
}

// The /Items filter. BEFORE calls it for the page and again for the count, deriving the
// user's libraries each time (Access); AFTER's Access answers the second from the first.
Where items_where(Access& access, const Request& q) {
  Where w;
  w.sql = "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(access.libraries()) + "))";
  w.and_("b.Type IN (SELECT value FROM json_each(" + w.bind(item_types(q, kListable)) + "))");
  for (const auto& f : q.list("Filters")) {
    if (f == "IsPlayed")
      w.and_(user_data_exists(w, access.user(), "u.Played = 1"));
    else if (f == "IsUnplayed")
      w.and_("NOT " + user_data_exists(w, access.user(), "u.Played = 1"));
    else if (f == "IsFavorite")
      w.and_(user_data_exists(w, access.user(), "u.IsFavorite = 1"));
    else if (f == "IsResumable")
      w.and_(user_data_exists(w, access.user(), "u.PlaybackPositionTicks > 0"));
    else
      throw HttpError(400, "Filters: unknown filter '" + f + "' (IsPlayed, IsUnplayed, IsFavorite, IsResumable)");
  }
  named_values(w, q, "Genres", kGenre);
  named_values(w, q, "Studios", kStudio);
  if (q.has("SearchTerm")) w.and_("b.CleanName LIKE " + w.bind("%" + q.get("SearchTerm") + "%"));
  return w;
}

// `tiebreak` false is the lie "no-tiebreak": items of one SortName come in whatever order the
// scan leaves them.
std::string order_by(Where& w, const Request& q, const std::string& user, bool tiebreak) {
  const std::string dir = q.descending() ? " DESC" : " ASC";
  const auto sorts = q.list("SortBy");
  const std::string by = sorts.empty() ? "SortName" : sorts.front();
  if (by == "SortName") return "b.SortName" + dir + (tiebreak ? ", b.Id" + dir : "");
  if (by == "DateCreated") return "b.DateCreated" + dir + ", b.Id" + dir;
  if (by == "PremiereDate") return "b.PremiereDate" + dir + ", b.Id" + dir;
  if (by == "DatePlayed")
    return "(SELECT MAX(u.LastPlayedDate) FROM UserData u WHERE u.ItemId = b.Id AND u.UserId = " + w.bind(user) + ")" +
           dir + ", b.SortName" + dir + ", b.Id" + dir;
  throw HttpError(400, "SortBy: unsupported sort '" + by + "' (SortName, DateCreated, PremiereDate, DatePlayed)");
}

std::vector<ItemRow> page_rows(Connection& db, Where w, const std::string& order, const PageSpan& span) {
  std::vector<ItemRow> rows;
  const std::string sql = std::string("SELECT ") + kItemColumns + " FROM BaseItems b WHERE " + w.sql + " ORDER BY " +
                          order + " LIMIT " + w.bind(span.limit) + " OFFSET " + w.bind(span.start);
  db.query(sql, w.binds, [&](const Row& r) { rows.push_back(read_item(r)); });
  return rows;
}

long long count_of(Connection& db, const Where& w) {
  return db.scalar("SELECT COUNT(*) FROM BaseItems b WHERE " + w.sql, w.binds).value_or(0);
}

}  // namespace

Json items(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  const PageSpan span = PageSpan::of(q, 100);
  Where w = items_where(access, q);
  const std::string order = order_by(w, q, access.user(), !o.lie_no_tiebreak);
  const auto rows = page_rows(db, w, order, span);
  // The lie "total-from-page": no count, the total guessed from the page (right on a last page only).
  const long long total =
      o.lie_total_from_page ? span.start + static_cast<long long>(rows.size()) : count_of(db, items_where(access, q));
  return envelope(describe(db, rows, access.user(), Wanted::from(q), o), total, span.start);
}

Json latest(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  Where w;
  w.sql = "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(access.libraries()) + "))";
  w.and_("b.Type IN (SELECT value FROM json_each(" + w.bind(item_types(q, {"Movie", "Episode", "MusicAlbum"})) + "))");
  w.and_("NOT " + user_data_exists(w, access.user(), "u.Played = 1"));
  const auto rows = page_rows(db, w, "b.DateCreated DESC, b.Id DESC", {0, std::min(q.integer("Limit", 20), 100LL)});
  return describe(db, rows, access.user(), Wanted::from(q), o);
}

Json resume(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  const PageSpan span = PageSpan::of(q, 12);
  auto where = [&] {
    Where w;
    w.sql = "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(access.libraries()) + "))";
    w.and_(user_data_exists(w, access.user(), "u.PlaybackPositionTicks > 0 AND u.Played = 0"));
    if (const auto media = q.list("MediaTypes"); !media.empty())
      w.and_("b.MediaType IN (SELECT value FROM json_each(" + w.bind(json_list(media)) + "))");
    return w;
  };
  Where w = where();
  const std::string order =
      "(SELECT MAX(u.LastPlayedDate) FROM UserData u WHERE u.ItemId = b.Id AND u.UserId = " + w.bind(access.user()) +
      ") DESC, b.Id DESC";
  const auto rows = page_rows(db, w, order, span);
  const long long total = count_of(db, where());
  return envelope(describe(db, rows, access.user(), Wanted::from(q), o), total, span.start);
}

Json search_hints(Connection& db, const Request& q, const ServeOptions& o) {
  const std::string term = q.get("SearchTerm");
  if (term.empty()) throw HttpError(400, "query parameter SearchTerm is required");
  Access access(db, q, o);
  const PageSpan span = PageSpan::of(q, 20);
  auto where = [&] {
    Where w;
    w.sql = "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(access.libraries()) + "))";
    w.and_("b.Type IN (SELECT value FROM json_each(" +
           w.bind(item_types(q, {"Movie", "Series", "Episode", "MusicArtist", "MusicAlbum", "Audio"})) + "))");
    w.and_("b.CleanName LIKE " + w.bind("%" + term + "%"));
    return w;
  };
  const auto rows = page_rows(db, where(), "b.SortName ASC, b.Id ASC", span);
  const long long total = count_of(db, where());
  Json hints = Json::array();
  for (const auto& d : describe(db, rows, access.user(), Wanted{}, o)) {
    Json h;
    h["ItemId"] = d["Id"];
    h["Id"] = d["Id"];
    h["Name"] = d["Name"];
    for (const char* k :
         {"IndexNumber", "ProductionYear", "RunTimeTicks", "MediaType", "SeriesName", "Album", "AlbumArtist"})
      if (d.contains(k)) h[k == std::string("SeriesName") ? "Series" : k] = d[k];
    if (d["ImageTags"].contains("Primary")) h["PrimaryImageTag"] = d["ImageTags"]["Primary"];
    h["Type"] = d["Type"];
    h["IsFolder"] = d["IsFolder"];
    hints.push_back(std::move(h));
  }
  Json out;
  out["SearchHints"] = std::move(hints);
  out["TotalRecordCount"] = total;
  return out;
}

}  // namespace media_parity
