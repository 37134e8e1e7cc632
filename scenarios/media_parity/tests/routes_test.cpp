// The routes through the server's core (answer(): no socket): BEFORE and AFTER answer every
// request of the set byte for byte alike, with the statement counts the write-up names; the
// lies and the test flags change exactly what they say.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "db.hpp"
#include "played.hpp"
#include "schema.hpp"
#include "seed.hpp"
#include "server.hpp"

namespace fs = std::filesystem;
using namespace media_parity;

namespace {

class Routes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One directory per process: ctest runs each test of this suite as its own process, two at
    // a time, and a shared name let one process's seeding remove the other's database.
    dir_ = fs::temp_directory_path() / ("media_parity_routes_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    seed_fixture(SeedParams::from_json({{"movies", 60},
                                        {"series", 6},
                                        {"seasons_per_series", 2},
                                        {"episodes_per_season", 6},
                                        {"artists", 60},
                                        {"albums_per_artist", 2},
                                        {"tracks_per_album", 3},
                                        {"persons", 200},
                                        {"studios", 10},
                                        {"user_data_rows", 600}}),
                 dir_.string());
    std::ifstream in(dir_ / kRequestsFile);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] == '/') requests_.push_back(line);
    std::ifstream p(dir_ / kProbesFile);
    for (std::string line; std::getline(p, line);)
      if (!line.empty() && line[0] != '#') probes_.push_back(line);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static Answer ask(const std::string& target, ServeOptions o) {
    Pool pool((dir_ / kDatabaseFile).string(), o.after);
    return answer(pool, target, o);
  }
  static ServeOptions before() { return {}; }
  static ServeOptions after() {
    ServeOptions o;
    o.after = true;
    return o;
  }
  static inline fs::path dir_;
  static inline std::vector<std::string> requests_, probes_;
};

}  // namespace

TEST_F(Routes, BeforeAndAfterAnswerEveryRequestAlike) {
  ASSERT_GE(requests_.size(), 40u);
  for (const auto& r : requests_) {
    const Answer b = ask(r, before()), a = ask(r, after());
    EXPECT_EQ(b.status, 200) << r << ": " << b.body;
    EXPECT_EQ(a.status, b.status) << r;
    EXPECT_EQ(a.body, b.body) << r;
    EXPECT_GT(a.statements, 0u) << r;
    // /Years: AFTER pages and counts in SQL (two statements) where BEFORE reads every row in one.
    if (r.find("/Years") != 0) {
      EXPECT_LE(a.statements, b.statements) << r;
    }
  }
}

TEST_F(Routes, ByNamePagesAndCountsRunTheWriteUpsStatementCounts) {
  const std::string artists = "/Artists?Limit=50&SortBy=SortName&UserId=user00";
  const Answer b = ask(artists, before()), a = ask(artists, after());
  ASSERT_EQ(nlohmann::json::parse(a.body)["Items"].size(), 50u);
  // BEFORE: user, libraries twice (page and count: 2 permissions + the views + 3 scans), the
  // page, the count, then per entry: 2 permission reads, its item, its user data, its images.
  EXPECT_EQ(b.statements, 1u + 2 * (2 + 1 + 3) + 2 + 50 * 5);
  EXPECT_LE(a.statements, 20u);
  const std::string counts = "/Items/Counts?UserId=user00";
  const Answer cb = ask(counts, before()), ca = ask(counts, after());
  EXPECT_EQ(cb.statements, 1u + 11 * (2 + 1 + 3 + 1));  // each of 11 kinds re-derives the libraries
  EXPECT_LE(ca.statements, 9u);
}

TEST_F(Routes, TheNoPeopleLieLeavesPeopleEmpty) {
  const std::string r = "/Items?IncludeItemTypes=Movie&Limit=5&Fields=People&UserId=user00";
  ServeOptions lie = after();
  lie.lie_no_people = true;
  const auto honest = nlohmann::json::parse(ask(r, after()).body), lying = nlohmann::json::parse(ask(r, lie).body);
  ASSERT_EQ(honest["Items"][0]["People"].size(), 22u);
  EXPECT_TRUE(lying["Items"][0]["People"].empty());
  EXPECT_EQ(lying["TotalRecordCount"], honest["TotalRecordCount"]);
}

TEST_F(Routes, TheStaleCountsLieAnswersTheFirstUsersCounts) {
  ServeOptions lie = after();
  lie.lie_stale_counts = true;
  Pool pool((dir_ / kDatabaseFile).string(), true);
  const Answer first = answer(pool, "/Items/Counts?UserId=user00", lie);
  const Answer second = answer(pool, "/Items/Counts?UserId=user03", lie);
  EXPECT_EQ(second.body, first.body);
  EXPECT_NE(second.body, ask("/Items/Counts?UserId=user03", after()).body);
}

TEST_F(Routes, TheAllFoldersLieShowsARestrictedUserEveryLibrary) {
  ServeOptions lie = after();
  lie.lie_all_folders = true;
  const std::string counts = "/Items/Counts?UserId=user03";  // user03: movies only
  const auto honest = nlohmann::json::parse(ask(counts, after()).body);
  const auto lying = nlohmann::json::parse(ask(counts, lie).body);
  EXPECT_GT(lying["ItemCount"].get<long long>(), honest["ItemCount"].get<long long>()) << lying.dump();
  EXPECT_EQ(ask("/Items/Counts?UserId=user00", lie).body, ask("/Items/Counts?UserId=user00", after()).body)
      << "a user who may see every library sees the same";
}

TEST_F(Routes, FillPeopleAddsPeopleOnlyWhereTheRequestDidNotAskForThem) {
  ServeOptions fill = after();
  fill.fill_people = true;
  for (const auto& r : requests_) {
    const std::string plain = ask(r, after()).body, filled = ask(r, fill).body;
    const bool lists_cast_items =
        r.find("Fields=People") == std::string::npos &&
        (r.find("/Items?") == 0 || r.find("/Items/Latest") == 0 || r.find("/UserItems/Resume") == 0) &&
        nlohmann::json::parse(plain).dump().find("\"Type\":\"Movie\"") != std::string::npos;
    if (lists_cast_items) {
      EXPECT_NE(filled, plain) << r;
    }
    if (r.find("Fields=People") != std::string::npos || r.find("/Items/Counts") == 0 || r.find("/Years") == 0) {
      EXPECT_EQ(filled, plain) << r;
    }
  }
}

TEST_F(Routes, EmptyListsKeepsTheCountsAndEmptiesTheLists) {
  ServeOptions empty = after();
  empty.empty_lists = true;
  const auto j = nlohmann::json::parse(ask("/Items?IncludeItemTypes=Movie&Limit=10&UserId=user00", empty).body);
  EXPECT_TRUE(j["Items"].empty());
  EXPECT_EQ(j["TotalRecordCount"], 60);
  EXPECT_TRUE(nlohmann::json::parse(ask("/Items/Latest?UserId=user00", empty).body).empty());
}

TEST_F(Routes, BadRequestsAreAnsweredWithTheRightStatus) {
  EXPECT_EQ(ask("/Items?IncludeItemTypes=Movie", after()).status, 400);  // no user
  EXPECT_EQ(ask("/Items?UserId=nobody", after()).status, 404);
  EXPECT_EQ(ask("/Items?UserId=user00&Limit=ten", after()).status, 400);
  EXPECT_EQ(ask("/Items?UserId=user00&IncludeItemTypes=Spaceship", after()).status, 400);
  EXPECT_EQ(ask("/Items?UserId=user00&SortBy=Colour", after()).status, 400);
  EXPECT_EQ(ask("/Nowhere?UserId=user00", after()).status, 404);
  const Answer missing = ask("/Search/Hints?UserId=user00", before());
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body.find("SearchTerm"), std::string::npos);
}

// probes.txt's write (cache.freshness): user03's played page, one of its movies marked played,
// the page again in another parameter order, as the harness asks them after the window.
TEST_F(Routes, AMarkedMovieIsOnTheNextPlayedPageAndTheFixtureIsNeverWritten) {
  ASSERT_GE(probes_.size(), 3u);
  const std::string page = probes_[probes_.size() - 3], again = probes_.back();
  const std::string post = probes_[probes_.size() - 2].substr(5);
  ASSERT_EQ(probes_[probes_.size() - 2].rfind("POST /Users/user03/PlayedItems/", 0), 0u);
  const std::string movie = post.substr(post.rfind('/') + 1, 32);
  auto holds = [&](const Answer& a) { return a.body.find("\"Id\":\"" + movie + "\"") != std::string::npos; };
  const auto fixture_time = fs::last_write_time(dir_ / kDatabaseFile);
  std::string seen;
  for (const ServeOptions& o : {before(), after()}) {
    Pool pool((dir_ / kDatabaseFile).string(), o.after);
    const Answer first = answer(pool, page, o);
    const Answer marked = answer_post(pool, post, o);
    const Answer second = answer(pool, again, o);
    ASSERT_EQ(marked.status, 200) << marked.body;
    const auto dto = nlohmann::json::parse(marked.body);
    EXPECT_EQ(dto["Played"], true);
    EXPECT_EQ(dto["LastPlayedDate"], "2024-06-01T12:00:00.0000000Z");
    EXPECT_EQ(dto["PlaybackPositionTicks"], 0);
    EXPECT_FALSE(holds(first));
    EXPECT_TRUE(holds(second)) << second.body;
    EXPECT_EQ(nlohmann::json::parse(second.body)["TotalRecordCount"].get<long long>(),
              nlohmann::json::parse(first.body)["TotalRecordCount"].get<long long>() + 1);
    EXPECT_TRUE(fs::exists(pool.private_copy()));
    if (!seen.empty()) {
      EXPECT_EQ(second.body, seen);  // BEFORE and AFTER alike
    }
    seen = second.body;
  }
  EXPECT_EQ(fs::last_write_time(dir_ / kDatabaseFile), fixture_time);
  EXPECT_FALSE(holds(ask(again, after())));  // a new server reads the fixture again

  ServeOptions lie = after();  // the lie "played-cache": the page answered as before the write
  lie.response_cache = std::make_shared<ResponseCache>();
  Pool pool((dir_ / kDatabaseFile).string(), true);
  const Answer first = answer(pool, page, lie);
  ASSERT_EQ(answer_post(pool, post, lie).status, 200);
  EXPECT_EQ(answer(pool, again, lie).body, first.body);
}

TEST_F(Routes, BadWritesAreAnsweredWithTheRightStatus) {
  Pool pool((dir_ / kDatabaseFile).string(), true);
  const auto page = nlohmann::json::parse(ask("/Items?IncludeItemTypes=Movie&Limit=1&UserId=user03", after()).body);
  const std::string movie = page["Items"][0]["Id"];
  EXPECT_EQ(answer_post(pool, "/Users/user03/PlayedItems/" + movie + "?datePlayed=yesterday", after()).status, 400);
  EXPECT_EQ(
      answer_post(pool, "/Users/user03/PlayedItems/" + movie + "?datePlayed=2024-02-30T00:00:00Z", after()).status,
      400);
  EXPECT_EQ(answer_post(pool, "/Users/nobody/PlayedItems/" + movie, after()).status, 404);
  EXPECT_EQ(answer_post(pool, "/Users/user03/PlayedItems/0123456789abcdef0123456789abcdef", after()).status, 404);
  EXPECT_EQ(answer_post(pool, std::string("/Users/") + kDisabledUser + "/PlayedItems/" + movie, after()).status, 403);
  EXPECT_EQ(answer_post(pool, "/Items?UserId=user03", after()).status, 405);
  EXPECT_EQ(answer_post(pool, "/Users/user03/Nope/" + movie, after()).status, 404);
  // Without datePlayed: played, counted at least once, the date it had or now.
  const auto dto = nlohmann::json::parse(answer_post(pool, "/Users/user03/PlayedItems/" + movie, after()).body);
  EXPECT_EQ(dto["Played"], true);
  EXPECT_GE(dto["PlayCount"].get<long long>(), 1);
  EXPECT_TRUE(dto.contains("LastPlayedDate"));
}
