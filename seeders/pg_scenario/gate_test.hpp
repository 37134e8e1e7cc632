// The shared tail of the PostgreSQL scenarios' gate tests (keyset_listing, folder_keyset,
// photos_timeline): one throwaway cluster and one seeded template per test binary, and the
// checks every PostgreSQL scenario owes. A test file names its scenario and parameters, then
// adds its own tests beside the shared ones:
//
//   struct Keyset {
//     static constexpr const char* kName = "keyset_listing";
//     static constexpr const char* kParams = R"({"folders": 30, "files": 700, "page_size": 50})";
//     static constexpr const char* kOtherParams = R"({"folders": 31, "files": 700, "page_size": 50})";
//     static std::vector<std::string> lies() { return {"null-size", "stop-early"}; }
//   };
//   using KeysetListingGate = perfgate::pg_scenario::testing::Gate<Keyset>;
//   PG_SCENARIO_GATE_TESTS(KeysetListingGate)
//
// The build (perfgate_pg_scenario's TEST) defines SCENARIO_PROGRAM, the program under test.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace perfgate::pg_scenario::testing {

using fixtures::testing::ScenarioDb;

template <class Scenario>
class Gate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new ScenarioDb(SCENARIO_PROGRAM, Scenario::kName, Scenario::kParams); }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(db_, nullptr) << "the fixture could not be set up"; }
  static std::vector<std::string> scenario_lies() { return Scenario::lies(); }
  static std::string other_params() { return Scenario::kOtherParams; }
  static inline ScenarioDb* db_ = nullptr;
};

// A lie is told apart from BEFORE when it prints another digest or says "equivalent": false
// itself; either way the harness exits 3. A lie that crashes is not caught, it is broken.
inline ::testing::AssertionResult lie_is_caught(const ScenarioDb& db, const std::string& lie) {
  const std::string before = db.digest("before");
  const auto r = db.run("after", {"--lie", lie});
  if (r.exit_code != 0) return ::testing::AssertionFailure() << lie << " exited " << r.exit_code << ": " << r.err;
  const auto j = r.last_json();
  if (j.value("equivalent", true) == false) return ::testing::AssertionSuccess();
  if (j.at("digest").get<std::string>() != before) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << lie << " printed BEFORE's digest " << before
                                       << ": it passes as the same work";
}

}  // namespace perfgate::pg_scenario::testing

// The checks every PostgreSQL scenario owes, as tests of `Fixture` (a Gate<Scenario>).
#define PG_SCENARIO_GATE_TESTS(Fixture)                                      \
  TEST_F(Fixture, BeforeAndAfterGiveTheSameAnswers) {                        \
    const std::string before = db_->digest("before");                        \
    ASSERT_EQ(before.size(), 32u) << before;                                 \
    EXPECT_EQ(db_->digest("after"), before);                                 \
  }                                                                          \
  TEST_F(Fixture, EveryDeclaredLieIsToldApartFromBefore) {                   \
    for (const auto& lie : Fixture::scenario_lies())                         \
      EXPECT_TRUE(perfgate::pg_scenario::testing::lie_is_caught(*db_, lie)); \
  }                                                                          \
  TEST_F(Fixture, UndeclaredLieAndUnknownVariantExitTwo) {                   \
    auto r = db_->run("after", {"--lie", "sideways"});                       \
    EXPECT_EQ(r.exit_code, 2);                                               \
    EXPECT_NE(r.err.find("unknown lie"), std::string::npos) << r.err;        \
    r = db_->run("sideways");                                                \
    EXPECT_EQ(r.exit_code, 2);                                               \
    EXPECT_NE(r.err.find("unknown variant"), std::string::npos) << r.err;    \
  }                                                                          \
  TEST_F(Fixture, FixtureSeededWithOtherParametersIsRefused) {               \
    auto r = db_->run("after", {}, {}, Fixture::other_params());             \
    EXPECT_NE(r.exit_code, 0);                                               \
    EXPECT_NE(r.err.find("seeded"), std::string::npos) << r.err;             \
  }
