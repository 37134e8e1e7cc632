// photos_timeline's equivalence gate: both variants list the same rows, every column, page by
// page, and each declared lie is told apart from BEFORE.
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
  static std::vector<std::string> lies() { return {"no-metadata-join", "no-folder-join"}; }
};

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
  std::ifstream in(path);
  std::string line;
  // "page N\tR10;T36:<uuid>;...": the id is the first column of the canonical row.
  while (std::getline(in, line)) ids.push_back(line.substr(line.find("T36:") + 4, 36));
  ASSERT_EQ(ids.size(), 300u);
  perfgate::fixtures::PgConnection c(db_->fixture());
  std::string array = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) array += (i ? "," : "") + ids[i];
  array += "}";
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
