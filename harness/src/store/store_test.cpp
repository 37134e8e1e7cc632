#include <gtest/gtest.h>

#include <fstream>

#include "catalog/kinds.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/usage_error_of.hpp"
#include "gate/scenario_stats.hpp"
#include "model/test_values.hpp"
#include "store/baseline_file.hpp"
#include "store/merge_results.hpp"
#include "store/results_codec.hpp"
#include "store/results_schema.hpp"
#include "store/results_shape.hpp"

using namespace perfgate;

TEST(Baseline, MissingFileIsEmptyAndMalformedIsUsageErrorNamingTheField) {
  TempDir d;
  auto b = store::load_baseline(d.path() / "none.json");
  EXPECT_FALSE(b.exists);
  write_file_atomic(d.path() / "bad.json", R"({"schema_version": 1, "entries": [{"scenario": "s"}]})");
  const auto error = usage_error_of([&] { store::load_baseline(d.path() / "bad.json"); });
  EXPECT_NE(error.find("entries[0].profile: missing"), std::string::npos) << error;
}

TEST(Baseline, SaveFollowsALinkAndRoundTrips) {
  TempDir d;
  store::BaselineEntry e;
  e.scenario = "s";
  e.profile = "quick";
  e.metric = "cpu_ms";
  e.ratio = 0.5;
  e.ci = {0.4, 0.6};
  e.n = 8;
  e.before_median = 10;
  e.after_median = 5;
  e.before_median_ci = {9, 11};
  e.after_median_ci = {4, 6};
  e.host_fingerprint = "h";
  e.commit = "c";
  write_file_atomic(d.path() / "real.json", R"({"schema_version": 1, "entries": []})");
  std::filesystem::create_symlink("real.json", d.path() / "link.json");
  store::Baseline b = store::load_baseline(d.path() / "link.json");
  b.entries.push_back(e);
  store::save_baseline(b);
  EXPECT_TRUE(std::filesystem::is_symlink(d.path() / "link.json"));
  auto again = store::load_baseline(d.path() / "real.json");
  ASSERT_EQ(again.entries.size(), 1u);
  EXPECT_EQ(again.entries[0].key(), "s/quick/cpu_ms");
  EXPECT_DOUBLE_EQ(again.entries[0].ci[1], 0.6);
}

// A results file written before the results were typed reads through the codec and writes
// back equal: every typed section (samples, summaries, comparisons, gates) is re-encoded from
// the structs, so a key the codec drops or renames fails here.
namespace {

store::BaselineEntry fresh_entry(const std::string& cpu, const std::string& run_id, double ratio) {
  auto e = model::testing::baseline_entry(ratio, ratio, ratio);
  e.n = 12;
  e.host = {{"cpu_model", cpu}, {"cores", 2}};
  e.host_fingerprint = cpu;
  e.commit = "abc";
  e.run_id = run_id;
  return e;
}

// A file written before the three answers and before gates had an outcome, as today's codec
// writes it back: "no significant change" is "cannot tell" (it never claimed "the same"), and a
// gate's `passed` and `cannot_tell` are the outcome they meant.
nlohmann::json as_written_today(nlohmann::json j) {
  for (auto& s : j["scenarios"]) {
    for (auto& c : s["comparisons"])
      if (c["verdict"] == "no significant change") c["verdict"] = "cannot tell";
    for (auto& g : s["gates"]) {
      const bool cannot_tell = g.value("cannot_tell", false);
      const nlohmann::json passed = g.value("passed", nlohmann::json());
      g["outcome"] = cannot_tell          ? "cannot tell"
                     : passed.is_null()   ? "undecided"
                     : passed.get<bool>() ? "passed"
                                          : "failed";
      g.erase("passed");
      g.erase("cannot_tell");
    }
  }
  return j;
}

}  // namespace

// A refresh on one host class replaces that class's runs and keeps the others': the committed
// baseline holds a class nobody here can re-record.
TEST(Baseline, AnUpdateReplacesOnlyItsOwnHostClassesRuns) {
  store::Baseline b;
  store::refresh_entries(b, {fresh_entry("AMD", "a1", 0.6), fresh_entry("AMD", "a2", 0.61)}, false);
  store::refresh_entries(b, {fresh_entry("Intel", "i1", 0.8)}, true);
  ASSERT_EQ(b.entries.size(), 1u);
  ASSERT_EQ(b.entries[0].runs.size(), 3u);
  store::refresh_entries(b, {fresh_entry("Intel", "i2", 0.79), fresh_entry("Intel", "i3", 0.78)}, false);
  std::vector<std::string> ids;
  for (const auto& r : b.entries[0].runs) ids.push_back(r.run_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"a1", "a2", "i2", "i3"}));
}

TEST(ResultsCodec, ACommittedResultsFileReadsAndWritesBackEqual) {
  const std::filesystem::path file = std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json";
  const nlohmann::json original = nlohmann::json::parse(*try_read_file(file));
  const model::ResultsDoc doc = store::read_results(file);
  ASSERT_EQ(doc.scenarios.size(), 1u);
  const auto& s = doc.scenarios[0];
  EXPECT_EQ(s.name, "aa_true");
  EXPECT_EQ(s.samples.size(), 10u);
  EXPECT_FALSE(s.comparisons.empty());
  ASSERT_EQ(s.gates.size(), 3u);
  EXPECT_EQ(s.gates[0].kind, model::GateKind::Equivalence);
  EXPECT_TRUE(s.gates[0].passed());
  EXPECT_TRUE(s.gates[2].band.has_value());
  EXPECT_EQ(s.measured_values("after", "wall_ms").size(), 4u);
  // Read as what it meant, written back in today's words; everything else as it was.
  EXPECT_EQ(store::to_json(doc), as_written_today(original));
  for (const char* typed : {"samples", "summaries", "comparisons", "gates"})
    EXPECT_FALSE(s.other.contains(typed)) << typed << " must come from the structs, not travel untouched";
  // Every section of a scenario's entry is the codec's: nothing of today's schema is left over.
  EXPECT_TRUE(s.other.empty()) << s.other.dump();
  EXPECT_EQ(s.kind, catalog::ScenarioKind::Ab);
  EXPECT_EQ(s.policy, catalog::Policy::NoRegress);
  ASSERT_TRUE(s.stop.has_value());
  EXPECT_EQ(s.stop->kind, run::StopKind::MaxRounds) << s.stop->reason;
  EXPECT_EQ(s.stop->rounds, 4);
  EXPECT_EQ(s.stop->looks, std::vector<int>{4});
  ASSERT_EQ(s.variants.size(), 2u);
  EXPECT_EQ(s.variants[1].compare_to.value(), "before");
  EXPECT_FALSE(s.variants[0].compare_to.has_value());
  EXPECT_EQ(s.variant_names, (std::vector<std::string>{"before", "after"}));
  ASSERT_TRUE(s.metric_choice.has_value());
  EXPECT_EQ(s.metric_choice->metric, "cpu_ms");
  EXPECT_TRUE(s.metric_choice->figures.contains("busy_wall_ratio_after"));
  EXPECT_TRUE(s.fixture.has_value() && s.fixture->is_null());  // ab has no fixture: written as null
  EXPECT_EQ(s.excluded.size(), 1u);
  EXPECT_EQ(s.load_before.size(), 3u);
  EXPECT_EQ(doc.run.seed.value(), 7u);
  EXPECT_TRUE(doc.run.reproduce.has_value());
  EXPECT_TRUE(doc.run.options.has_value());
  ASSERT_TRUE(doc.run.baseline.has_value());
  EXPECT_FALSE(doc.run.baseline->file.has_value());
  EXPECT_EQ(doc.run.baseline->why, "ab: no --baseline given");
  EXPECT_EQ(doc.run.git_source.value(), "/work/main");
}

TEST(ResultsCodec, TheBranchIsRunBranchAndAbsentWhenUnknown) {
  const std::filesystem::path file = std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json";
  model::ResultsDoc doc = store::read_results(file);
  EXPECT_FALSE(doc.run.branch.has_value());  // written before branches were recorded
  EXPECT_FALSE(store::to_json(doc)["run"].contains("branch"));
  doc.run.branch = "main";
  const nlohmann::json j = store::to_json(doc);
  EXPECT_EQ(j["run"]["branch"], "main");
  const model::ResultsDoc back = store::results_from_json(j);
  EXPECT_EQ(back.run.branch.value(), "main");
  EXPECT_FALSE(back.run.other.contains("branch"));
  EXPECT_EQ(store::to_json(back), j);
}

TEST(ResultsCodec, PerfgatesOwnCommitTravelsApartFromTheProjectsAndOldFilesKeepTheirSpelling) {
  auto original =
      nlohmann::json::parse(*try_read_file(std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json"));
  auto doc = store::results_from_json(original);
  EXPECT_EQ(doc.run.perfgate_version.value(), "0.1.0");  // written before run.perfgate
  EXPECT_FALSE(doc.run.perfgate_commit.has_value());
  EXPECT_FALSE(store::to_json(doc)["run"].contains("perfgate"));

  doc.run.perfgate_commit = "feedc0de";
  doc.run.commit = "0123abcd";
  doc.run.catalog = "/home/u/wordfreq/perf";
  const auto j = store::to_json(doc);
  EXPECT_EQ(j["run"]["perfgate"], (nlohmann::json{{"version", "0.1.0"}, {"commit", "feedc0de"}}));
  EXPECT_FALSE(j["run"].contains("perfgate_version"));
  store::check_results_shape(j, "new.json");
  const auto back = store::results_from_json(j);
  EXPECT_EQ(back.run.perfgate_commit.value(), "feedc0de");
  EXPECT_EQ(back.run.commit, "0123abcd");
  EXPECT_EQ(back.run.catalog.value(), "/home/u/wordfreq/perf");
  EXPECT_EQ(store::to_json(back), j);
}

TEST(ResultsCodec, AWrongTypedFieldIsAUsageErrorNamingFileAndField) {
  TempDir d;
  auto j = nlohmann::json::parse(*try_read_file(std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json"));
  j["scenarios"][0]["comparisons"][0]["ratio"] = "fast";
  write_file_atomic(d.path() / "r.json", j.dump());
  const auto error = usage_error_of([&] { store::read_results(d.path() / "r.json"); });
  EXPECT_NE(error.find("r.json: scenarios[0].comparisons[0].ratio"), std::string::npos) << error;
}

// A gate of a file written before outcomes: passed true, false, null and cannot_tell read as the
// four outcomes, and are written as them.
TEST(ResultsCodec, AGateOfAnOlderFileReadsAsTheOutcomeItMeant) {
  using model::GateOutcome;
  const std::vector<std::pair<nlohmann::json, GateOutcome>> cases = {
      {{{"passed", true}}, GateOutcome::Passed},
      {{{"passed", false}}, GateOutcome::Failed},
      {{{"passed", nullptr}}, GateOutcome::Undecided},
      {{{"passed", nullptr}, {"cannot_tell", true}}, GateOutcome::CannotTell},
      {{{"outcome", "cannot tell"}}, GateOutcome::CannotTell}};
  for (const auto& [fields, outcome] : cases) {
    nlohmann::json g = {{"kind", "policy"}, {"name", "improve on cpu_ms"}, {"detail", "d"}};
    g.update(fields);
    const auto read = store::gate_from_json(g);
    EXPECT_EQ(read.outcome, outcome) << g.dump();
    EXPECT_EQ(store::to_json(read)["outcome"], name_of(outcome)) << g.dump();
    EXPECT_FALSE(store::to_json(read).contains("passed"));
  }
}

// Kinds are read by name, once, in the codec: a name no kind has is refused like a wrong type
// (it could not be written back), and a stop reason's words name their kind.
TEST(ResultsCodec, AKindIsOneOfItsNames) {
  const auto original = [] {
    return as_written_today(
        nlohmann::json::parse(*try_read_file(std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json")));
  }();
  const auto refusal = [&](const char* section, const char* key, const char* word) {
    auto j = original;
    nlohmann::json& at = std::string(section).empty() ? j["scenarios"][0] : j["scenarios"][0][section][0];
    at[key] = word;
    const auto error = usage_error_of([&] { store::check_results_shape(j, "r.json"); });
    return error.empty() ? std::string("accepted") : error;
  };
  EXPECT_EQ(refusal("", "kind", "daemon"),
            "r.json: scenarios[0].kind: 'daemon' is not one of batch, service, gbench, ab");
  EXPECT_EQ(refusal("", "policy", "faster"), "r.json: scenarios[0].policy: 'faster' is not one of improve, no-regress");
  EXPECT_EQ(refusal("gates", "kind", "vibe"),
            "r.json: scenarios[0].gates[0].kind: 'vibe' is not one of equivalence, policy, guard, claim, baseline");
  EXPECT_EQ(refusal("comparisons", "better", "up"),
            "r.json: scenarios[0].comparisons[0].better: 'up' is not one of lower, higher");
  EXPECT_EQ(refusal("comparisons", "verdict", "faster"),
            "r.json: scenarios[0].comparisons[0].verdict: 'faster' is not one of better, worse, the same, not worse, "
            "cannot tell, no significant change");

  for (const auto& [reason, kind] : std::vector<std::pair<std::string, run::StopKind>>{
           {run::StopReason::max_rounds(30).text, run::StopKind::MaxRounds},
           {run::StopReason::max_time(60, 12).text, run::StopKind::MaxTime},
           {run::StopReason::undecided(40, "50").text, run::StopKind::Undecided},
           {"equivalence failed", run::StopKind::EquivalenceFailed}}) {
    auto j = original;
    j["scenarios"][0]["stop"]["reason"] = reason;
    const auto doc = store::results_from_json(j);
    EXPECT_EQ(doc.scenarios[0].stop->kind, kind) << reason;
    EXPECT_EQ(store::to_json(doc), j) << "the words are written back as they were";
  }
  EXPECT_EQ(run::StopReason::max_time(60, 12).text, "max time (60 s) after round 12");
  EXPECT_EQ(run::StopReason::undecided(40, "50").text,
            "undecided after round 40: more rounds would not fit the 50 s budget");
  auto j = original;
  j["scenarios"][0]["stop"]["reason"] = "the moon was full";
  EXPECT_FALSE(store::results_from_json(j).scenarios[0].stop->kind.has_value());
}

TEST(Merge, OneRunKeepsItsScenariosAndSaysWhereEachCameFrom) {
  const std::filesystem::path file = std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json";
  const auto doc = store::read_results(file);
  const auto merged = store::merge_results({{"a.json", doc}}, {"perfgate", "merge"}, {});
  ASSERT_EQ(merged.scenarios.size(), 1u);
  ASSERT_TRUE(merged.scenarios[0].merged_from.has_value());
  EXPECT_EQ(merged.scenarios[0].merged_from->file, "a.json");
  ASSERT_EQ(merged.run.merged_from.size(), 1u);
  EXPECT_EQ(merged.run.merged_from[0].run_id, doc.run.id);
  EXPECT_EQ(merged.outcome.exit_code, doc.outcome.exit_code);
  const auto j = store::to_json(merged);
  store::check_results_shape(j, "merged.json");  // what every reader checks accepts it
  EXPECT_EQ(j["scenarios"][0]["samples"], store::to_json(doc)["scenarios"][0]["samples"]);
  EXPECT_THROW(store::merge_results({{"a.json", doc}, {"b.json", doc}}, {}, {}), UsageError);  // overlapping shards
}

// docs/results.schema.json is the one description of a results file: the binary checks the file
// as it is in the tree, and its kinds are the code's names, in the code's order.
TEST(ResultsSchema, TheCompiledSchemaIsTheDocumentedOneAndItsKindsAreTheCodes) {
  const auto compiled = nlohmann::json::parse(store::results_schema_text());
  EXPECT_EQ(compiled, nlohmann::json::parse(*try_read_file(PERFGATE_RESULTS_SCHEMA_FILE)));
  // valijson and jsonschema report a failed anyOf, oneOf or allOf differently: the schema has none.
  for (const char* combinator : {"\"anyOf\"", "\"oneOf\"", "\"allOf\""})
    EXPECT_EQ(std::string(store::results_schema_text()).find(combinator), std::string::npos) << combinator;
  auto words = [](auto values) {
    nlohmann::json out = nlohmann::json::array();
    for (auto v : values) out.push_back(std::string(name_of(v)));
    return out;
  };
  const auto& defs = compiled["$defs"];
  for (const char* section : {"metric_value", "summary", "comparison"})
    EXPECT_EQ(defs[section]["properties"]["better"]["enum"], words(all_values<Better>())) << section;
  auto verdicts = words(all_values<stats::Verdict>());
  verdicts.push_back("no significant change");  // read from files before the three answers
  EXPECT_EQ(defs["comparison"]["properties"]["verdict"]["enum"], verdicts);
  EXPECT_EQ(defs["gate"]["properties"]["kind"]["enum"], words(all_values<model::GateKind>()));
  EXPECT_EQ(defs["gate"]["properties"]["outcome"]["enum"], words(all_values<model::GateOutcome>()));
  EXPECT_EQ(defs["scenario"]["properties"]["kind"]["enum"], words(all_values<catalog::ScenarioKind>()));
  EXPECT_EQ(defs["scenario"]["properties"]["policy"]["enum"], words(all_values<catalog::Policy>()));
}

// Of several problems the first in the schema's order is named (as the report's Python names
// it: reports/perfgate_report/schema.py), said with what the schema wants and what the file has.
TEST(ResultsSchema, TheFirstProblemInTheSchemasOrderIsNamed) {
  const auto good =
      nlohmann::json::parse(*try_read_file(std::filesystem::path(PERFGATE_STORE_TESTDATA) / "results_v1_ab.json"));
  EXPECT_FALSE(store::first_schema_problem(good).has_value());
  auto first = [](const nlohmann::json& j) {
    const auto p = store::first_schema_problem(j);
    return p ? p->field + ": " + p->problem : std::string("accepted");
  };
  auto j = good;
  j["scenarios"][0]["comparisons"][0]["ratio"] = "1.0x";
  EXPECT_EQ(first(j), "scenarios[0].comparisons[0].ratio: not a number or null (it is a string: \"1.0x\")");
  j["scenarios"][0]["samples"][1]["round"] = 2.0;  // samples come before comparisons in the schema
  EXPECT_EQ(first(j), "scenarios[0].samples[1].round: not an integer (it is a number: 2.0)");
  j["host"]["load_after"] = {1, nullptr, 3};
  EXPECT_EQ(first(j), "host.load_after[1]: not a number (it is null)");
  j["host"]["load_after"] = {1, 2};
  EXPECT_EQ(first(j), "host.load_after: must have at least 3 items (it has 2)");
  j["host"].erase("cores");
  EXPECT_EQ(first(j), "host.cores: missing (an integer)");
  j["run"]["shard"] = {{"index", 0}, {"count", 2}};
  EXPECT_EQ(first(j), "run.shard.index: must be >= 1 (it is an integer: 0)");
  j.erase("run");
  EXPECT_EQ(first(j), "run: missing (an object)");
}

// A program's series are summarised by the harness (the report reads their quantiles, type 7 as
// numpy's default), written under series_summaries and read back equal; values that are not
// finite numbers are left out, and a series with none has no summary.
TEST(ResultsCodec, SeriesSummariesAreTheHarnesssAndReadBackEqual) {
  using nlohmann::json;
  const std::map<std::string, json> series = {
      {"after",
       {{"latency_ms", {{"unit", "ms"}, {"values", {5, 1, 4, 2, 3, "x", nullptr}}}},
        {"nothing", {{"values", {"x"}}}}}}};
  const auto sums = gate::summarize_series(series);
  ASSERT_EQ(sums.at("after").size(), 1u);
  const auto& lat = sums.at("after").at("latency_ms");
  EXPECT_EQ(lat.s.n, 5u);
  EXPECT_EQ(lat.unit, "ms");
  EXPECT_DOUBLE_EQ(lat.s.p50, 3.0);
  EXPECT_DOUBLE_EQ(lat.s.p90, 4.6);
  EXPECT_DOUBLE_EQ(lat.s.p99, 4.96);
  EXPECT_DOUBLE_EQ(lat.s.max, 5.0);
  model::ScenarioResult s;
  s.name = "s";
  s.series = series;
  s.series_summaries = sums;
  const json j = store::to_json(s);
  EXPECT_DOUBLE_EQ(j["series_summaries"]["after"]["latency_ms"]["p90"].get<double>(), 4.6);
  const auto back = store::scenario_from_json(j);
  ASSERT_TRUE(back.series_summaries.has_value());
  EXPECT_TRUE(back.other.empty()) << back.other.dump();
  EXPECT_EQ(store::to_json(back), j);
  // A file written before series_summaries has none, and writes back without them.
  json old = j;
  old.erase("series_summaries");
  EXPECT_FALSE(store::scenario_from_json(old).series_summaries.has_value());
  EXPECT_FALSE(store::to_json(store::scenario_from_json(old)).contains("series_summaries"));
}

// A summary carries its relative spread (mad / |median|) for the report to read; a file
// without it (written before, or a median of 0) writes back without it.
TEST(ResultsCodec, SummariesCarryTheRelativeSpread) {
  model::Summaries sm;
  sm["after"]["wall_ms"].s = stats::summarize({8, 10, 11, 12, 20});
  sm["after"]["zero"].s = stats::summarize({-1, 0, 1});
  const nlohmann::json j = store::to_json(sm);
  EXPECT_DOUBLE_EQ(j["after"]["wall_ms"]["spread"].get<double>(), 1.0 / 11);
  EXPECT_FALSE(j["after"]["zero"].contains("spread"));
  EXPECT_EQ(store::to_json(store::summaries_from_json(j)), j);
}
