// folder_keyset's equivalence gate: both variants walk the same rows (id and name), and each
// declared lie is told apart from BEFORE.
#include "pg_scenario/gate_test.hpp"
#include "postgres/pg_client.hpp"

using namespace perfgate::fixtures::testing;

namespace {

// 437 sub-folders, 40 a page: 11 pages, the last one partial.
struct Scenario {
  static constexpr const char* kName = "folder_keyset";
  static constexpr const char* kParams = R"({"subfolders": 437, "page_size": 40})";
  static constexpr const char* kOtherParams = R"({"subfolders": 500, "page_size": 40})";
  static std::vector<std::string> lies() { return {"no-id", "stop-early", "stale-listing", "walk-read-once"}; }
};

}  // namespace

using FolderKeysetGate = perfgate::pg_scenario::testing::Gate<Scenario>;
PG_SCENARIO_GATE_TESTS(FolderKeysetGate)

TEST_F(FolderKeysetGate, StopEarlyLieSaysItIsNotEquivalent) {
  auto r = db_->run("after", {"--lie", "stop-early"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.last_json();
  EXPECT_EQ(j.value("equivalent", true), false) << j.dump();
  EXPECT_NE(j.value("equivalence_reason", "").find("walked 40 sub-folders"), std::string::npos) << j.dump();
}

TEST_F(FolderKeysetGate, PagesAndPlansAreReported) {
  TempDir out;
  const auto path = (out.path() / "rows.txt").string();
  for (const std::string variant : {"before", "after"}) {
    auto r = db_->run(variant, {}, {{"PERFGATE_OUTPUT", path}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = r.last_json();
    EXPECT_EQ(j["metrics"]["pages"]["value"].get<double>(), 11.0) << variant;
    EXPECT_EQ(j["metrics"]["rows"]["value"].get<double>(), 437.0) << variant;
    const std::string plan = j["extra"]["explain"]["plan"].get<std::string>();
    if (variant == "before") {
      EXPECT_NE(plan.find("WindowAgg"), std::string::npos) << plan;
    }
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    // The timed walk, the walk after a write (one created, one renamed, one trashed), then the
    // walk during a race (one created after the cursor, one trashed ahead of it).
    ASSERT_EQ(lines.size(), 3u * 437u) << variant;
    const std::string& first = lines.front();
    // The canonical row: R2;T36:<id>;T13:project-00000;
    EXPECT_EQ(first.substr(0, 7), "R2;T36:") << first;
    EXPECT_EQ(first.substr(first.size() - 18), "T13:project-00000;") << variant << ": " << first;
    auto ends = [](const std::string& s, const std::string& tail) {
      return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    EXPECT_TRUE(ends(lines[437], "T13:project-0-new;")) << variant << ": " << lines[437];
    EXPECT_TRUE(ends(lines[2 * 437 - 1], "T18:project-zz-renamed;")) << variant << ": " << lines[2 * 437 - 1];
    for (std::size_t i = 437; i < 2 * 437; ++i) EXPECT_FALSE(ends(lines[i], "T13:project-00001;")) << i;
    // Page 2 ends at project-00079: the new one follows it, the last one (project-00436) is trashed.
    EXPECT_TRUE(ends(lines[2 * 437 + 80], "T17:project-00079-new;")) << variant << ": " << lines[2 * 437 + 80];
    EXPECT_TRUE(ends(lines.back(), "T13:project-00435;")) << variant << ": " << lines.back();
  }
}

TEST_F(FolderKeysetGate, AHelperBuiltInTheFixtureIsADivergence) {
  auto r = db_->run("after", {"--lie", "helper-index"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.last_json().value("equivalent", true), true) << r.last_json().dump();
  r = db_->run("before");
  perfgate::fixtures::PgConnection(db_->fixture()).exec("DROP INDEX idx_folders_walk");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.last_json();
  EXPECT_EQ(j.value("equivalent", true), false) << j.dump();
  EXPECT_NE(j.value("equivalence_reason", "").find("added public.idx_folders_walk i CREATE INDEX"), std::string::npos)
      << j.dump();
}
