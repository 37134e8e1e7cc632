// The deterministic media library (`media_parity seed`): Jellyfin's tables filled with movies,
// series/seasons/episodes, artists/albums/tracks, people, genres, studios, 14 users with their
// libraries and user data; and the id-free request set a client replays against it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace media_parity {

struct SeedParams {
  int movies = 2600;
  int series = 260;
  int seasons_per_series = 5;
  int episodes_per_season = 20;
  int artists = 600;
  int albums_per_artist = 3;
  int tracks_per_album = 10;
  int persons = 4750;
  int studios = 120;
  int users = 14;
  int user_data_rows = 43500;
  int movie_cast = 22;  // the write-up's 22 cast rows per item
  int episode_cast = 4;
  std::uint64_t seed = 3;
  // Reads the profile's params; absent keys keep the defaults above (the write-up's size).
  static SeedParams from_json(const nlohmann::json& params);
};

// What the request set needs to know about the library to stay inside it.
struct LibraryShape {
  int movies = 0, episodes = 0, tracks = 0, persons = 0, artists = 0, users = 0;
  std::string first_genre, first_studio;
};

// The request set: one "# name: <slug>" comment and one "/Route?query" line per request.
// Id-free (users by name, genres by name), every route, several users, sorts, filters, pages.
std::vector<std::pair<std::string, std::string>> request_set(const LibraryShape& shape);

// The untimed probes (service.probes), one line each, comments included: bad inputs, the
// disabled account, and a write between two asks of one page; the write names a movie of the
// library at `db_path` (probe_set.cpp).
std::vector<std::string> probe_set(const std::string& db_path);

// Writes DIR/library.db, DIR/requests.txt and DIR/probes.txt (DIR created if needed; an
// existing library is replaced). Returns the seeder's figures: items, user_data, streams,
// people_links, users, requests, probes.
nlohmann::json seed_fixture(const SeedParams& p, const std::string& dir);

}  // namespace media_parity
