#include "plan/plan.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/errors.hpp"
#include "common/usage_error_of.hpp"
#include "plan/ab_plan.hpp"
#include "plan/ab_request.hpp"
#include "plan/nested_run.hpp"
#include "plan/shard.hpp"

using namespace perfgate::plan;

TEST(Shard, ParsesAndRejects) {
  auto s = parse_shard("2/3");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 3);
  for (const char* bad : {"0/3", "4/3", "1", "a/b", "1/0", "1/2x", "/2"})
    EXPECT_THROW(parse_shard(bad), perfgate::UsageError) << bad;
}

TEST(Shard, EveryNameInExactlyOneShardWhateverTheInputOrder) {
  std::vector<std::string> names = {"e", "b", "a", "d", "c", "g", "f"};
  std::vector<std::string> reversed(names.rbegin(), names.rend());
  std::multiset<std::string> seen;
  for (int i = 1; i <= 3; ++i) {
    auto part = shard_names(names, {i, 3});
    EXPECT_EQ(part, shard_names(reversed, {i, 3}));
    EXPECT_GE(part.size(), 2u);
    EXPECT_LE(part.size(), 3u);
    seen.insert(part.begin(), part.end());
  }
  EXPECT_EQ(seen, std::multiset<std::string>(names.begin(), names.end()));
  EXPECT_EQ(shard_names(names, {1, 3}), (std::vector<std::string>{"a", "d", "g"}));
}

// Every bundled manifest × profile: the first look (min_rounds) can already reject inside the
// suite's Holm family (every bundled scenario's gated metric at that profile, 4 looks), so a
// clear effect stops there and no profile is sized below what its test can decide.
TEST(Rounds, EveryBundledProfileLetsTheFirstLookReject) {
  namespace fs = std::filesystem;
  std::map<std::string, std::vector<std::pair<std::string, int>>> by_profile;  // profile → (scenario, min_rounds)
  std::map<std::string, int> gated;                                            // profile → gated comparisons
  for (const auto& dir : fs::directory_iterator(fs::path(PERFGATE_SOURCE_DIR) / "scenarios")) {
    const fs::path file = dir.path() / "scenario.json";
    if (!fs::exists(file)) continue;
    std::ifstream in(file);
    const auto m = nlohmann::json::parse(in);
    for (const auto& [profile, p] : m.at("profiles").items()) {
      by_profile[profile].push_back({m.at("name").get<std::string>(), p.value("min_rounds", 8)});
      gated[profile] += 1;  // one gated (primary) metric per scenario
    }
  }
  ASSERT_GE(by_profile["quick"].size(), 7u);
  for (const auto& [profile, list] : by_profile) {
    const int needed = min_decidable_rounds(0.05, kLooksPerScenario, gated[profile]);
    for (const auto& [name, min_rounds] : list)
      EXPECT_GE(min_rounds, needed) << name << " at " << profile << ": the first look cannot reject inside a family of "
                                    << gated[profile];
  }
}

TEST(Rounds, MinimumFollowsTheFloor) {
  EXPECT_EQ(min_decidable_rounds(0.05, 4, 9), 11);  // docs/architecture.md: 11 rounds for m = 9
  EXPECT_EQ(min_decidable_rounds(0.05, 4, 7), 11);
  EXPECT_EQ(min_decidable_rounds(0.05, 4, 1), 8);
  EXPECT_EQ(min_decidable_rounds(0.05, 1, 1), 6);
}

// A fixed number of rounds is one look: it spends the whole alpha there (issue 47: `ab --runs 6`
// was tested at alpha / 4 and could never decide).
TEST(Rounds, FixedRoundsAreOneLookAtFullAlpha) {
  RunOptions o;
  o.min_rounds = o.max_rounds = 6;
  const RunPlan fixed = plan_ab("ab", {"/bin/true"}, {"/bin/true"}, "cpu_ms", o);
  EXPECT_EQ(fixed.scenarios.front().looks, std::vector<int>{6});
  EXPECT_EQ(fixed.looks_per_scenario, 1);
  EXPECT_DOUBLE_EQ(fixed.alpha_per_look, 0.05);
  o.min_rounds = 8;
  o.max_rounds = 30;
  const RunPlan sequential = plan_ab("ab", {"/bin/true"}, {"/bin/true"}, "cpu_ms", o);
  EXPECT_EQ(sequential.looks_per_scenario, 4);
  EXPECT_DOUBLE_EQ(sequential.alpha_per_look, 0.0125);
}

// --max-time is ab's and gbench's budget itself (issue 48): the same looks, the budget
// the given seconds, kept as a hard limit too; it used to switch to run's 8-30 schedule and a
// larger --max-time could give fewer rounds.
TEST(Rounds, MaxTimeIsTheBudgetOfTheSameDesign) {
  RunOptions o;
  const RunPlan by_default = plan_ab("ab", {"/bin/true"}, {"/bin/true"}, "cpu_ms", o);
  o.max_time_s = 170;
  const RunPlan longer = plan_ab("ab", {"/bin/true"}, {"/bin/true"}, "cpu_ms", o);
  const auto &d = by_default.scenarios.front(), &l = longer.scenarios.front();
  EXPECT_EQ(d.look_budget_s, 50);
  EXPECT_EQ(l.look_budget_s, 170);
  EXPECT_EQ(d.looks, l.looks);
  EXPECT_EQ(l.max_time_s, 170);
  EXPECT_EQ(d.max_time_s, 50);
  o.max_rounds = 30;  // --max-rounds is a fixed design, whatever the time
  EXPECT_EQ(plan_ab("ab", {"/bin/true"}, {"/bin/true"}, "cpu_ms", o).scenarios.front().look_budget_s, 0);
}

// The budgeted design's first look is the first a Holm family of its pairs can decide at: one
// pair at 8 rounds (2 / 2^8 under the 0.008 a first look spends), three -P values at 10 (0.008 / 3
// needs 2 / 2^10), --min-rounds as given.
TEST(Rounds, TheFirstBudgetedLookIsTheFirstTheFamilyCanDecideAt) {
  RunOptions o;
  EXPECT_EQ(plan_ab("ab", {"/bin/true"}, {"/bin/true"}, "cpu_ms", o).scenarios.front().looks.front(), 8);
  std::vector<AbPair> three(3);
  for (auto& p : three) p.before_argv = p.after_argv = {"/bin/true"};
  for (const auto& s : plan_ab_family(three, "cpu_ms", o).scenarios) EXPECT_EQ(s.looks.front(), 10);
  o.min_rounds = 20;
  EXPECT_EQ(plan_ab_family(three, "cpu_ms", o).scenarios.front().looks.front(), 20);
}

// A nested run (a bisect step, a layout's pair, a lie, a calibration pair) is quiet, never
// judged against a baseline, writes one results file, fixes its rounds and offsets its seed;
// what it does not say stays as the user asked.
TEST(NestedRun, KeepsWhatItDoesNotSay) {
  RunOptions asked;
  asked.seed = 5;
  asked.noise = 0.03;
  asked.max_time_s = 60;
  asked.outputs.out_dir = "perfgate-out";
  asked.debug_samples = "script.json";
  const auto o = nested_options(asked, {.rounds = 4, .warmup = 0, .seed_offset = 2, .results_file = "s.json"});
  EXPECT_EQ(o.min_rounds, 4);
  EXPECT_EQ(o.max_rounds, 4);
  EXPECT_FALSE(o.max_time_s.has_value());
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_TRUE(o.outputs.quiet);
  EXPECT_EQ(o.outputs.results_file(), "s.json");
  EXPECT_TRUE(o.baseline && o.baseline->none());
  EXPECT_EQ(o.noise, 0.03);
  EXPECT_EQ(o.debug_samples, "script.json");
  const auto as_asked = nested_options(asked, {});
  EXPECT_EQ(as_asked.max_time_s, 60);
  EXPECT_EQ(as_asked.seed, 5u);
  EXPECT_EQ(as_asked.outputs.results_file(), "");
  EXPECT_FALSE(as_asked.duet);
  EXPECT_EQ(as_asked.outputs.cannot_tell, CannotTellExit::Fail);

  // What a nested run decides for itself: bisect's layout step, calibrate's counted pairs.
  const auto step = nested_options(asked, {.max_rounds = 8,
                                           .noise = 0.05,
                                           .alpha = 0.01,
                                           .cannot_tell = CannotTellExit::Pass,
                                           .duet = true,
                                           .measures = std::vector<std::string>{"instructions"}});
  EXPECT_EQ(step.max_rounds, 8);
  EXPECT_EQ(step.max_time_s, 60);  // a bound, not a fixed number: the time budget stays
  EXPECT_EQ(step.noise, 0.05);
  EXPECT_EQ(step.alpha, 0.01);
  EXPECT_EQ(step.outputs.cannot_tell, CannotTellExit::Pass);
  EXPECT_TRUE(step.duet);
  EXPECT_EQ(step.measures, std::vector<std::string>{"instructions"});
}

TEST(AbRequest, OneCommandRunsInBothRevisionsAndRefusalsNameTheFlags) {
  AbRequest r;
  r.rev_before = "HEAD~1";
  r.source.build = "make";
  HyperfineCommands c;
  c.commands = {"./prog --n 3"};
  const auto pairs = resolve_ab(r, Shell::from_flag(r.shell), c);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].before_argv, (std::vector<std::string>{"./prog", "--n", "3"}));
  EXPECT_EQ(pairs[0].after_argv, pairs[0].before_argv);
  EXPECT_EQ(r.after_revision(), ".");

  r.source.build.clear();
  EXPECT_NE(perfgate::usage_error_of([&] { resolve_ab(r, Shell::from_flag(r.shell), c); }).find("--build CMD"),
            std::string::npos);

  AbRequest shells;
  shells.shell = "bash";
  shells.no_shell = true;
  shells.before = "a", shells.after = "b";
  EXPECT_NE(
      perfgate::usage_error_of([&] { resolve_ab(shells, Shell::from_flag(shells.shell), {}); }).find("-N and --shell"),
      std::string::npos);

  AbRequest layouts;
  layouts.source.layouts = 4;
  HyperfineCommands three;
  three.commands = {"a", "b", "c"};
  EXPECT_NE(perfgate::usage_error_of([&] {
              resolve_ab(layouts, Shell::from_flag(layouts.shell), three);
            }).find("not 2 pairs"),
            std::string::npos);
}
