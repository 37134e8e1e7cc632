#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/errors.hpp"
#include "parity/agreement.hpp"
#include "parity/bundled.hpp"
#include "parity/capacity.hpp"
#include "parity/fingerprint.hpp"
#include "parity/json_diff.hpp"
#include "parity/parity_run.hpp"
#include "parity/statement_counter.hpp"

namespace perfgate::parity {
namespace {

json item(const std::string& name, json people = json::array()) {
  json i = {{"Name", name}, {"Type", "Movie"}, {"UserData", {{"Played", false}, {"PlayCount", 0}}}};
  if (!people.empty()) i["People"] = people;
  return i;
}

json page(std::vector<json> items) { return {{"Items", items}, {"TotalRecordCount", items.size()}, {"StartIndex", 0}}; }

Answer ok(const json& body) { return {200, body.dump(), "", std::nullopt, std::nullopt}; }

TEST(JsonDiff, ObjectKeyOrderIsIgnoredArrayOrderIsKept) {
  const json a = json::parse(R"({"x": 1, "y": [1, 2], "z": {"p": "q", "r": 2.0}})");
  const json b = json::parse(R"({"z": {"r": 2, "p": "q"}, "y": [1, 2], "x": 1})");
  auto d = diff_json(a, b);
  EXPECT_TRUE(d.same());
  EXPECT_EQ(d.leaves, 5u);
  const json c = json::parse(R"({"x": 1, "y": [2, 1], "z": {"p": "q", "r": 2}})");
  d = diff_json(a, c);
  ASSERT_EQ(d.fields.size(), 1u);
  EXPECT_EQ(d.fields.at("y[]"), 2u);
}

TEST(JsonDiff, DifferencesAreNamedByFoldedPathAndCounted) {
  json a = page({item("A", json::array({{{"Name", "X"}, {"Role", "Lead"}}, {{"Name", "Y"}, {"Role", "Aide"}}})),
                 item("B", json::array({{{"Name", "Z"}, {"Role", "Hero"}}}))});
  json b = a;
  b["Items"][0]["People"][1]["Role"] = "Extra";
  b["Items"][1]["People"][0]["Role"] = "Villain";
  b["Items"][1].erase("Type");
  auto d = diff_json(a, b);
  EXPECT_EQ(d.fields.at("Items[].People[].Role"), 2u);
  EXPECT_EQ(d.fields.at("Items[].Type"), 1u);
  EXPECT_EQ(d.fields.size(), 2u);
  EXPECT_NE(d.example.at("Items[].Type").find("absent on B"), std::string::npos);
}

TEST(JsonDiff, VolatileKeysByNameOrPath) {
  json a = {{"Items", json::array({{{"Etag", "1"}, {"Id", "a"}}})}, {"ServerTime", 1}};
  json b = {{"Items", json::array({{{"Etag", "2"}, {"Id", "b"}}})}, {"ServerTime", 2}};
  EXPECT_EQ(diff_json(a, b).fields.size(), 3u);
  auto d = diff_json(a, b, VolatileKeys({"ServerTime", "Items[].Etag"}));
  ASSERT_EQ(d.fields.size(), 1u);
  EXPECT_EQ(d.fields.count("Items[].Id"), 1u);
}

TEST(CompareAnswers, StatusCountsAndItemsMustMatch) {
  auto d = compare_answers(ok(page({item("A"), item("B")})), ok(page({item("A")})), VolatileKeys{});
  EXPECT_EQ(d.must_match, (std::vector<std::string>{"TotalRecordCount", "len(Items)"}));
  d = compare_answers(ok(page({item("A")})), Answer{500, page({item("A")}).dump(), "", {}, {}}, VolatileKeys{});
  EXPECT_EQ(d.must_match, std::vector<std::string>{"status"});
}

TEST(CompareAnswers, EmptyListOrFarSmallerBodyIsNotDoingTheWork) {
  std::vector<json> many;
  for (int i = 0; i < 20; ++i) many.push_back(item("Item " + std::to_string(i)));
  json hollow = page({});
  hollow["TotalRecordCount"] = 20;  // the true count, an empty page: the seed's lazy server
  auto d = compare_answers(ok(page(many)), ok(hollow), VolatileKeys{});
  ASSERT_EQ(d.hollow.size(), 2u);
  EXPECT_EQ(d.hollow[0], "B: Items: empty on B, 20 items on A");
  EXPECT_EQ(d.hollow[1].rfind("B: body ", 0), 0u);
  // A scenario's own variants are told by their names, not A and B.
  d = compare_answers(ok(page(many)), ok(hollow), VolatileKeys{}, Sides{"before", "after"});
  ASSERT_EQ(d.hollow.size(), 2u);
  EXPECT_EQ(d.hollow[0], "after: Items: empty on after, 20 items on before");
  EXPECT_EQ(d.hollow[1].rfind("after: body ", 0), 0u);
}

// Four answers per request; `b_people` fills People on B for the listed requests, and every
// answer carries a per-answer clock (noise on both sides).
std::vector<Quad> quads(int n, std::set<int> b_people, bool b_empty = false) {
  std::vector<Quad> out;
  int clock = 0;
  for (int i = 0; i < n; ++i) {
    auto body = [&](bool people, bool empty) {
      json p = page(empty ? std::vector<json>{} : std::vector<json>{item("Name " + std::to_string(i)), item("Other")});
      if (empty) p["TotalRecordCount"] = 2;
      if (people) p["Items"][0]["People"] = json::array({{{"Name", "Cast"}, {"Role", "Lead"}}});
      p["ServerTime"] = ++clock;
      return ok(p);
    };
    out.push_back({"/Items?i=" + std::to_string(i), body(false, false), body(false, false),
                   body(b_people.count(i) > 0, b_empty), body(b_people.count(i) > 0, b_empty)});
  }
  return out;
}

TEST(Noise, FieldsThatDifferWithinAServerAreNotBlamed) {
  const Agreement ag = judge(quads(10, {}), VolatileKeys{});
  EXPECT_EQ(ag.dropped(), 0u);
  EXPECT_EQ(ag.fields.at("ServerTime").across, 10u);
  EXPECT_FALSE(ag.fields.at("ServerTime").blamed());
  EXPECT_GT(ag.leaves_agreeing, 0u);
}

TEST(Noise, DivergentFieldDropsExactlyTheAffectedRequestsAndIsNamed) {
  const Agreement ag = judge(quads(12, {2, 5, 9}), VolatileKeys{});
  ASSERT_EQ(ag.dropped(), 3u);
  std::vector<std::string> dropped;
  for (const auto& r : ag.requests)
    if (!r.agreed) {
      dropped.push_back(r.path);
      EXPECT_EQ(r.fields, std::vector<std::string>{"Items[].People"});
    }
  EXPECT_EQ(dropped, (std::vector<std::string>{"/Items?i=2", "/Items?i=5", "/Items?i=9"}));
  EXPECT_TRUE(ag.fields.at("Items[].People").blamed());
  EXPECT_EQ(ag.agreeing_paths().size(), 9u);
}

TEST(Noise, AServerAnsweringEveryListEmptyIsHollowEverywhere) {
  const Agreement ag = judge(quads(8, {}, true), VolatileKeys{});
  EXPECT_EQ(ag.hollow(), 8u);
  EXPECT_EQ(ag.dropped_share(), 1.0);
  EXPECT_EQ(ag.leaves_agreeing, 0u);
  EXPECT_EQ(ag.to_json()["dropped_requests"][0]["not_doing_the_work"][0], "B: Items: empty on B, 2 items on A");
}

TEST(Noise, ComparingNothingIsRecordedAsNothing) {
  std::vector<Quad> q = {{"/a", ok(json::object()), ok(json::object()), ok(json::object()), ok(json::object())}};
  const Agreement ag = judge(q, VolatileKeys{});
  EXPECT_EQ(ag.dropped(), 0u);
  EXPECT_EQ(ag.leaves_agreeing, 0u);
}

TEST(Fingerprint, SameShapeSameFingerprintHollowBodyAnother) {
  json a = page({item("A"), item("B", json::array({{{"Name", "X"}}}))});
  json b = a;
  b["Items"][0]["Name"] = "Renamed";
  b["Items"][1]["UserData"]["PlayCount"] = 7;
  EXPECT_EQ(fingerprint(a.dump()), fingerprint(b.dump()));
  json hollow = a;
  hollow["Items"] = json::array();
  EXPECT_NE(fingerprint(a.dump()), fingerprint(hollow.dump()));
  json peopleless = a;
  peopleless["Items"][1].erase("People");
  EXPECT_NE(fingerprint(a.dump()), fingerprint(peopleless.dump()));
}

TEST(Capacity, PlateauIsTheFirstConcurrencyWithinTenPercentOfTheBest) {
  auto p = find_plateau({{1, 900}, {2, 1700}, {4, 2950}, {8, 3100}, {16, 3050}});
  EXPECT_EQ(p.rps, 3100);
  EXPECT_EQ(p.concurrency, 4);
}

TEST(Timed, ComparisonUsesCpuPerRequestOnlyWhenEveryWindowHasIt) {
  Timed t;
  for (int i = 0; i < 6; ++i) {
    Window a, b;
    a.rps = 1000;
    b.rps = 1000;
    a.cpu_us_per_request = 100 + i;
    b.cpu_us_per_request = 50 + i;
    t.windows["A"].push_back(a);
    t.windows["B"].push_back(b);
  }
  auto c = compare_windows(t, 1);
  EXPECT_EQ(c["metric"], "cpu_us_per_request");
  EXPECT_LT(c["ratio_b_over_a"].get<double>(), 0.6);
  t.windows["B"][3].cpu_us_per_request.reset();
  EXPECT_EQ(compare_windows(t, 1)["metric"], "wall_us_per_response");
}

TEST(Bundled, StatementGatesPerRouteOnAfterAndNothingCountedFails) {
  const json agreement = {
      {"statements",
       {{"/Artists",
         {{"requests", 3}, {"before", {{"mean", 397}, {"max", 400}}}, {"after", {{"mean", 12}, {"max", 12}}}}},
        {"/Items/Counts",
         {{"requests", 2}, {"before", {{"mean", 90}, {"max", 90}}}, {"after", {{"mean", 10}, {"max", 11}}}}},
        {"/Years", {{"requests", 1}, {"before", {{"mean", 7}, {"max", 7}}}, {"after", nullptr}}}}}};
  const json service = {
      {"parity", {{"statement_limits", {{"/Artists", 20}, {"/Items/Counts", 9}, {"/Years", 9}, {"/Genres", 5}}}}}};
  std::map<std::string, StatementGate> by;
  for (const auto& g : statement_gates(agreement, service)) by[g.route] = g;
  ASSERT_EQ(by.size(), 4u);
  EXPECT_TRUE(by["/Artists"].passed);
  EXPECT_NE(by["/Artists"].detail.find("12 statements per request over 3 requests (limit 20; before 397)"),
            std::string::npos);
  EXPECT_FALSE(by["/Items/Counts"].passed);
  EXPECT_FALSE(by["/Years"].passed);   // AFTER sent no X-Perfgate-Statements
  EXPECT_FALSE(by["/Genres"].passed);  // no request of the route: nothing counted
  EXPECT_TRUE(statement_gates(agreement, json::object()).empty());
}

Answer counted(long long said, std::optional<long long> executed) {
  Answer a = ok(page({item("A")}));
  a.statements = said;
  a.executed = executed;
  return a;
}

TEST(StatementCounter, AHeaderThatDiffersFromWhatRanIsNamedWithBothFigures) {
  Quad honest{"/Artists?Limit=50", counted(12, 12), counted(12, 12), counted(12, 12), counted(12, 12)};
  Quad warm{"/Items/Counts?UserId=user01", counted(9, 9), counted(9, 9), counted(3, 3), counted(0, 3)};
  const Sides sides{"before", "after"};
  EXPECT_EQ(miscounted({honest}, sides), std::nullopt);
  EXPECT_EQ(miscounted({honest, warm}, sides),
            "after's X-Perfgate-Statements said 0 on /Items/Counts?UserId=user01; its libsqlite3 executed 3 "
            "(counted outside by perfgate's LD_PRELOAD statement counter)");
  // Over-counting is a disagreement too: the header is checked, not bounded.
  EXPECT_NE(miscounted({Quad{"/Years", counted(8, 7), counted(7, 7), counted(1, 1), counted(1, 1)}}, sides),
            std::nullopt);
  // Nothing counted outside (no counter) or no header: not judged here.
  EXPECT_EQ(
      miscounted({Quad{"/Years", counted(8, std::nullopt), counted(7, 7), ok(json::object()), ok(json::object())}},
                 sides),
      std::nullopt);
}

TEST(StatementCounter, AServerThatNeverLoadedTheCounterIsAnErrorNotZero) {
  const auto file = std::filesystem::temp_directory_path() / ("statements-" + std::to_string(::getpid()) + ".count");
  SqliteCounter c(file);
  EXPECT_EQ(c.executed(), 0);
  EXPECT_EQ(c.env().at("PERFGATE_SQLITE_COUNT_FILE"), file.string());
  EXPECT_NE(c.env().at("LD_PRELOAD").find("libperfgate_sqlite.so"), std::string::npos);
  EXPECT_THROW(c.require_loaded("server A"), RunError);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace perfgate::parity
