// Manifests: valid ones parse with their defaults; every malformed field is named.
#include <gtest/gtest.h>

#include "catalog/manifest.hpp"
#include "common/errors.hpp"
#include "common/usage_error_of.hpp"

using namespace perfgate;
using catalog::json;

namespace {
json good() {
  return json::parse(R"({"name": "demo", "program": "demo", "primary_metric": "wall_ms",
    "variants": [{"name": "sweep-1", "sweep": {"k": 1}}, {"name": "after"}, {"name": "before"}],
    "profiles": {"quick": {"params": {"n": 1}, "min_rounds": 4}, "full": {}}})");
}
std::string error_of(const json& doc) {
  return usage_error_of([&] { catalog::parse_manifest(doc, "/x/demo/scenario.json"); });
}
}  // namespace

TEST(Manifest, DefaultsAndOrder) {
  auto m = catalog::parse_manifest(good(), "/x/demo/scenario.json");
  EXPECT_EQ(m.kind, catalog::ScenarioKind::Batch);
  EXPECT_EQ(m.policy, catalog::Policy::Improve);
  EXPECT_EQ(m.fixture_kind, catalog::FixtureKind::None);
  ASSERT_EQ(m.variants.size(), 3u);
  EXPECT_EQ(m.variants[0].name, "before");
  EXPECT_EQ(m.variants[1].name, "after");
  EXPECT_FALSE(m.variants[0].compare_to.has_value());
  EXPECT_EQ(*m.variants[1].compare_to, "before");
  EXPECT_EQ(*m.variants[2].compare_to, "before");
  EXPECT_TRUE(m.variants[1].gated());
  EXPECT_FALSE(m.variants[2].gated());
  EXPECT_EQ(*m.profiles.at("quick").min_rounds, 4);
  EXPECT_EQ(m.dir, "/x/demo");
}

TEST(Manifest, ErrorsNameTheFileAndField) {
  auto j = good();
  j.erase("primary_metric");
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: primary_metric: missing (a string)");
  j = good();
  j["variants"][1]["args"] = "not an array";
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: variants[1].args: must be an array of strings");
  j = good();
  j["profiles"]["quick"]["min_rounds"] = -1;
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: profiles.quick.min_rounds: must be an integer >= 0");
  j = good();
  j["variants"][0]["compare_to"] = "nobody";
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: variants[0].compare_to: no variant named 'nobody'");
  j = good();
  j["fixture"] = {{"kind", "mongo"}};
  EXPECT_NE(error_of(j).find("fixture.kind: 'mongo' is not one of none, files, sqlite, postgres"), std::string::npos);
  j = good();
  j["variants"][2]["name"] = "after";
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: variants[2].name: duplicate variant 'after'");
  j = good();
  j["name"] = "bad name";
  EXPECT_NE(error_of(j).find("name: 'bad name' must be letters"), std::string::npos);
}

// Each kind is read once, here, into its enum; `perfgate ab`'s kind is no manifest's.
TEST(Manifest, KindsAreReadIntoTheirEnums) {
  auto j = good();
  j["kind"] = "gbench";
  j["policy"] = "no-regress";
  j["fixture"] = {{"kind", "postgres"}};
  j["lies"] = json::array({{{"name", "skip"}, {"args", {"--skip"}}, {"what", "w"}, {"caught_by", "exact:rows"}},
                           {{"name", "wrong"}, {"args", {"--wrong"}}, {"what", "w"}, {"caught_by", "equivalence"}}});
  const auto m = catalog::parse_manifest(j, "/x/demo/scenario.json");
  EXPECT_EQ(m.kind, catalog::ScenarioKind::Gbench);
  EXPECT_EQ(m.policy, catalog::Policy::NoRegress);
  EXPECT_EQ(m.fixture_kind, catalog::FixtureKind::Postgres);
  ASSERT_EQ(m.lies.size(), 2u);
  EXPECT_EQ(m.lies[0].caught_by.gate, catalog::CaughtBy::Gate::Exact);
  EXPECT_EQ(m.lies[0].caught_by.metric, "rows");
  EXPECT_EQ(m.lies[0].caught_by.text(), "exact:rows");
  EXPECT_EQ(m.lies[1].caught_by.gate, catalog::CaughtBy::Gate::Equivalence);
  EXPECT_EQ(m.lies[1].caught_by.text(), "equivalence");

  j = good();
  j["kind"] = "ab";
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: kind: 'ab' is not one of batch, service, gbench");
  for (const char* wrong : {"exact:", "exact", "Equivalence", "equivalence:rows"}) {
    j = good();
    j["lies"] = json::array({{{"name", "l"}, {"args", {"--l"}}, {"what", "w"}, {"caught_by", wrong}}});
    EXPECT_EQ(error_of(j), std::string("/x/demo/scenario.json: lies[0].caught_by: '") + wrong +
                               "' is not \"equivalence\" or \"exact:<metric>\"");
  }
}

TEST(Manifest, ServiceSectionsNameTheKey) {
  auto service = [](const json& section) {
    auto j = good();
    j["kind"] = "service";
    j["service"] = section;
    return error_of(j);
  };
  EXPECT_EQ(service({{"stats_pth", "/s"}}).find("/x/demo/scenario.json: service.stats_pth: unknown key (known: "), 0u);
  EXPECT_EQ(service({{"parity", {{"noise", "loud"}}}}),
            "/x/demo/scenario.json: service.parity.noise: 'loud' is not one of answer, instance");
  EXPECT_EQ(service({{"load_client", {{"phases", {"a", "a"}}}}}),
            "/x/demo/scenario.json: service.load_client.phases: names \"a\" twice");
  EXPECT_EQ(service({{"load_client", {{"phases", {"a"}}, {"agreement", {"b"}}}}}),
            "/x/demo/scenario.json: service.load_client.agreement: names \"b\", which is not one of its phases");
  EXPECT_EQ(service({{"load_client", {{"phases", json::array()}}}}),
            "/x/demo/scenario.json: service.load_client.phases: must be a non-empty array of phase names");
  EXPECT_EQ(service({{"probes", json::array()}}),
            "/x/demo/scenario.json: service.probes: must be a probe file (relative to the fixture) or a non-empty "
            "list of \"[METHOD] /path\" strings");
  EXPECT_EQ(service({{"probes", {"/a", 3}}}).find("/x/demo/scenario.json: service.probes: must be"), 0u);
  EXPECT_EQ(service({{"probes", "probes.txt"}}).find("service.probes"), std::string::npos);
  auto j = good();
  j["workloads"] = {{"w", {{"mix", "hot"}}}};
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: workloads.w.urls: missing (a URL list file)");
  j["workloads"]["w"]["urls"] = "urls.txt";
  j["workloads"]["w"]["hot_fraction"] = 1.5;
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: workloads.w.hot_fraction: must be a number in (0, 1]");
  j = good();
  j["profiles"]["quick"]["load"] = {{"connections", 0}};
  EXPECT_EQ(error_of(j), "/x/demo/scenario.json: profiles.quick.load.connections: must be an integer >= 1");
}

// A lie's args default to the SDK's own spelling, so its name is written once.
TEST(Manifest, ALieWithoutArgsIsPassedAsDashDashLieName) {
  auto j = good();
  j["lies"] = json::array({{{"name", "stop-early"}, {"what", "w"}, {"caught_by", "equivalence"}}});
  const auto m = catalog::parse_manifest(j, "/x/demo/scenario.json");
  EXPECT_EQ(m.lies.at(0).args, (std::vector<std::string>{"--lie", "stop-early"}));
}

TEST(Threats, EntriesAreReadAndCheckedAgainstTheLies) {
  auto j = good();
  j["lies"] = json::array({{{"name", "stop-early"}, {"what", "w"}, {"caught_by", "equivalence"}}});
  j["threats"] = json::array({{{"class", "query.last_page"},
                               {"threat", "stops before the last page"},
                               {"request", "the full walk"},
                               {"lie", "stop-early"}},
                              {{"class", "query.nulls"}, {"n/a", "no nullable column"}},
                              {{"class", "query.ties"}, {"threat", "ties reordered"}, {"request", "page 2"}}});
  const auto m = catalog::parse_manifest(j, "/x/demo/scenario.json");
  ASSERT_EQ(m.threats.size(), 3u);
  EXPECT_EQ(m.threats[0].lie, "stop-early");
  EXPECT_FALSE(m.threats[1].applies());
  const auto findings = catalog::threat_findings(m);
  // 19 classes, 3 answered; the ties threat has no lie.
  EXPECT_EQ(findings.size(), 16u + 1u);
  EXPECT_NE(std::find(findings.begin(), findings.end(),
                      "/x/demo/scenario.json: threats[2] (query.ties) has no lie: ties reordered"),
            findings.end());
}

TEST(Threats, AThreatTheWorkloadDoesNotAskYetIsItsOwnFinding) {
  auto j = good();
  j["lies"] = json::array({{{"name", "stop-early"}, {"what", "w"}, {"caught_by", "equivalence"}}});
  j["threats"] = json::array({{{"class", "access.refusal"},
                               {"threat", "a disabled caller answered"},
                               {"request", "not asked yet: a disabled caller, untimed"}},
                              {{"class", "input.errors"},
                               {"threat", "an unknown name guessed"},
                               {"request", "not asked yet: an unknown name"},
                               {"lie", "stop-early"}}});
  const auto m = catalog::parse_manifest(j, "/x/demo/scenario.json");
  EXPECT_TRUE(m.threats[0].not_asked_yet());
  const auto findings = catalog::threat_findings(m);
  auto has = [&](const std::string& f) { return std::find(findings.begin(), findings.end(), f) != findings.end(); };
  EXPECT_TRUE(
      has("/x/demo/scenario.json: threats[0] (access.refusal) is not asked by the workload yet: a disabled "
          "caller answered"));
  // A lie for a request the workload does not make could only be caught by luck.
  EXPECT_TRUE(
      has("/x/demo/scenario.json: threats[1] (input.errors) names lie stop-early but says the workload does "
          "not ask it yet"));
  catalog::Threat asked{"access.refusal", "t", "every probe", "", ""};
  EXPECT_FALSE(asked.not_asked_yet());
}

TEST(Threats, MalformedEntriesNameTheFileAndField) {
  auto with = [](const json& threat) {
    auto j = good();
    j["lies"] = json::array({{{"name", "stop-early"}, {"what", "w"}, {"caught_by", "equivalence"}}});
    j["threats"] = json::array({threat});
    return error_of(j);
  };
  EXPECT_EQ(with({{"class", "cache.key"}, {"threat", "t"}, {"request", "r"}, {"lie", "nope"}}),
            "/x/demo/scenario.json: threats[0].lie: no lie named 'nope' (declared: stop-early)");
  EXPECT_EQ(with({{"class", "cache.keys"}, {"n/a", "x"}})
                .find("/x/demo/scenario.json: threats[0].class: 'cache.keys' is "
                      "not one of cache.key, "),
            0u);
  EXPECT_EQ(with({{"class", "cache.key"}, {"request", "r"}}),
            "/x/demo/scenario.json: threats[0].threat: missing (a non-empty string)");
  EXPECT_EQ(
      with({{"class", "cache.key"}, {"n/a", "no cache"}, {"lie", "stop-early"}}),
      "/x/demo/scenario.json: threats[0].lie: an n/a entry holds only its class and the reason it does not apply");
  EXPECT_EQ(with({{"class", "cache.key"}, {"threat", "t"}, {"request", "r"}, {"because", "x"}})
                .find("/x/demo/scenario.json: threats[0].because: unknown key"),
            0u);
}
