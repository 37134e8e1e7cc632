// What the seeder is built from: a generator whose sequence is the same on every machine,
// the word lists names are made of, and a writer that binds one row per call.
#pragma once

#include <sqlite3.h>

#include <array>
#include <ctime>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgate/sample.hpp"
#include "schema.hpp"

namespace media_parity::seeding {

// mt19937_64's output sequence is fixed by the standard (its distributions are not), so the
// library is the same bytes on every machine.
struct Rng {
  std::mt19937_64 engine;
  explicit Rng(std::uint64_t seed) : engine(seed) {}
  int below(int n) { return static_cast<int>(engine() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
  template <class A>
  const char* of(const A& a) {
    return a[static_cast<std::size_t>(below(static_cast<int>(a.size())))];
  }
};

constexpr std::array<const char*, 32> kAdjectives = {
    "Silent", "Broken", "Golden", "Hidden", "Last",   "Crimson", "Frozen", "Distant", "Wild",   "Electric", "Quiet",
    "Lost",   "Bright", "Iron",   "Paper",  "Hollow", "Burning", "Second", "Velvet",  "Savage", "Northern", "Endless",
    "Secret", "Empty",  "Little", "Final",  "Glass",  "Ancient", "Fallen", "Rising",  "Black",  "Lucky"};
constexpr std::array<const char*, 32> kNouns = {
    "River",   "Garden", "Empire", "Signal",  "Harbor", "Mirror",  "Kingdom", "Horizon", "Station", "Machine", "Winter",
    "Country", "Letter", "Island", "Witness", "Hunter", "Promise", "Circus",  "Orchard", "Voyage",  "Bridge",  "Shadow",
    "Engine",  "Forest", "Planet", "Season",  "Tower",  "Canyon",  "Ocean",   "Road",    "Storm",   "Dream"};
constexpr std::array<const char*, 40> kFirst = {"Anna",  "Ben",   "Clara", "David", "Elena",  "Frank", "Grace", "Hugo",
                                                "Iris",  "Jonas", "Karen", "Leo",   "Maya",   "Nils",  "Olga",  "Paul",
                                                "Quinn", "Rosa",  "Sam",   "Tara",  "Umar",   "Vera",  "Walt",  "Xenia",
                                                "Yusuf", "Zoe",   "Aaron", "Beth",  "Carlos", "Dana",  "Emil",  "Fiona",
                                                "Gus",   "Hana",  "Ivan",  "Julia", "Kai",    "Lena",  "Marco", "Nora"};
constexpr std::array<const char*, 40> kLast = {
    "Adler",    "Baker", "Costa",  "Dunn",  "Evans",   "Fischer",   "Garcia", "Hale",   "Ibarra", "Jensen",
    "Kowalski", "Lund",  "Moreau", "Novak", "Okafor",  "Price",     "Quint",  "Reyes",  "Sato",   "Thorne",
    "Ueda",     "Varga", "Walsh",  "Xu",    "Young",   "Zeller",    "Abbott", "Brandt", "Cho",    "Delgado",
    "Engel",    "Ferro", "Grant",  "Holm",  "Iverson", "Jovanovic", "Keller", "Larsen", "Mendes", "Nakamura"};
constexpr std::array<const char*, 24> kGenres = {
    "Action",  "Adventure", "Animation", "Comedy", "Crime",   "Documentary", "Drama",           "Family",
    "Fantasy", "History",   "Horror",    "Music",  "Mystery", "Romance",     "Science Fiction", "Thriller",
    "War",     "Western",   "Jazz",      "Rock",   "Pop",     "Electronic",  "Classical",       "Hip-Hop"};
constexpr int kFilmGenres = 18;  // the first 18 are film genres, the rest music genres
constexpr std::array<const char*, 6> kRatings = {"G", "PG", "PG-13", "R", "TV-14", "TV-MA"};
constexpr std::array<const char*, 5> kRoles = {"Actor", "Actor", "Actor", "Director", "Writer"};
constexpr std::array<const char*, 6> kLanguages = {"eng", "fre", "ger", "spa", "jpn", "ita"};

inline std::string iso_date(std::int64_t seconds_since_epoch) {
  const std::time_t t = static_cast<std::time_t>(seconds_since_epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S.0000000Z", &tm);
  return buf;
}

inline std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Jellyfin's sort name: lower case without a leading article.
inline std::string sort_name(const std::string& name) {
  std::string s = lower(name);
  for (const char* article : {"the ", "a ", "an "})
    if (s.rfind(article, 0) == 0) return s.substr(std::string(article).size());
  return s;
}

inline std::string id_of(const std::string& kind, long long n) {
  return perfgate::digest_of(kind + ":" + std::to_string(n));
}

class SeedDb {
 public:
  explicit SeedDb(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("cannot create " + path);
    exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;");
    exec(kSchema);
    exec("BEGIN");
  }
  ~SeedDb() {
    for (auto* s : stmts_) sqlite3_finalize(s);
    sqlite3_close(db_);
  }
  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string m = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error("seeding failed: " + m);
    }
  }
  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("seeding failed: ") + sqlite3_errmsg(db_));
    stmts_.push_back(s);
    return s;
  }
  // One row: each value is text, an integer, a real, or an optional of one (nullopt: NULL).
  template <class... V>
  void insert(sqlite3_stmt* s, const V&... values) {
    int i = 0;
    (bind(s, ++i, values), ...);
    if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error(std::string("seeding failed: ") + sqlite3_errmsg(db_));
    sqlite3_reset(s);
  }

 private:
  static void bind(sqlite3_stmt* s, int i, const std::string& v) {
    sqlite3_bind_text(s, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  static void bind(sqlite3_stmt* s, int i, long long v) { sqlite3_bind_int64(s, i, v); }
  static void bind(sqlite3_stmt* s, int i, int v) { sqlite3_bind_int64(s, i, v); }
  static void bind(sqlite3_stmt* s, int i, double v) { sqlite3_bind_double(s, i, v); }
  template <class T>
  static void bind(sqlite3_stmt* s, int i, const std::optional<T>& v) {
    if (v) return bind(s, i, *v);
    sqlite3_bind_null(s, i);
  }
  sqlite3* db_ = nullptr;
  std::vector<sqlite3_stmt*> stmts_;
};

inline std::optional<std::string> opt(const std::string& s) { return s.empty() ? std::nullopt : std::optional(s); }
inline std::optional<long long> opt(long long n) { return n == 0 ? std::nullopt : std::optional(n); }

}  // namespace media_parity::seeding
