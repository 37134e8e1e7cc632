#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "layouts/layout_ab.hpp"
#include "layouts/layout_calibration.hpp"
#include "layouts/layout_script.hpp"

namespace perfgate::layouts {
namespace {

TEST(LayoutSpread, LayoutsBeyondTheirNoiseAndTheChangeASingleLayoutCanTrust) {
  // Four layouts at 98, 100, 102, 100 (geometric means), each run 4 times at ±1% around it.
  std::vector<LayoutRun> runs;
  for (double level : {98.0, 100.0, 102.0, 100.0}) {
    LayoutRun r;
    r.before = {level * 1.01, level / 1.01};
    r.after = {level * 1.01, level / 1.01};
    runs.push_back(r);
  }
  const auto s = spread_of(runs);
  ASSERT_EQ(s.medians.size(), 4u);
  EXPECT_NEAR(s.medians[0], 98, 1e-9);
  EXPECT_NEAR(s.spread, 0.02, 0.0005);                         // ±2% around their centre
  const double noise = std::log(1.01) * std::sqrt(4.0 / 3.0);  // sd of ±ln 1.01, n - 1 = 3
  EXPECT_NEAR(s.noise_sd, noise, 1e-12);
  const std::vector<double> logs = {std::log(98.0), std::log(100.0), std::log(102.0), std::log(100.0)};
  double mean = 0, var = 0;
  for (double l : logs) mean += l / 4;
  for (double l : logs) var += (l - mean) * (l - mean) / 3;
  EXPECT_NEAR(s.layout_sd, std::sqrt(var - noise * noise / 4), 1e-12);
  EXPECT_NEAR(s.trusted_change, std::exp(1.96 * std::sqrt(2.0) * s.layout_sd) - 1, 1e-12);
}

TEST(LayoutSpread, NoiseThatExplainsTheMeansLeavesNoLayoutSpread) {
  std::vector<LayoutRun> runs(3);
  runs[0].before = runs[0].after = {100, 110};
  runs[1].before = runs[1].after = {110, 100};
  runs[2].before = runs[2].after = {104.5, 105.5};
  const auto s = spread_of(runs);
  EXPECT_EQ(s.layout_sd, 0);
  EXPECT_EQ(s.trusted_change, 0);
  EXPECT_THROW(spread_of({runs[0]}), std::invalid_argument);
}

TEST(LayoutScript, EachLayoutGetsItsOffsetAndANoiseSeedOfItsOwn) {
  const auto dir = std::filesystem::temp_directory_path() / ("layout-script-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "s.json";
  write_file_atomic(file, R"({"before": {"cpu_ms": {"median": 100, "spread": 0.02, "layouts": [0.05, -0.1]}},
                              "after": {"cpu_ms": 90, "wall_ms": {"median": 50}}})");
  const auto one = nlohmann::json::parse(read_file(script_for_layout(file, 1, 2, dir)));
  const auto two = nlohmann::json::parse(read_file(script_for_layout(file, 2, 2, dir)));
  EXPECT_DOUBLE_EQ(one["before"]["cpu_ms"]["median"].get<double>(), 105);
  EXPECT_DOUBLE_EQ(two["before"]["cpu_ms"]["median"].get<double>(), 90);
  EXPECT_FALSE(one["before"]["cpu_ms"].contains("layouts"));
  EXPECT_NE(one["before"]["cpu_ms"]["seed"], two["before"]["cpu_ms"]["seed"]);
  EXPECT_EQ(one["after"]["cpu_ms"], 90);  // no offsets: as given
  EXPECT_EQ(one["after"]["wall_ms"], nlohmann::json({{"median", 50}}));
  EXPECT_THROW(script_for_layout(file, 3, 3, dir), UsageError);  // two offsets, three layouts
  std::filesystem::remove_all(dir);
}

TEST(LayoutRequest, PlaceholdersAndRefusals) {
  EXPECT_EQ(with_layout("./build-{layout}/prog --seed {layout}", 7), "./build-7/prog --seed 7");
  LayoutRequest r;
  r.before_argv = {"./a"};
  r.after_argv = {"./b"};
  r.layouts = 4;
  EXPECT_THROW(check_request(r), UsageError);  // no {layout} anywhere
  r.after_workdir = "/cache/x-layout-{layout}/tree";
  EXPECT_NO_THROW(check_request(r));
  r.layouts = 1;
  EXPECT_THROW(check_request(r), UsageError);
  r.layouts = 4;
  r.rounds = 1;
  EXPECT_THROW(check_request(r), UsageError);
}

}  // namespace
}  // namespace perfgate::layouts
