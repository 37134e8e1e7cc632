#include "describe.hpp"

#include <map>

#include "perfgate/sample.hpp"
#include "schema.hpp"

namespace media_parity {

ItemRow read_item(const Row& r) {
  ItemRow it;
  it.id = r.text(0);
  it.type = std::string(short_type(r.text(1)));
  it.name = r.text(2);
  it.sort_name = r.text(3);
  it.series_id = r.text(4);
  it.season_id = r.text(5);
  it.series_name = r.text(6);
  it.album = r.text(7);
  it.album_artists = r.text(8);
  it.created = r.text(9);
  it.premiere = r.text(10);
  it.year = r.integer(11);
  it.community = r.null(12) ? 0 : r.real(12);
  it.rating = r.text(13);
  it.runtime = r.integer(14);
  it.overview = r.text(15);
  it.folder = r.integer(16) != 0;
  it.media_type = r.text(17);
  it.index = r.integer(18);
  it.parent_index = r.integer(19);
  it.collection = r.text(20);
  return it;
}

Wanted Wanted::from(const Request& q) {
  Wanted w;
  w.overview = q.field("Overview");
  w.people = q.field("People");
  w.genres = q.field("Genres");
  w.studios = q.field("Studios");
  w.streams = q.field("MediaStreams");
  return w;
}

std::string image_tag(const std::string& path, const std::string& modified) {
  return perfgate::digest_of(path + "|" + modified);
}

Json read_user_data(const Row& r) {
  Json u;
  u["PlaybackPositionTicks"] = r.integer(4);
  u["PlayCount"] = r.integer(2);
  u["IsFavorite"] = r.integer(3) != 0;
  if (!r.null(5)) u["LastPlayedDate"] = r.text(5);
  u["Played"] = r.integer(1) != 0;
  u["Key"] = r.text(6);
  u["ItemId"] = r.text(0);
  return u;
}

namespace {

using Parts = std::map<std::string, std::vector<Json>>;  // item id -> that item's rows of one aspect

// One aspect of the page: `sql` holds "{items}" where the item restriction goes. BEFORE runs it
// once per item with `= ?1`; AFTER once with the page's ids as a JSON list.
Parts fetch(Connection& db, const std::vector<ItemRow>& items, bool batched, std::string sql,
            const std::vector<Value>& more, Json (*read)(const Row&)) {
  Parts parts;
  const auto at = sql.find("{items}");
  sql.replace(at, 7, batched ? "IN (SELECT value FROM json_each(?1))" : "= ?1");
  auto add = [&](const Row& r) { parts[r.text(0)].push_back(read(r)); };
  std::vector<Value> binds{nullptr};
  binds.insert(binds.end(), more.begin(), more.end());
  if (batched) {
    std::vector<std::string> ids;
    for (const auto& it : items) ids.push_back(it.id);
    binds[0] = json_list(ids);
    db.query(sql, binds, add);
  } else {
    for (const auto& it : items) {
      binds[0] = it.id;
      db.query(sql, binds, add);
    }
  }
  return parts;
}

Json read_image(const Row& r) { return {{"type", r.integer(1)}, {"tag", image_tag(r.text(2), r.text(3))}}; }
Json read_person(const Row& r) {
  Json p;
  p["Name"] = r.text(1);
  p["Id"] = r.text(2);
  if (!r.null(3)) p["Role"] = r.text(3);
  p["Type"] = r.text(4);
  return p;
}
Json read_value(const Row& r) { return {{"Name", r.text(1)}, {"Id", r.text(2)}}; }
Json read_stream(const Row& r) {
  Json s;
  s["Codec"] = r.text(3);
  s["Language"] = r.text(4);
  s["Type"] = r.text(2);
  s["Index"] = r.integer(1);
  s["IsDefault"] = r.integer(9) != 0;
  if (!r.null(5)) s["Width"] = r.integer(5);
  if (!r.null(6)) s["Height"] = r.integer(6);
  s["BitRate"] = r.integer(7);
  if (!r.null(8)) s["Channels"] = r.integer(8);
  return s;
}

const std::vector<Json>& of(const Parts& parts, const std::string& id) {
  static const std::vector<Json> none;
  auto it = parts.find(id);
  return it == parts.end() ? none : it->second;
}

bool by_name(const std::string& type) {
  return type == "Person" || type == "Genre" || type == "MusicGenre" || type == "Studio";
}

}  // namespace

Json describe(Connection& db, const std::vector<ItemRow>& items, const std::string& user, const Wanted& wanted,
              const ServeOptions& options) {
  Json out = Json::array();
  if (items.empty()) return out;
  const bool batched = options.after;
  const Parts user_data =
      fetch(db, items, batched,
            std::string("SELECT ") + kUserDataColumns +
                " FROM UserData WHERE ItemId {items} AND UserId = ?2 ORDER BY ItemId, CustomDataKey",
            {user}, read_user_data);
  const Parts images = fetch(db, items, batched,
                             "SELECT ItemId, ImageType, Path, DateModified FROM BaseItemImageInfos "
                             "WHERE ItemId {items} ORDER BY ItemId, ImageType, Id",
                             {}, read_image);
  const bool skip_people = wanted.people && options.lie_no_people;  // the lie: the cast is never read
  const bool people_read = (wanted.people || options.fill_people) && !skip_people;
  Parts people, genres, studios, streams;
  if (people_read)
    people = fetch(db, items, batched,
                   "SELECT m.ItemId, p.Name, p.Id, m.Role, p.PersonType FROM PeopleBaseItemMap m "
                   "JOIN Peoples p ON p.Id = m.PeopleId WHERE m.ItemId {items} ORDER BY m.ItemId, m.ListOrder",
                   {}, read_person);
  const std::string values =
      "SELECT m.ItemId, v.Value, v.ItemValueId FROM ItemValuesMap m JOIN ItemValues v ON v.ItemValueId = "
      "m.ItemValueId WHERE m.ItemId {items} AND v.Type = ?2 ORDER BY m.ItemId, v.CleanValue";
  if (wanted.genres) genres = fetch(db, items, batched, values, {static_cast<long long>(kGenre)}, read_value);
  if (wanted.studios) studios = fetch(db, items, batched, values, {static_cast<long long>(kStudio)}, read_value);
  if (wanted.streams)
    streams = fetch(db, items, batched,
                    "SELECT ItemId, StreamIndex, StreamType, Codec, Language, Width, Height, BitRate, Channels, "
                    "IsDefault FROM MediaStreamInfos WHERE ItemId {items} ORDER BY ItemId, StreamIndex",
                    {}, read_stream);

  for (const auto& it : items) {
    Json d;
    d["Name"] = it.name;
    d["ServerId"] = kServerId;
    d["Id"] = it.id;
    if (!it.created.empty()) d["DateCreated"] = it.created;
    if (!it.premiere.empty()) d["PremiereDate"] = it.premiere;
    if (!it.rating.empty()) d["OfficialRating"] = it.rating;
    if (wanted.overview && !it.overview.empty()) d["Overview"] = it.overview;
    if (it.community > 0) d["CommunityRating"] = it.community;
    if (it.runtime) d["RunTimeTicks"] = it.runtime;
    if (it.year) d["ProductionYear"] = it.year;
    if (it.index) d["IndexNumber"] = it.index;
    if (it.parent_index) d["ParentIndexNumber"] = it.parent_index;
    d["IsFolder"] = it.folder;
    d["Type"] = it.type;
    if (!it.series_name.empty()) d["SeriesName"] = it.series_name;
    if (!it.series_id.empty()) d["SeriesId"] = it.series_id;
    if (!it.season_id.empty()) d["SeasonId"] = it.season_id;
    if (!it.album.empty()) d["Album"] = it.album;
    if (!it.album_artists.empty()) d["AlbumArtist"] = it.album_artists;
    if (!it.collection.empty()) d["CollectionType"] = it.collection;
    const auto& cast = of(people, it.id);
    if (wanted.people || (options.fill_people && !cast.empty())) d["People"] = cast;
    if (wanted.genres) {
      Json names = Json::array();
      for (const auto& g : of(genres, it.id)) names.push_back(g["Name"]);
      d["Genres"] = names;
    }
    if (wanted.studios) d["Studios"] = of(studios, it.id);
    if (wanted.streams) d["MediaStreams"] = of(streams, it.id);
    const auto& ud = of(user_data, it.id);
    d["UserData"] = ud.empty() ? Json{{"PlaybackPositionTicks", 0},
                                      {"PlayCount", 0},
                                      {"IsFavorite", false},
                                      {"Played", false},
                                      {"Key", it.id},
                                      {"ItemId", it.id}}
                               : ud.front();
    Json tags = Json::object(), backdrops = Json::array();
    for (const auto& img : of(images, it.id)) {
      if (img["type"] == kImagePrimary && !tags.contains("Primary")) tags["Primary"] = img["tag"];
      if (img["type"] == kImageBackdrop) backdrops.push_back(img["tag"]);
    }
    d["ImageTags"] = tags;
    d["BackdropImageTags"] = backdrops;
    d["LocationType"] = by_name(it.type) ? "Virtual" : "FileSystem";
    if (!it.media_type.empty()) d["MediaType"] = it.media_type;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace media_parity
