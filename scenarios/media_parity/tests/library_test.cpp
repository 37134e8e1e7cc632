// The seeder: Jellyfin's tables at the sizes the params ask for, 32-hex ids, the same library
// every time, and a request set that covers every route without naming an id.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "db.hpp"
#include "schema.hpp"
#include "seed.hpp"

namespace fs = std::filesystem;
using namespace media_parity;

namespace {

SeedParams small() {
  return SeedParams::from_json({{"movies", 40},
                                {"series", 4},
                                {"seasons_per_series", 2},
                                {"episodes_per_season", 5},
                                {"artists", 12},
                                {"albums_per_artist", 2},
                                {"tracks_per_album", 4},
                                {"persons", 120},
                                {"studios", 8},
                                {"users", 14},
                                {"user_data_rows", 300},
                                {"movie_cast", 22},
                                {"episode_cast", 4}});
}

struct Fixture {
  fs::path dir;
  nlohmann::json figures;
  explicit Fixture(const std::string& name)
      : dir(fs::temp_directory_path() / ("media_parity_test_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    figures = seed_fixture(small(), dir.string());
  }
  ~Fixture() { fs::remove_all(dir); }
  long long count(const std::string& sql) {
    Connection c((dir / kDatabaseFile).string(), false);
    return c.scalar(sql, {}).value_or(-1);
  }
  std::vector<std::string> column(const std::string& sql) {
    Connection c((dir / kDatabaseFile).string(), false);
    std::vector<std::string> out;
    c.query(sql, {}, [&](const Row& r) { out.push_back(r.text(0)); });
    return out;
  }
};

}  // namespace

TEST(MediaLibrary, HasTheSizesTheParamsAskFor) {
  Fixture f("sizes");
  // 3 views + 40 movies + 4 series + 8 seasons + 40 episodes + 12 artists + 24 albums + 96
  // tracks + 120 person items + 24 genre items + 8 studio items.
  EXPECT_EQ(f.count("SELECT COUNT(*) FROM BaseItems"), 3 + 40 + 4 + 8 + 40 + 12 + 24 + 96 + 120 + 24 + 8);
  EXPECT_EQ(f.figures["items"], f.count("SELECT COUNT(*) FROM BaseItems"));
  EXPECT_EQ(f.count("SELECT COUNT(*) FROM UserData"), 300);
  EXPECT_EQ(f.count("SELECT COUNT(*) FROM Users"), 14 + 1);  // and the disabled account, asked only by the probes
  EXPECT_EQ(f.count("SELECT COUNT(*) FROM Users u JOIN Permissions p ON p.UserId = u.Id WHERE u.Username = "
                    "'disabled01' AND p.Kind = 2 AND p.Value = 1"),
            1);
  EXPECT_EQ(f.count("SELECT COUNT(*) FROM PeopleBaseItemMap m JOIN BaseItems b ON b.Id = m.ItemId WHERE b.Type = '" +
                    std::string(stored_type("Movie")) + "'"),
            40 * 22);
  // Movies carry 4 streams, episodes 3 or 4, tracks 1.
  const long long streams = f.count("SELECT COUNT(*) FROM MediaStreamInfos");
  EXPECT_GE(streams, 40 * 4 + 40 * 3 + 96);
  EXPECT_LE(streams, 40 * 4 + 40 * 4 + 96);
  EXPECT_EQ(f.figures["streams"], streams);
  // Every episode has its view, series and season as ancestors.
  EXPECT_EQ(f.count("SELECT COUNT(*) FROM AncestorIds a JOIN BaseItems b ON b.Id = a.ItemId WHERE b.Type = '" +
                    std::string(stored_type("Episode")) + "'"),
            40 * 3);
}

TEST(MediaLibrary, IdsAre32HexDigitsAndUnique) {
  Fixture f("ids");
  const std::regex hex32("[0-9a-f]{32}");
  std::set<std::string> seen;
  for (const auto& id : f.column("SELECT Id FROM BaseItems")) {
    EXPECT_TRUE(std::regex_match(id, hex32)) << id;
    EXPECT_TRUE(seen.insert(id).second) << "duplicate id " << id;
  }
  for (const auto& id : f.column("SELECT Id FROM Peoples UNION ALL SELECT ItemValueId FROM ItemValues UNION ALL "
                                 "SELECT Id FROM Users UNION ALL SELECT Id FROM BaseItemImageInfos"))
    EXPECT_TRUE(std::regex_match(id, hex32)) << id;
}

TEST(MediaLibrary, SameParamsGiveTheSameLibrary) {
  const std::string every_row =
      "SELECT group_concat(Id || Name || SortName || IFNULL(Overview, '') || DateCreated, '|') FROM "
      "(SELECT * FROM BaseItems ORDER BY Id)";
  Fixture a("same_a"), b("same_b");
  EXPECT_EQ(a.column(every_row), b.column(every_row));
  const std::string user_data =
      "SELECT group_concat(ItemId || UserId || Played || PlayCount || PlaybackPositionTicks, '|') FROM "
      "(SELECT * FROM UserData ORDER BY ItemId, UserId)";
  EXPECT_EQ(a.column(user_data), b.column(user_data));
  std::ifstream ra(a.dir / kRequestsFile), rb(b.dir / kRequestsFile);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(ra), {}), std::string(std::istreambuf_iterator<char>(rb), {}));
}

TEST(MediaLibrary, TheRequestSetCoversEveryRouteWithoutIds) {
  Fixture f("requests");
  std::ifstream in(f.dir / kRequestsFile);
  std::set<std::string> routes, users, names;
  int requests = 0;
  std::string line, name;
  const std::regex hex32("[0-9a-f]{32}");
  while (std::getline(in, line)) {
    if (line.rfind("# name: ", 0) == 0) {
      name = line.substr(8);
      EXPECT_TRUE(names.insert(name).second) << "duplicate request name " << name;
      continue;
    }
    ASSERT_FALSE(name.empty()) << "request without a name: " << line;
    ASSERT_EQ(line.find(' '), std::string::npos) << line;
    EXPECT_FALSE(std::regex_search(line, hex32)) << "request names an id: " << line;
    ++requests;
    routes.insert(line.substr(0, line.find('?')));
    const auto u = line.find("UserId=");
    ASSERT_NE(u, std::string::npos) << line;
    users.insert(line.substr(u + 7, line.find('&', u) - u - 7));
    name.clear();
  }
  EXPECT_GE(requests, 40);
  EXPECT_EQ(f.figures["requests"], requests);
  EXPECT_EQ(routes, (std::set<std::string>{"/Items", "/Persons", "/Studios", "/Genres", "/Artists", "/Years",
                                           "/Items/Counts", "/Items/Latest", "/UserItems/Resume", "/Search/Hints",
                                           "/Items/Filters2", "/UserViews"}));
  EXPECT_GE(users.size(), 4u);
}

TEST(MediaLibrary, BadParamsAreRefusedNamingTheField) {
  try {
    SeedParams::from_json({{"movies", 0}});
    FAIL() << "movies = 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("params.movies"), std::string::npos) << e.what();
  }
}
