// photos_timeline's equivalence gate: both variants list the same rows, every column, page by
// page, and each declared lie is told apart from BEFORE.
#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "pg_scenario/gate_test.hpp"
#include "postgres/pg_client.hpp"

using namespace perfgate::fixtures::testing;

namespace {

// 3 drives, 1,200 visible images (plus the ungranted, expired, excluded and trashed ones the
// queries must leave out), 6 pages of 50.
struct Scenario {
  static constexpr const char* kName = "photos_timeline";
  static constexpr const char* kParams = R"({"images": 1200, "drives": 3, "pages": 6, "page_size": 50})";
  static constexpr const char* kOtherParams = R"({"images": 1300, "drives": 3, "pages": 6, "page_size": 50})";
  static std::vector<std::string> lies() {
    return {"no-metadata-join", "no-folder-join",    "remembered-drives",
            "date-only-cursor", "shared-drive-slot", "pages-in-start"};
  }
};

// The ids AFTER listed, by label ("page 1", "tied dates: page 2", ...), in order.
std::map<std::string, std::vector<std::string>> listed_ids(const std::string& path) {
  std::map<std::string, std::vector<std::string>> ids;
  std::ifstream in(path);
  std::string line;
  // "<label>\tR10;T36:<uuid>;...": the id is the first column of the canonical row.
  while (std::getline(in, line)) ids[line.substr(0, line.find('\t'))].push_back(line.substr(line.find("T36:") + 4, 36));
  return ids;
}

std::string uuid_array(const std::vector<std::string>& ids) {
  std::string array = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) array += (i ? "," : "") + ids[i];
  return array + "}";
}

}  // namespace

using PhotosTimelineGate = perfgate::pg_scenario::testing::Gate<Scenario>;
PG_SCENARIO_GATE_TESTS(PhotosTimelineGate)

TEST_F(PhotosTimelineGate, InaccessibleImagesAreLeftOut) {
  TempDir out;
  const auto path = (out.path() / "rows.txt").string();
  auto r = db_->run("after", {}, {{"PERFGATE_OUTPUT", path}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Every listed id is a visible image of a granted drive: check them against the database.
  std::vector<std::string> ids;
  for (const auto& [label, page] : listed_ids(path))
    if (label.rfind("page ", 0) == 0) ids.insert(ids.end(), page.begin(), page.end());
  ASSERT_EQ(ids.size(), 300u);
  perfgate::fixtures::PgConnection c(db_->fixture());
  const std::string array = uuid_array(ids);
  auto res = c.exec_params(
      "SELECT count(*) FROM files f JOIN drives d ON d.id = f.drive_id WHERE f.id = ANY($1::uuid[]) "
      "AND NOT f.is_trashed AND f.mime_type LIKE 'image/%' AND d.name IN ('Shared drive 0', 'Shared drive 1', "
      "'Shared drive 2')",
      {array});
  EXPECT_EQ(res.integer(0, 0), 300);
  // The newest visible image comes first; inaccessible ones are newer than some listed ones.
  auto hidden = c.exec(
      "SELECT count(*) FROM files f JOIN drives d ON d.id = f.drive_id WHERE d.name NOT IN ('Shared drive 0', "
      "'Shared drive 1', 'Shared drive 2') AND f.media_sort_date > (SELECT min(media_sort_date) FROM files "
      "WHERE id = ANY('" +
      array + "'::uuid[]))");
  EXPECT_GT(hidden.integer(0, 0), 0) << "the test fixture has no inaccessible images where the pages are";
}

TEST_F(PhotosTimelineGate, PlansShowTheShapes) {
  auto before = db_->run("before");
  auto after = db_->run("after");
  ASSERT_EQ(before.exit_code, 0) << before.err;
  ASSERT_EQ(after.exit_code, 0) << after.err;
  const std::string bp = before.last_json()["extra"]["explain"]["plan"];
  const std::string ap = after.last_json()["extra"]["explain"]["plan"];
  EXPECT_NE(bp.find("top-N heapsort"), std::string::npos) << bp;
  EXPECT_NE(ap.find("idx_files_media_timeline_by_drive"), std::string::npos) << ap;
}

TEST_F(PhotosTimelineGate, ProbesListWhatTheyAsk) {
  TempDir out;
  const auto path = (out.path() / "rows.txt").string();
  auto r = db_->run("after", {}, {{"PERFGATE_OUTPUT", path}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto ids = listed_ids(path);
  perfgate::fixtures::PgConnection c(db_->fixture());
  auto on_drive = [&](const std::vector<std::string>& page, const char* drive) {
    return c
        .exec_params(
            "SELECT count(*) FROM files f JOIN drives d ON d.id = f.drive_id WHERE f.id = ANY($1::uuid[]) "
            "AND d.name = $2",
            {uuid_array(page), std::string(drive)})
        .integer(0, 0);
  };
  // The revoked grant: a full page, none of it on drive 0.
  ASSERT_EQ(ids["revoked grant: page 1"].size(), 50u);
  EXPECT_EQ(on_drive(ids["revoked grant: page 1"], "Shared drive 0"), 0);
  // 150 tied dates from the top (pages of 50): 4 pages, no id twice, the run in id DESC order.
  std::vector<std::string> tied;
  for (int p = 1; p <= 4; ++p) {
    const auto& page = ids["tied dates: page " + std::to_string(p)];
    tied.insert(tied.end(), page.begin(), page.end());
  }
  ASSERT_EQ(tied.size(), 200u);
  EXPECT_EQ(std::set<std::string>(tied.begin(), tied.end()).size(), 200u);
  EXPECT_TRUE(std::is_sorted(tied.begin(), tied.begin() + 150, std::greater<>()));
  // Two callers interleaved: user 2's page is the ungranted drive's alone, the caller's pages never it.
  const auto& user2 = ids["two callers, user 2: page 1"];
  ASSERT_EQ(user2.size(), 50u);
  EXPECT_EQ(on_drive(user2, "Shared drive 3"), 50);
  EXPECT_EQ(on_drive(ids["two callers, the caller: page 1"], "Shared drive 3"), 0);
  EXPECT_EQ(on_drive(ids["two callers, the caller: page 2"], "Shared drive 3"), 0);
  // The photo added between pages opens page 2.
  ASSERT_FALSE(ids["added between: page 2"].empty());
  EXPECT_EQ(ids["added between: page 2"].front(), "f0000000-0000-4000-8000-0000000000a9");
}
