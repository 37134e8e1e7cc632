// /Persons, /Genres, /Studios, /Artists: pages of names, each described by the item standing
// for it. BEFORE describes the page one entry at a time (its by-name item, image, user data,
// and the user's permissions read twice per entry); AFTER resolves the page once, in batches.
#include <map>

#include "access.hpp"
#include "describe.hpp"
#include "listing.hpp"
#include "perfgate/sample.hpp"
#include "routes.hpp"
#include "schema.hpp"

namespace media_parity {

namespace {

const std::vector<std::string> kWithValues = {"Movie", "Series", "Episode", "MusicAlbum", "Audio"};

// A page of names, in order, and how many names there are in all.
struct Names {
  std::vector<std::string> page;
  long long total = 0;
};

// The by-name items (of `types`, short names) standing for `names`, in the names' order. A name
// without one gets an item with a derived id and nothing stored beside it.
std::vector<ItemRow> by_name_items(Connection& db, Access& access, const std::vector<std::string>& names,
                                   const std::vector<std::string>& types, const ServeOptions& o) {
  std::vector<std::string> stored;
  for (const auto& t : types) stored.emplace_back(stored_type(t));
  const std::string select = std::string("SELECT ") + kItemColumns + " FROM BaseItems b WHERE b.Type IN " +
                             "(SELECT value FROM json_each(?1)) AND b.Name ";
  std::map<std::string, ItemRow> found;
  auto keep = [&](const Row& r) {
    ItemRow it = read_item(r);
    found.emplace(it.name, std::move(it));
  };
  if (o.after) {
    db.query(select + "IN (SELECT value FROM json_each(?2)) ORDER BY b.Id", {json_list(stored), json_list(names)},
             keep);
  } else {
    for (const auto& n : names) {
      access.check_entry_permissions();
      db.query(select + "= ?2 ORDER BY b.Id", {json_list(stored), n}, keep);
    }
  }
  std::vector<ItemRow> rows;
  for (const auto& n : names) {
    if (auto it = found.find(n); it != found.end()) {
      rows.push_back(it->second);
    } else {
      ItemRow r;
      r.id = perfgate::digest_of(types.front() + ":" + n);
      r.name = n;
      r.type = types.front();
      rows.push_back(r);
    }
  }
  return rows;
}

Names value_names(Connection& db, Access& access, const Request& q, const ServeOptions& o, long long value_type,
                  const std::vector<std::string>& default_types, const PageSpan& span) {
  Names out;
  auto where = [&] {
    Where w;
    w.sql = narrowed_values(w, o.after, value_type, access.libraries(), item_types(q, default_types));
    return w;
  };
  Where w = where();
  const std::string dir = q.descending() ? " DESC" : " ASC";
  db.query("SELECT v.Value FROM ItemValues v WHERE " + w.sql + " ORDER BY v.CleanValue" + dir + " LIMIT " +
               w.bind(span.limit) + " OFFSET " + w.bind(span.start),
           w.binds, [&](const Row& r) { out.page.push_back(r.text(0)); });
  const Where c = where();
  out.total = db.scalar("SELECT COUNT(*) FROM ItemValues v WHERE " + c.sql, c.binds).value_or(0);
  return out;
}

Json by_name_page(Connection& db, Access& access, const Request& q, const ServeOptions& o, long long value_type,
                  const std::vector<std::string>& default_types, const std::vector<std::string>& item_kinds) {
  const PageSpan span = PageSpan::of(q, 100);
  const Names names = value_names(db, access, q, o, value_type, default_types, span);
  const auto rows = by_name_items(db, access, names.page, item_kinds, o);
  return envelope(describe(db, rows, access.user(), Wanted::from(q), o), names.total, span.start);
}

}  // namespace

Json genres(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  return by_name_page(db, access, q, o, kGenre, kWithValues, {"Genre", "MusicGenre"});
}

Json studios(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  return by_name_page(db, access, q, o, kStudio, kWithValues, {"Studio"});
}

Json artists(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  Json out = by_name_page(db, access, q, o, kArtist, {"Audio"}, {"MusicArtist"});
  if (!q.field("ItemCounts") || out["Items"].empty()) return out;
  // AlbumCount (albums naming the artist as album artist) and SongCount (tracks naming them).
  const std::string libraries = access.libraries();
  const std::string album = std::string(stored_type("MusicAlbum")), audio = std::string(stored_type("Audio"));
  std::map<std::pair<long long, std::string>, long long> n;  // (value type, clean name) -> items
  const std::string from =
      "FROM ItemValuesMap m JOIN ItemValues v ON v.ItemValueId = m.ItemValueId JOIN BaseItems b ON b.Id = m.ItemId "
      "WHERE b.TopParentId IN (SELECT value FROM json_each(?1)) AND "
      "((v.Type = 1 AND b.Type = ?2) OR (v.Type = 0 AND b.Type = ?3)) AND v.CleanValue ";
  std::vector<std::string> clean;
  for (const auto& item : out["Items"]) {
    std::string c = item["Name"].get<std::string>();
    for (auto& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    clean.push_back(c);
  }
  if (o.after) {
    db.query("SELECT v.Type, v.CleanValue, COUNT(*) " + from +
                 "IN (SELECT value FROM json_each(?4)) GROUP BY v.Type, "
                 "v.CleanValue",
             {libraries, album, audio, json_list(clean)}, [&](const Row& r) {
               n[{r.integer(0), r.text(1)}] = r.integer(2);
             });
  } else {
    for (const auto& c : clean)
      for (long long type : {kAlbumArtist, kArtist})
        n[{type, c}] = db.scalar("SELECT COUNT(*) " + from + "= ?4 AND v.Type = ?5", {libraries, album, audio, c, type})
                           .value_or(0);
  }
  for (std::size_t i = 0; i < clean.size(); ++i) {
    out["Items"][i]["AlbumCount"] = n[{kAlbumArtist, clean[i]}];
    out["Items"][i]["SongCount"] = n[{kArtist, clean[i]}];
  }
  return out;
}

Json persons(Connection& db, const Request& q, const ServeOptions& o) {
  Access access(db, q, o);
  const PageSpan span = PageSpan::of(q, 100);
  auto where = [&] {
    Where w;
    const std::string items = "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(access.libraries()) +
                              ")) AND b.Type IN (SELECT value FROM json_each(" +
                              w.bind(item_types(q, {"Movie", "Series", "Episode"})) + "))";
    w.sql = o.after ? "EXISTS (SELECT 1 FROM PeopleBaseItemMap m JOIN BaseItems b ON b.Id = m.ItemId "
                      "WHERE m.PeopleId = p.Id AND " +
                          items + ")"
                    : "p.Id IN (SELECT m.PeopleId FROM PeopleBaseItemMap m WHERE m.ItemId IN "
                      "(SELECT b.Id FROM BaseItems b WHERE " +
                          items + "))";
    return w;
  };
  Names names;
  Where w = where();
  const std::string dir = q.descending() ? " DESC" : " ASC";
  db.query("SELECT p.Name FROM Peoples p WHERE " + w.sql + " ORDER BY p.Name" + dir + " LIMIT " + w.bind(span.limit) +
               " OFFSET " + w.bind(span.start),
           w.binds, [&](const Row& r) { names.page.push_back(r.text(0)); });
  const Where c = where();
  names.total = db.scalar("SELECT COUNT(*) FROM Peoples p WHERE " + c.sql, c.binds).value_or(0);
  const auto rows = by_name_items(db, access, names.page, {"Person"}, o);
  return envelope(describe(db, rows, access.user(), Wanted::from(q), o), names.total, span.start);
}

}  // namespace media_parity
