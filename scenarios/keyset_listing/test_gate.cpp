// keyset_listing's equivalence gate: every variant drains the same rows, every column, in
// both orders, and each declared lie is told apart from BEFORE.
#include <algorithm>

#include "pg_scenario/gate_test.hpp"
#include "postgres/pg_client.hpp"

using namespace perfgate::fixtures::testing;

namespace {

// 730 rows, 50 a page: 15 pages, the cursor crosses from the folder group to the file group
// inside a page.
struct Scenario {
  static constexpr const char* kName = "keyset_listing";
  static constexpr const char* kParams = R"({"folders": 30, "files": 700, "page_size": 50})";
  static constexpr const char* kOtherParams = R"({"folders": 31, "files": 700, "page_size": 50})";
  static std::vector<std::string> lies() { return {"null-size", "stop-early", "stale-listing", "drain-read-once"}; }
};

}  // namespace

using KeysetListingGate = perfgate::pg_scenario::testing::Gate<Scenario>;
PG_SCENARIO_GATE_TESTS(KeysetListingGate)

TEST_F(KeysetListingGate, SeedReportsRowsAndSeconds) {
  EXPECT_EQ(db_->seed_figures().at("rows").get<long long>(), 2 * (1 + 2 + 30 + 700)) << "two schemas, same rows";
  EXPECT_GT(db_->seed_figures().at("seconds").get<double>(), 0.0);
  EXPECT_GT(db_->seed_figures().at("rows_per_second").get<double>(), 0.0);
}

TEST_F(KeysetListingGate, EveryVariantDrainsTheSameSequenceInBothOrders) {
  const std::string before = db_->digest("before");
  ASSERT_EQ(before.size(), 32u) << before;
  EXPECT_EQ(db_->digest("before-with-indexes"), before);
  EXPECT_EQ(db_->digest("after"), before);
}

TEST_F(KeysetListingGate, StopEarlyLieSaysItIsNotEquivalent) {
  auto r = db_->run("after", {"--lie", "stop-early"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.last_json();
  EXPECT_EQ(j.value("equivalent", true), false) << j.dump();
  EXPECT_NE(j.value("equivalence_reason", "").find("name order"), std::string::npos) << j.dump();
  EXPECT_NE(j.at("digest").get<std::string>(), db_->digest("before"));
}

TEST_F(KeysetListingGate, ReportCarriesTheContractFields) {
  TempDir out;
  const auto path = (out.path() / "rows.txt").string();
  auto r = db_->run("before-with-indexes", {}, {{"PERFGATE_OUTPUT", path}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.last_json();
  for (const char* m : {"ms_per_page_p50", "ms_per_page_p99", "total_ms", "pages", "mtime_total_ms"})
    EXPECT_TRUE(j["metrics"].contains(m)) << m;
  EXPECT_EQ(j["metrics"]["pages"]["value"].get<double>(), 15.0);
  EXPECT_EQ(j["series"]["page_ms"]["values"].size(), 15u);
  const std::string plan = j["extra"]["explain"]["plan"].get<std::string>();
  EXPECT_NE(plan.find("Buffers"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Seq Scan on files"), std::string::npos) << "BEFORE rescans the folder: " << plan;
  std::ifstream in(path);
  std::vector<std::string> after_write, race;
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    if (line.rfind("name after a write", 0) == 0) after_write.push_back(line);
    if (line.rfind("name during a race", 0) == 0) race.push_back(line);
  }
  // Both orders, the name order after a write (one added, one renamed, one trashed), then
  // during a race (one added after the cursor, one trashed ahead of it).
  EXPECT_EQ(lines, 4 * 730);
  ASSERT_EQ(after_write.size(), 730u);
  ASSERT_EQ(race.size(), 730u);
  auto holds = [&](const std::string& name) {
    return std::any_of(after_write.begin(), after_write.end(),
                       [&](const std::string& l) { return l.find(name) != std::string::npos; });
  };
  // Page 2 ends at File_00000070.JPG: the new file follows it, the last one is trashed.
  EXPECT_NE(race[100].find("file_00000070.jpg (2)"), std::string::npos) << race[100];
  EXPECT_NE(race.back().find("File_00000699.JPG"), std::string::npos) << race.back();
  EXPECT_TRUE(holds("File_00000000.JPG"));
  EXPECT_TRUE(holds("File_99999999.JPG"));
  EXPECT_FALSE(holds("File_00000001.JPG"));
  EXPECT_FALSE(holds("File_00000002.JPG"));
}

TEST_F(KeysetListingGate, AHelperBuiltInTheFixtureIsADivergence) {
  auto r = db_->run("after", {"--lie", "helper-index"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.last_json().value("equivalent", true), true) << r.last_json().dump();
  r = db_->run("after");
  perfgate::fixtures::PgConnection(db_->fixture()).exec("DROP INDEX migrated.idx_files_listing");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.last_json();
  EXPECT_EQ(j.value("equivalent", true), false) << j.dump();
  EXPECT_NE(j.value("equivalence_reason", "").find("added migrated.idx_files_listing i"), std::string::npos)
      << j.dump();
}
