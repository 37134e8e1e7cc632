#include "seed.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

#include "seed_support.hpp"

namespace media_parity {

using namespace seeding;

namespace {
struct Item {
  std::string id, type, name, parent, top, series_id, season_id, series_name, album, album_artists, overview, rating,
      media_type, collection;
  long long created = 0, premiere = 0, runtime = 0, year = 0, index = 0, parent_index = 0;
  double community = 0;
  bool folder = false;
};

class Library {
 public:
  Library(const SeedParams& p, const std::string& path)
      : p_(p),
        rng_(p.seed),
        db_(path),
        item_(db_.prepare("INSERT INTO BaseItems VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,"
                          "?18,?19,?20,?21,?22,?23,?24,?25)")),
        ancestor_(db_.prepare("INSERT OR IGNORE INTO AncestorIds VALUES (?1, ?2)")),
        value_(db_.prepare("INSERT OR IGNORE INTO ItemValues VALUES (?1, ?2, ?3, ?4)")),
        value_map_(db_.prepare("INSERT OR IGNORE INTO ItemValuesMap VALUES (?1, ?2)")),
        person_(db_.prepare("INSERT INTO Peoples VALUES (?1, ?2, ?3)")),
        person_map_(db_.prepare("INSERT OR IGNORE INTO PeopleBaseItemMap VALUES (?1, ?2, ?3, ?4, ?5)")),
        stream_(db_.prepare("INSERT INTO MediaStreamInfos VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)")),
        image_(db_.prepare("INSERT INTO BaseItemImageInfos VALUES (?1,?2,?3,?4,?5,?6,?7,?8)")),
        user_data_(db_.prepare("INSERT INTO UserData VALUES (?1,?2,?3,?4,?5,?6,?7,?8)")) {}

  nlohmann::json build(LibraryShape& shape) {
    views();
    people();
    movies();
    shows();
    music();
    by_name_items();
    users();
    db_.exec("COMMIT; ANALYZE;");
    shape.movies = p_.movies;
    shape.episodes = p_.series * p_.seasons_per_series * p_.episodes_per_season;
    shape.tracks = p_.artists * p_.albums_per_artist * p_.tracks_per_album;
    shape.persons = p_.persons;
    shape.artists = p_.artists;
    shape.users = p_.users;
    shape.first_genre = kGenres[0];
    shape.first_studio = studio_name(0);
    return {{"items", items_},   {"user_data", user_data_rows_}, {"streams", streams_}, {"people_links", links_},
            {"users", p_.users}, {"item_values", values_.size()}};
  }

 private:
  static constexpr long long kEpoch = 1420070400;  // 2015-01-01: DateCreated grows from here
  static constexpr long long kTicksPerMinute = 600000000;

  static std::string studio_name(int i) {
    return std::string(kAdjectives[i % 32]) + " " + kNouns[(i / 32) % 32] + (i >= 1024 ? " " + std::to_string(i) : "") +
           " Pictures";
  }
  static std::string artist_name(int i) {
    return std::string(kAdjectives[(i * 7) % 32]) + " " + kNouns[(i / 32 + i) % 32] + " Band" +
           (i >= 1024 ? " " + std::to_string(i / 1024) : "");
  }
  static std::string person_name(int i) {
    return std::string(kFirst[i % 40]) + " " + static_cast<char>('A' + (i / 40) % 26) + ". " + kLast[(i / 1040) % 40];
  }
  std::string title() {
    std::string t = rng_.chance(30) ? "The " : "";
    t += std::string(rng_.of(kAdjectives)) + " " + rng_.of(kNouns);
    return rng_.chance(20) ? t + " " + std::to_string(2 + rng_.below(3)) : t;
  }
  std::string overview() {
    std::string s;
    for (int w = 0, n = 30 + rng_.below(50); w < n; ++w)
      s += std::string(w ? " " : "") + lower(w % 2 ? rng_.of(kNouns) : rng_.of(kAdjectives));
    return s + ".";
  }

  void add(const Item& it, const std::vector<std::string>& ancestors) {
    db_.insert(item_, it.id, std::string(stored_type(it.type)), it.name, sort_name(it.name), lower(it.name),
               opt(it.parent), opt(it.top), opt(it.series_id), opt(it.season_id), opt(it.series_name), opt(it.album),
               opt(it.album_artists), iso_date(kEpoch + it.created),
               it.premiere ? opt(iso_date(kEpoch + it.premiere)) : std::nullopt, opt(it.year),
               it.community > 0 ? std::optional(it.community) : std::nullopt, opt(it.rating), opt(it.runtime),
               opt(it.overview), it.folder ? 1LL : 0LL, opt(it.media_type), opt(it.index), opt(it.parent_index),
               opt(it.collection), it.id);
    for (const auto& a : ancestors) db_.insert(ancestor_, it.id, a);
    ++items_;
  }
  void value(const std::string& item, int type, const std::string& name) {
    const std::string clean = lower(name);
    const std::string vid = perfgate::digest_of(std::to_string(type) + ":" + clean);
    if (values_.insert(vid).second) db_.insert(value_, vid, static_cast<long long>(type), name, clean);
    db_.insert(value_map_, item, vid);
  }
  void image(const std::string& item, int type, long long w, long long h) {
    const std::string path = "/config/metadata/library/" + item.substr(0, 2) + "/" + item + "/" +
                             (type == kImagePrimary ? "poster.jpg" : "backdrop.jpg");
    db_.insert(image_, perfgate::digest_of(path), item, static_cast<long long>(type), path,
               iso_date(kEpoch + rng_.below(200000000)), w, h, perfgate::digest_of(path + "#blurhash").substr(0, 20));
  }
  void cast(const std::string& item, int n) {
    std::set<int> chosen;
    while (static_cast<int>(chosen.size()) < std::min(n, p_.persons)) chosen.insert(rng_.below(p_.persons));
    long long order = 0;
    for (int person : chosen) {
      const bool actor = person % 10 < 7;
      db_.insert(
          person_map_, item, id_of("person", person),
          actor ? opt(std::string(kFirst[(person + order) % 40]) + " " + kLast[(person * 3) % 40]) : std::nullopt,
          order, order);
      ++order;
      ++links_;
    }
  }
  void streams(const std::string& item, int video_streams, bool audio_only) {
    long long index = 0;
    auto add_stream = [&](const char* type, const char* codec, std::optional<long long> w, std::optional<long long> h,
                          std::optional<long long> channels) {
      db_.insert(stream_, item, index, std::string(type), std::string(codec), std::string(rng_.of(kLanguages)), w, h,
                 static_cast<long long>(128000 + rng_.below(8000000)), channels, index == 0 ? 1LL : 0LL);
      ++index;
      ++streams_;
    };
    if (audio_only) return add_stream("Audio", "flac", std::nullopt, std::nullopt, 2LL);
    add_stream("Video", rng_.chance(50) ? "h264" : "hevc", 1920LL, 1080LL, std::nullopt);
    add_stream("Audio", "aac", std::nullopt, std::nullopt, 6LL);
    for (int s = 2; s < video_streams; ++s) add_stream("Subtitle", "subrip", std::nullopt, std::nullopt, std::nullopt);
  }

  void views() {
    const char* names[3][2] = {{"Movies", "movies"}, {"Shows", "tvshows"}, {"Music", "music"}};
    for (int v = 0; v < 3; ++v) {
      Item it;
      it.id = id_of("view", v);
      it.type = "CollectionFolder";
      it.name = names[v][0];
      it.collection = names[v][1];
      it.folder = true;
      view_[v] = it.id;
      add(it, {});
      image(it.id, kImagePrimary, 800, 450);
    }
  }
  void people() {
    for (int i = 0; i < p_.persons; ++i) {
      db_.insert(person_, id_of("person", i), person_name(i),
                 std::string(i % 10 < 7   ? "Actor"
                             : i % 10 < 9 ? "Director"
                                          : "Writer"));
      Item it;
      it.id = id_of("person-item", i);
      it.type = "Person";
      it.name = person_name(i);
      it.created = i * 60;
      add(it, {});
      if (rng_.chance(60)) image(it.id, kImagePrimary, 400, 600);
    }
  }
  void movies() {
    for (int i = 0; i < p_.movies; ++i) {
      Item it;
      it.id = id_of("movie", i);
      it.type = "Movie";
      it.name = title();
      it.parent = it.top = view_[0];
      it.created = 3600LL * 7 * i + rng_.below(3600);
      it.year = 1950 + rng_.below(75);
      it.premiere = (it.year - 2015) * 31557600LL + rng_.below(31557600);
      it.community = 1 + rng_.below(90) / 10.0;
      it.rating = rng_.of(kRatings);
      it.runtime = (80 + rng_.below(80)) * kTicksPerMinute;
      it.overview = overview();
      it.media_type = "Video";
      add(it, {view_[0]});
      for (int g = 0, n = 1 + rng_.below(3); g < n; ++g) value(it.id, kGenre, kGenres[rng_.below(kFilmGenres)]);
      for (int s = 0, n = 1 + rng_.below(2); s < n; ++s) value(it.id, kStudio, studio_name(rng_.below(p_.studios)));
      if (rng_.chance(30)) value(it.id, kTags, rng_.of(kNouns));
      cast(it.id, p_.movie_cast);
      streams(it.id, 4, false);
      image(it.id, kImagePrimary, 1000, 1500);
      if (rng_.chance(50)) image(it.id, kImageBackdrop, 1920, 1080);
      playable_.push_back({it.id, it.runtime});
    }
  }
  void shows() {
    int episode = 0;
    for (int s = 0; s < p_.series; ++s) {
      Item series;
      series.id = id_of("series", s);
      series.type = "Series";
      series.name = title();
      series.parent = series.top = view_[1];
      series.created = 3600LL * 60 * s;
      series.year = 1990 + rng_.below(35);
      series.overview = overview();
      series.rating = rng_.of(kRatings);
      series.folder = true;
      add(series, {view_[1]});
      value(series.id, kGenre, kGenres[rng_.below(kFilmGenres)]);
      value(series.id, kStudio, studio_name(rng_.below(p_.studios)));
      cast(series.id, p_.movie_cast);
      image(series.id, kImagePrimary, 1000, 1500);
      for (int k = 1; k <= p_.seasons_per_series; ++k) {
        Item season;
        season.id = id_of("season", s * 1000LL + k);
        season.type = "Season";
        season.name = "Season " + std::to_string(k);
        season.parent = series.id;
        season.top = view_[1];
        season.series_id = series.id;
        season.series_name = series.name;
        season.index = k;
        season.created = series.created + k;
        season.folder = true;
        add(season, {view_[1], series.id});
        for (int e = 1; e <= p_.episodes_per_season; ++e, ++episode) {
          Item ep;
          ep.id = id_of("episode", episode);
          ep.type = "Episode";
          ep.name = title();
          ep.parent = season.id;
          ep.top = view_[1];
          ep.series_id = series.id;
          ep.season_id = season.id;
          ep.series_name = series.name;
          ep.index = e;
          ep.parent_index = k;
          ep.created = 600LL * episode + rng_.below(600);
          ep.year = series.year + k - 1;
          ep.premiere = (ep.year - 2015) * 31557600LL + e * 604800LL;
          ep.community = 5 + rng_.below(50) / 10.0;
          ep.runtime = (20 + rng_.below(40)) * kTicksPerMinute;
          ep.overview = overview();
          ep.media_type = "Video";
          add(ep, {view_[1], series.id, season.id});
          cast(ep.id, p_.episode_cast);
          streams(ep.id, rng_.chance(40) ? 4 : 3, false);
          image(ep.id, kImagePrimary, 1280, 720);
          playable_.push_back({ep.id, ep.runtime});
        }
      }
    }
  }
  void music() {
    int track = 0;
    for (int a = 0; a < p_.artists; ++a) {
      Item artist;
      artist.id = id_of("artist", a);
      artist.type = "MusicArtist";
      artist.name = artist_name(a);
      artist.parent = artist.top = view_[2];
      artist.created = 3600LL * 24 * a;
      artist.folder = true;
      add(artist, {view_[2]});
      if (rng_.chance(70)) image(artist.id, kImagePrimary, 600, 600);
      const std::string genre = kGenres[kFilmGenres + rng_.below(static_cast<int>(kGenres.size()) - kFilmGenres)];
      for (int b = 0; b < p_.albums_per_artist; ++b) {
        Item album;
        album.id = id_of("album", a * 100LL + b);
        album.type = "MusicAlbum";
        album.name = title();
        album.parent = artist.id;
        album.top = view_[2];
        album.album_artists = artist.name;
        album.created = artist.created + b * 3600LL;
        album.year = 1960 + rng_.below(65);
        album.folder = true;
        add(album, {view_[2], artist.id});
        value(album.id, kAlbumArtist, artist.name);
        value(album.id, kGenre, genre);
        image(album.id, kImagePrimary, 600, 600);
        for (int t = 1; t <= p_.tracks_per_album; ++t, ++track) {
          Item song;
          song.id = id_of("track", track);
          song.type = "Audio";
          song.name = title();
          song.parent = album.id;
          song.top = view_[2];
          song.album = album.name;
          song.album_artists = artist.name;
          song.index = t;
          song.created = album.created + t;
          song.year = album.year;
          song.runtime = (2 + rng_.below(5)) * kTicksPerMinute;
          song.media_type = "Audio";
          add(song, {view_[2], artist.id, album.id});
          value(song.id, kArtist, artist.name);
          if (rng_.chance(10)) value(song.id, kArtist, artist_name(rng_.below(p_.artists)));  // a featured artist
          value(song.id, kAlbumArtist, artist.name);
          value(song.id, kGenre, genre);
          streams(song.id, 1, true);
          playable_.push_back({song.id, song.runtime});
        }
      }
    }
  }
  // The items standing for a genre or studio name (Jellyfin's by-name items).
  void by_name_items() {
    for (int g = 0; g < static_cast<int>(kGenres.size()); ++g) {
      Item it;
      it.id = id_of("genre", g);
      it.type = g < kFilmGenres ? "Genre" : "MusicGenre";
      it.name = kGenres[g];
      add(it, {});
      if (g % 3 == 0) image(it.id, kImagePrimary, 600, 400);
    }
    for (int s = 0; s < p_.studios; ++s) {
      Item it;
      it.id = id_of("studio", s);
      it.type = "Studio";
      it.name = studio_name(s);
      add(it, {});
      if (s % 2 == 0) image(it.id, kImagePrimary, 600, 400);
    }
  }
  void users() {
    auto perm = db_.prepare("INSERT INTO Permissions (UserId, Kind, Value) VALUES (?1, ?2, ?3)");
    auto pref = db_.prepare("INSERT INTO Preferences (UserId, Kind, Value) VALUES (?1, ?2, ?3)");
    auto user = db_.prepare("INSERT INTO Users VALUES (?1, ?2)");
    // Which libraries each user sees: the first is the administrator (every folder); the others
    // rotate through four sets so that users' answers differ.
    const std::vector<std::vector<int>> sets = {{0, 1, 2}, {0, 1}, {1, 2}, {0}};
    std::vector<std::string> ids;
    for (int u = 0; u < p_.users; ++u) {
      const std::string id = id_of("user", u);
      ids.push_back(id);
      db_.insert(user, id, std::string(u < 10 ? "user0" : "user") + std::to_string(u));
      db_.insert(perm, id, static_cast<long long>(kPermissionIsDisabled), 0LL);
      db_.insert(perm, id, static_cast<long long>(kPermissionEnableAllFolders), u == 0 ? 1LL : 0LL);
      std::string folders;
      for (int v : sets[static_cast<std::size_t>(u) % sets.size()]) folders += (folders.empty() ? "" : ",") + view_[v];
      db_.insert(pref, id, static_cast<long long>(kPreferenceEnabledFolders), folders);
    }
    // One disabled account (every folder enabled, no UserData): asked only by the untimed probes,
    // which BEFORE answers 403 "user is disabled".
    const std::string disabled = id_of("user", p_.users);
    db_.insert(user, disabled, std::string(kDisabledUser));
    db_.insert(perm, disabled, static_cast<long long>(kPermissionIsDisabled), 1LL);
    db_.insert(perm, disabled, static_cast<long long>(kPermissionEnableAllFolders), 1LL);
    db_.insert(pref, disabled, static_cast<long long>(kPreferenceEnabledFolders), std::string());
    const long long rows = std::min<long long>(p_.user_data_rows, static_cast<long long>(playable_.size()) * p_.users);
    std::set<std::pair<int, int>> taken;
    while (static_cast<long long>(taken.size()) < rows) {
      const int u = rng_.below(p_.users), i = rng_.below(static_cast<int>(playable_.size()));
      if (!taken.insert({u, i}).second) continue;
      const auto& [item, runtime] = playable_[static_cast<std::size_t>(i)];
      const bool played = rng_.chance(55);
      const long long position = !played && rng_.chance(35) ? runtime / 100 * (5 + rng_.below(90)) : 0;
      const bool touched = played || position > 0;
      db_.insert(user_data_, item, ids[static_cast<std::size_t>(u)], item, played ? 1LL : 0LL,
                 played ? 1LL + rng_.below(5) : 0LL, rng_.chance(8) ? 1LL : 0LL, position,
                 touched ? opt(iso_date(kEpoch + 94670000LL + rng_.below(31536000))) : std::nullopt);
      ++user_data_rows_;
    }
  }

  const SeedParams& p_;
  Rng rng_;
  SeedDb db_;
  sqlite3_stmt *item_, *ancestor_, *value_, *value_map_, *person_, *person_map_, *stream_, *image_, *user_data_;
  std::string view_[3];
  std::set<std::string> values_;
  std::vector<std::pair<std::string, long long>> playable_;  // id, runtime ticks
  long long items_ = 0, user_data_rows_ = 0, streams_ = 0, links_ = 0;
};

}  // namespace

SeedParams SeedParams::from_json(const nlohmann::json& j) {
  SeedParams p;
  auto take = [&](const char* key, int& field, int minimum) {
    field = j.value(key, field);
    if (field < minimum)
      throw std::invalid_argument("params." + std::string(key) + " = " + std::to_string(field) +
                                  ": must be >= " + std::to_string(minimum));
  };
  take("movies", p.movies, 1);
  take("series", p.series, 1);
  take("seasons_per_series", p.seasons_per_series, 1);
  take("episodes_per_season", p.episodes_per_season, 1);
  take("artists", p.artists, 1);
  take("albums_per_artist", p.albums_per_artist, 1);
  take("tracks_per_album", p.tracks_per_album, 1);
  take("persons", p.persons, 1);
  take("studios", p.studios, 1);
  take("users", p.users, 4);
  take("user_data_rows", p.user_data_rows, 0);
  take("movie_cast", p.movie_cast, 0);
  take("episode_cast", p.episode_cast, 0);
  p.seed = j.value("seed", p.seed);
  return p;
}

nlohmann::json seed_fixture(const SeedParams& p, const std::string& dir) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path db = fs::path(dir) / kDatabaseFile, partial = fs::path(dir) / "library.db.partial";
  fs::remove(partial);
  LibraryShape shape;
  nlohmann::json figures;
  {
    Library lib(p, partial.string());
    figures = lib.build(shape);
  }
  fs::rename(partial, db);  // a reader never sees half a library
  std::ofstream out(fs::path(dir) / kRequestsFile, std::ios::trunc);
  const auto requests = request_set(shape);
  for (const auto& [name, path] : requests) out << "# name: " << name << "\n" << path << "\n";
  if (!out) throw std::runtime_error("cannot write " + (fs::path(dir) / kRequestsFile).string());
  figures["requests"] = requests.size();
  std::ofstream probes(fs::path(dir) / kProbesFile, std::ios::trunc);
  const auto lines = probe_set(db.string());
  for (const auto& line : lines) probes << line << "\n";
  if (!probes) throw std::runtime_error("cannot write " + (fs::path(dir) / kProbesFile).string());
  figures["probes"] = std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l[0] != '#'; });
  return figures;
}

}  // namespace media_parity
