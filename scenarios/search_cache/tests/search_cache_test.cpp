// search_cache: the two bounds, the answers they give, and the lies' differences.
#include <gtest/gtest.h>

#include <set>

#include "cache_sample.hpp"
#include "result_cache.hpp"

namespace search_cache {
namespace {

constexpr std::chrono::seconds kTtl(600);

TEST(SearchPage, SameKeySameRowsAndDistinctKeysDiffer) {
  const auto a = build_page(key_of(3, 50)), b = build_page(key_of(3, 50)), c = build_page(key_of(4, 50));
  EXPECT_EQ(page_digest(*a), page_digest(*b));
  EXPECT_NE(page_digest(*a), page_digest(*c));
  std::set<std::string> keys;
  for (std::size_t i = 0; i < 5000; ++i) keys.insert(key_of(i, 500).text());
  EXPECT_EQ(keys.size(), 5000u);
}

TEST(SearchPage, EnrichmentIsInTheDigestAndTheWeight) {
  const auto honest = build_page(key_of(7, 100)), bare = build_page(key_of(7, 100), Build::NoEnrichment);
  EXPECT_NE(page_digest(*honest), page_digest(*bare));
  EXPECT_GT(page_bytes(*honest), page_bytes(*bare));
  EXPECT_GT(page_bytes(*honest), 100u * 500u);  // about 600 heap bytes a row
}

TEST(CountCappedCache, KeepsTheLastEntriesWhateverTheyWeigh) {
  CountCappedCache cache(3, kTtl);
  for (std::size_t i = 0; i < 5; ++i) cache.put(key_of(i, 20).text(), build_page(key_of(i, 20)));
  EXPECT_EQ(cache.entries(), 3u);
  EXPECT_EQ(cache.get(key_of(0, 20).text()), nullptr);
  EXPECT_NE(cache.get(key_of(4, 20).text()), nullptr);
}

TEST(WeighedCache, StaysWithinItsBudgetAndEvictsLeastRecentlyUsed) {
  const auto one = entry_bytes(key_of(0, 100).text(), *build_page(key_of(0, 100)));
  WeighedCache cache(one * 3 + one / 2, kTtl);
  for (std::size_t i = 0; i < 3; ++i) cache.put(key_of(i, 100).text(), build_page(key_of(i, 100)));
  ASSERT_NE(cache.get(key_of(0, 100).text()), nullptr);  // 0 is now the most recent
  cache.put(key_of(3, 100).text(), build_page(key_of(3, 100)));
  EXPECT_LE(cache.retained_bytes(), one * 3 + one / 2);
  EXPECT_NE(cache.get(key_of(0, 100).text()), nullptr);
  EXPECT_EQ(cache.get(key_of(1, 100).text()), nullptr);
}

TEST(WeighedCache, ExpiredEntriesAreMisses) {
  WeighedCache cache(1 << 30, std::chrono::seconds(0));
  cache.put("k", build_page(key_of(0, 10)));
  EXPECT_EQ(cache.get("k"), nullptr);
  EXPECT_EQ(cache.retained_bytes(), 0u);
}

TEST(WeighedCache, AClockMovedPastTheTtlExpiresAndARenameShowsInTheRebuild) {
  WeighedCache cache(1 << 30, kTtl);
  cache.put("k", build_page(key_of(0, 10)));
  cache.advance_clock(std::chrono::seconds(599));
  EXPECT_NE(cache.get("k"), nullptr);
  cache.advance_clock(std::chrono::seconds(2));
  EXPECT_EQ(cache.get("k"), nullptr);
  const Data renamed{key_of(0, 10).user, 1};
  EXPECT_NE(page_digest(*build_page(key_of(0, 10), Build::Honest, renamed)), page_digest(*build_page(key_of(0, 10))));
  EXPECT_EQ(page_digest(*build_page(key_of(1, 10), Build::Honest, renamed)), page_digest(*build_page(key_of(1, 10))));
}

perfgate::Invocation invocation(const std::string& variant, const std::string& lie = "") {
  perfgate::Invocation inv;
  inv.command = "run";
  inv.variant = variant;
  inv.lie = lie;
  inv.params = {{"pages", 60},  {"rows_per_page", 100}, {"max_entries", 1000}, {"budget_mib", 1},
                {"ttl_s", 600}, {"hot_keys", 8},        {"gets", 500}};
  return inv;
}

TEST(Sample, BothVariantsAnswerTheSameAndAfterRetainsLess) {
  const auto before = run(invocation("before")).to_json(), after = run(invocation("after")).to_json();
  EXPECT_EQ(before["digest"], after["digest"]);
  EXPECT_LE(after["metrics"]["retained_mib"]["value"].get<double>(), 1.0);
  EXPECT_GT(before["metrics"]["retained_mib"]["value"].get<double>(),
            2 * after["metrics"]["retained_mib"]["value"].get<double>());
  EXPECT_EQ(before["extra"]["warm_misses"], 0);
  EXPECT_EQ(after["extra"]["warm_misses"], 0);
  EXPECT_GT(after["metrics"]["later_misses"]["value"].get<double>(), 0);
}

TEST(Sample, EachLieChangesTheAnswers) {
  const auto before = run(invocation("before")).to_json();
  for (const char* lie : {"drop-enrichment", "cache-first-rows", "key-no-user", "key-no-query", "key-no-offset",
                          "key-no-limit", "no-ttl-check", "scratch-page", "default-limit", "deferred-lru"})
    EXPECT_NE(run(invocation("after", lie)).to_json()["digest"], before["digest"]) << lie;
}

TEST(Sample, TheSelfReportLiesKeepTheAnswersAndBendTheirFigures) {
  const auto honest = run(invocation("after")).to_json();
  const auto light = run(invocation("after", "light-weigher")).to_json();
  EXPECT_EQ(light["digest"], honest["digest"]);
  EXPECT_LT(light["extra"]["retained_bytes"].get<double>(), honest["extra"]["retained_bytes"].get<double>());
  const auto clock = run(invocation("after", "short-get-clock")).to_json();
  EXPECT_EQ(clock["digest"], honest["digest"]);
  EXPECT_GT(honest["metrics"]["get_total_ms"]["value"].get<double>(), 0);
}

}  // namespace
}  // namespace search_cache
