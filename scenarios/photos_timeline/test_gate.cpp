// photos_timeline's equivalence gate: both variants list the same ids page by page, and a
// variant made to return a different sequence gets a different digest.
#include <gtest/gtest.h>

#include "postgres/pg_client.hpp"
#include "test_support.hpp"

using namespace perfgate::fixtures::testing;

namespace {

// 3 drives, 1,200 visible images (plus the ungranted, expired, excluded and trashed ones the
// queries must leave out), 6 pages of 50.
const std::string kParams = R"({"images": 1200, "drives": 3, "pages": 6, "page_size": 50})";

class PhotosTimelineGate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new ScenarioDb(SCENARIO_PROGRAM, "photos_timeline", kParams); }
  static void TearDownTestSuite() { delete db_; }
  void SetUp() override { ASSERT_NE(db_, nullptr) << "the fixture could not be set up"; }
  static ScenarioDb* db_;
};
ScenarioDb* PhotosTimelineGate::db_ = nullptr;

}  // namespace

TEST_F(PhotosTimelineGate, BothVariantsListTheSamePages) {
  const std::string before = db_->digest("before");
  ASSERT_EQ(before.size(), 32u) << before;
  EXPECT_EQ(db_->digest("after"), before);
}

TEST_F(PhotosTimelineGate, GateTripsWhenOneVariantDiffers) {
  const std::string after = db_->digest("after");
  const std::string perturbed = db_->digest("before", {"--test-perturb"});
  ASSERT_EQ(perturbed.size(), 32u) << perturbed;
  EXPECT_NE(perturbed, after);
}

TEST_F(PhotosTimelineGate, InaccessibleImagesAreLeftOut) {
  TempDir out;
  const auto path = (out.path() / "rows.txt").string();
  auto r = db_->run("after", {}, {{"PERFGATE_OUTPUT", path}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Every listed id is a visible image of a granted drive: check them against the database.
  std::vector<std::string> ids;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) ids.push_back(line.substr(line.find('\t') + 1));
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
