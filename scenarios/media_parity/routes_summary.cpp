// /Years, /Items/Filters2, /Items/Counts, /UserViews: answers that summarise the library.
#include <mutex>
#include <set>

#include "access.hpp"
#include "describe.hpp"
#include "listing.hpp"
#include "perfgate/sample.hpp"
#include "routes.hpp"
#include "schema.hpp"

namespace media_parity {

namespace {

const std::vector<std::string> kSummarised = {"Movie", "Series", "Episode", "MusicAlbum", "Audio"};

std::string items_in(Where& w, const std::string& libraries, const std::string& types) {
  return "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(libraries) +
         ")) AND b.Type IN (SELECT value FROM json_each(" + w.bind(types) + "))";
}

// Jellyfin's ItemCounts, each field with the type it counts.
const std::vector<std::pair<const char*, const char*>> kCountKinds = {
    {"MovieCount", "MediaBrowser.Controller.Entities.Movies.Movie"},
    {"SeriesCount", "MediaBrowser.Controller.Entities.TV.Series"},
    {"EpisodeCount", "MediaBrowser.Controller.Entities.TV.Episode"},
    {"ArtistCount", "MediaBrowser.Controller.Entities.Audio.MusicArtist"},
    {"ProgramCount", "MediaBrowser.Controller.LiveTv.LiveTvProgram"},
    {"TrailerCount", "MediaBrowser.Controller.Entities.Trailer"},
    {"SongCount", "MediaBrowser.Controller.Entities.Audio.Audio"},
    {"AlbumCount", "MediaBrowser.Controller.Entities.Audio.MusicAlbum"},
    {"MusicVideoCount", "MediaBrowser.Controller.Entities.MusicVideo"},
    {"BoxSetCount", "MediaBrowser.Controller.Entities.Movies.BoxSet"},
    {"BookCount", "MediaBrowser.Controller.Entities.Book"},
};

}  // namespace

Json years(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  const PageSpan span = PageSpan::of(q, 100);
  const bool descending = q.descending();
  std::vector<long long> page;
  long long total = 0;
  Where w;
  const std::string where =
      items_in(w, access.libraries(), item_types(q, kSummarised)) + " AND b.ProductionYear IS NOT NULL";
  if (o.after) {
    Where p = w;
    db.query("SELECT b.ProductionYear FROM BaseItems b WHERE " + where + " GROUP BY b.ProductionYear ORDER BY " +
                 "b.ProductionYear" + (descending ? " DESC" : " ASC") + " LIMIT " + p.bind(span.limit) + " OFFSET " +
                 p.bind(span.start),
             p.binds, [&](const Row& r) { page.push_back(r.integer(0)); });
    total = db.scalar("SELECT COUNT(DISTINCT b.ProductionYear) FROM BaseItems b WHERE " + where, w.binds).value_or(0);
  } else {
    // Every row of the library is read to keep one integer column.
    std::set<long long> all;
    db.query("SELECT b.ProductionYear FROM BaseItems b WHERE " + where, w.binds,
             [&](const Row& r) { all.insert(r.integer(0)); });
    std::vector<long long> ordered(all.begin(), all.end());
    if (descending) std::reverse(ordered.begin(), ordered.end());
    total = static_cast<long long>(ordered.size());
    for (long long i = span.start; i < total && i < span.start + span.limit; ++i)
      page.push_back(ordered[static_cast<std::size_t>(i)]);
  }
  Json items = Json::array();
  for (long long y : page) {
    Json d;
    d["Name"] = std::to_string(y);
    d["ServerId"] = kServerId;
    d["Id"] = perfgate::digest_of("Year:" + std::to_string(y));
    d["ProductionYear"] = y;
    d["IsFolder"] = true;
    d["Type"] = "Year";
    d["LocationType"] = "Virtual";
    items.push_back(std::move(d));
  }
  return envelope(std::move(items), total, span.start);
}

Json filters(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  Json out;
  for (long long type : {kGenre, kTags}) {
    Where w;
    w.sql = narrowed_values(w, o.after, type, access.libraries(), item_types(q, kSummarised));
    Json list = Json::array();
    db.query("SELECT v.Value, v.ItemValueId FROM ItemValues v WHERE " + w.sql + " ORDER BY v.CleanValue", w.binds,
             [&](const Row& r) {
               if (type == kGenre)
                 list.push_back(Json{{"Name", r.text(0)}, {"Id", r.text(1)}});
               else
                 list.push_back(r.text(0));
             });
    out[type == kGenre ? "Genres" : "Tags"] = std::move(list);
  }
  return out;
}

Json counts(Connection& db, const Request& q, const ServeOptions& o) {
  // The stale-counts lie: the first answer's counts, whoever asks later.
  static std::mutex stale_mutex;
  static Json stale;
  if (o.lie_stale_counts) {
    std::lock_guard<std::mutex> lock(stale_mutex);
    if (!stale.is_null()) return stale;
  }
  Access access(db, q, o);
  std::map<std::string, long long> by_type;
  if (o.after) {
    std::vector<std::string> types;
    for (const auto& [field, type] : kCountKinds) types.emplace_back(type);
    Where w;
    const std::string where = items_in(w, access.libraries(), json_list(types));
    db.query("SELECT b.Type, COUNT(*) FROM BaseItems b WHERE " + where + " GROUP BY b.Type", w.binds,
             [&](const Row& r) { by_type[r.text(0)] = r.integer(1); });
  } else {
    // Once per kind, each deriving the user's libraries again.
    for (const auto& [field, type] : kCountKinds) {
      Where w;
      const std::string where = items_in(w, access.libraries(), json_list({type}));
      by_type[type] = db.scalar("SELECT COUNT(*) FROM BaseItems b WHERE " + where, w.binds).value_or(0);
    }
  }
  Json out;
  long long total = 0;
  for (const auto& [field, type] : kCountKinds) {
    out[field] = by_type[type];
    total += by_type[type];
  }
  out["ItemCount"] = total;
  if (o.lie_stale_counts) {
    std::lock_guard<std::mutex> lock(stale_mutex);
    if (stale.is_null()) stale = out;
  }
  return out;
}

Json user_views(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  std::vector<ItemRow> rows;
  db.query(std::string("SELECT ") + kItemColumns +
               " FROM BaseItems b WHERE b.Id IN (SELECT value FROM json_each(?1)) ORDER BY b.SortName, b.Id",
           {access.libraries()}, [&](const Row& r) { rows.push_back(read_item(r)); });
  const auto n = static_cast<long long>(rows.size());
  return envelope(describe(db, rows, access.user(), Wanted::from(q), o), n, 0);
}

Handler route(const std::string& path) {
  static const std::map<std::string, Handler> table = {
      {"/Items", items},
      {"/Items/Latest", latest},
      {"/UserItems/Resume", resume},
      {"/Search/Hints", search_hints},
      {"/Persons", persons},
      {"/Genres", genres},
      {"/Studios", studios},
      {"/Artists", artists},
      {"/Years", years},
      {"/Items/Filters2", filters},
      {"/Items/Counts", counts},
      {"/UserViews", user_views},
  };
  auto it = table.find(path);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace media_parity
