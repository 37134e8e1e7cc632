// One sample: (1) fill: every distinct query asked once (all misses: each page is built and
// put); the heap the cache retains is read right after, the interposer's window (when perfgate
// counts allocations) closes there too; (2) warm gets: get() timed in batches of 64 calls over
// the most recent queries, which both bounds keep, then each of them answered once more into the
// digest (so a hit is checked against the miss it replays); (3) sweep: every query asked again, a miss
// rebuilding the page; (4) probes, untimed, after every figure: the next page, a shorter page,
// limit 0, an empty user and an empty query of the recent queries (looked up and never put);
// pages held while another key is put; LRU order on a cache bounded to two pages; the recent
// queries again past ttl_s after a rename. Every answer of (1), (3) and (4) goes to the digest,
// one line per query, so the equivalence gate checks that each query answered the same rows in
// both variants.
#include "cache_sample.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <perfgate/alloc_window.hpp>
#include <perfgate/outside_window.hpp>
#include <random>
#include <stdexcept>

#include "result_cache.hpp"

namespace search_cache {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// The variant's cache; `max_entries` bounds BEFORE, `budget_bytes` AFTER.
std::unique_ptr<ResultCache> make_cache(const perfgate::Invocation& inv, std::size_t max_entries,
                                        std::size_t budget_bytes) {
  const std::chrono::seconds ttl(inv.param<int>("ttl_s"));
  if (inv.variant == "before") return std::make_unique<CountCappedCache>(max_entries, ttl);
  Shortcuts lies;
  lies.keep = inv.lying("cache-first-rows") ? Keep::FirstHalf : Keep::WholePage;
  lies.dropped = inv.lying("key-no-user")     ? KeyField::User
                 : inv.lying("key-no-query")  ? KeyField::Query
                 : inv.lying("key-no-offset") ? KeyField::Offset
                 : inv.lying("key-no-limit")  ? KeyField::Limit
                                              : KeyField::None;
  lies.no_ttl_check = inv.lying("no-ttl-check");
  lies.scratch_page = inv.lying("scratch-page");
  lies.zero_limit = inv.lying("default-limit") ? inv.param<std::uint32_t>("rows_per_page") : 0;
  lies.deferred_lru = inv.lying("deferred-lru");
  lies.light_weigher = inv.lying("light-weigher");
  return std::make_unique<WeighedCache>(budget_bytes, ttl, lies);
}

struct Answerer {
  ResultCache& cache;
  Build build;
  perfgate::OutputLog& log;
  Data data{};
  std::size_t misses = 0;
  PagePtr fetch(const SearchKey& key) {
    const std::string text = key.text();
    PagePtr page = cache.get(text);
    if (!page) {
      ++misses;
      page = build_page(key, build, data);
      cache.put(text, page);
    }
    return page;
  }
  void ask(const char* phase, const SearchKey& key) { record(phase, key.text(), *fetch(key)); }
  void probe(const char* phase, const SearchKey& key) {
    PagePtr page = cache.get(key.text());
    if (!page) page = build_page(key, build, data);
    record(phase, key.text(), *page);
  }
  void record(const char* phase, const std::string& text, const Page& page) {
    log.line(std::string(phase) + '\t' + text + '\t' + std::to_string(page.size()) + '\t' + page_digest(page));
  }
};

// Pages held across other calls: the pages answered to two users of one query (a recent key,
// a hit; a user the fill never asked, a miss) are held while a third key is put, and only then
// digested: a page the cache hands out must stay the page it answered.
void probe_held_pages(Answerer& answer, std::size_t pages, std::uint32_t rows) {
  const SearchKey hit = key_of(pages - 1, rows);
  SearchKey miss = hit, third = hit;
  miss.user = "user-held";
  third.user = "user-third";
  third.query += " third";
  const PagePtr first = answer.fetch(hit), second = answer.fetch(miss);
  answer.fetch(third);
  answer.record("held hit", hit.text(), *first);
  answer.record("held miss", miss.text(), *second);
  answer.record("held third", third.text(), *answer.fetch(third));
}

// LRU order on a cache of the variant bounded to two pages (BEFORE: max_entries 2; AFTER: a
// budget between two and three pages' weight): put A, put B, get A, put C; then A must hit and
// B miss. One line per key: whether get() finds it.
void probe_lru_order(const perfgate::Invocation& inv, Answerer& answer, std::size_t pages, std::uint32_t rows) {
  std::vector<SearchKey> keys;
  std::vector<PagePtr> built;
  std::size_t total = 0, lightest = SIZE_MAX;
  for (std::size_t i = 0; i < 3; ++i) {
    keys.push_back(key_of(pages + i, rows));
    built.push_back(build_page(keys[i], answer.build, answer.data));
    const std::size_t w = entry_bytes(keys[i].text(), *built[i]);
    total += w;
    lightest = std::min(lightest, w);
  }
  auto small = make_cache(inv, 2, total - lightest / 2);
  small->put(keys[0].text(), built[0]);
  small->put(keys[1].text(), built[1]);
  answer.log.line(std::string("lru get A\t") + (small->get(keys[0].text()) ? "hit" : "miss"));
  small->put(keys[2].text(), built[2]);
  for (const auto& k : keys) answer.log.line("lru\t" + k.text() + '\t' + (small->get(k.text()) ? "hit" : "miss"));
}

// Expiry: the files of the most recent key's user renamed (a new data generation), the cache's
// clock moved past ttl_s, the recent keys asked again: every page is expired, so each is rebuilt
// from the current data and that user's rows answer their new names.
void probe_expiry(ResultCache& cache, Answerer& answer, int ttl_s, std::size_t pages, std::size_t hot,
                  std::uint32_t rows) {
  answer.data = Data{key_of(pages - 1, rows).user, 1};
  cache.advance_clock(std::chrono::seconds(ttl_s + 1));
  for (std::size_t i = pages - hot; i < pages; ++i) answer.ask("after ttl", key_of(i, rows));
}

}  // namespace

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto pages = inv.param<std::size_t>("pages");
  const auto rows = inv.param<std::uint32_t>("rows_per_page");
  const auto hot = std::min(pages, inv.param<std::size_t>("hot_keys"));
  const auto gets = inv.param<std::size_t>("gets");
  auto cache = make_cache(inv, inv.param<std::size_t>("max_entries"),
                          static_cast<std::size_t>(inv.param<double>("budget_mib") * kMiB));
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  Answerer answer{*cache, inv.lying("drop-enrichment") ? Build::NoEnrichment : Build::Honest, log};

  perfgate_alloc_window_start();
  for (std::size_t i = 0; i < pages; ++i) answer.ask("fill", key_of(i, rows));
  perfgate_alloc_window_stop();
  const std::size_t retained = cache->retained_bytes(), entries = cache->entries();
  if (inv.variant == "after" && retained > static_cast<std::size_t>(inv.param<double>("budget_mib") * kMiB))
    throw std::runtime_error("the weighed cache holds " + std::to_string(retained) + " bytes, over its budget");

  // Warm gets in a fixed shuffled order, timed in batches of kBatch calls: one clock read per
  // call would cost more than the get() and round it to the clock's granularity.
  constexpr std::size_t kBatch = 64;
  std::vector<std::string> hot_keys;
  for (std::size_t i = pages - hot; i < pages; ++i) hot_keys.push_back(key_of(i, rows).text());
  std::vector<std::size_t> order(std::max(gets, kBatch));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(42);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<double> ns;
  ns.reserve(order.size() / kBatch);
  std::size_t hot_misses = 0, rows_seen = 0;
  // The lie "short-get-clock" starts each batch's stopwatch after its first half (those calls
  // taken as the batch's warm-up) and still divides by the whole batch.
  const std::size_t unclocked = inv.lying("short-get-clock") ? kBatch / 2 : 0;
  {
    // perfgate's own clock around every warm get (warm_window_wall_ms): get_total_ms is held to it.
    perfgate::OutsideWindow window("warm");
    const auto warm_get = [&](std::size_t g) {
      PagePtr page = cache->get(hot_keys[order[g] % hot]);
      if (page)
        rows_seen += page->size();
      else
        ++hot_misses;
    };
    for (std::size_t b = 0; b + kBatch <= order.size(); b += kBatch) {
      for (std::size_t g = b; g < b + unclocked; ++g) warm_get(g);
      const auto t0 = Clock::now();
      for (std::size_t g = b + unclocked; g < b + kBatch; ++g) warm_get(g);
      ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kBatch);
    }
  }
  const double get_total_ms = std::accumulate(ns.begin(), ns.end(), 0.0) * kBatch / 1e6;
  const std::size_t fill_misses = answer.misses;
  for (std::size_t i = pages - hot; i < pages; ++i) answer.ask("warm", key_of(i, rows));
  for (std::size_t i = 0; i < pages; ++i) answer.ask("sweep", key_of(i, rows));
  const std::size_t later_misses = answer.misses - fill_misses;
  // Probes (untimed, after every figure): the next page and a shorter page of each recently
  // swept query, keys that differ from a cached one only in offset or limit. Looked up, built
  // on a miss, never put (the cache and its figures stay as they were): a cache whose key
  // leaves a field out answers them from the cached page.
  for (std::size_t i = pages - hot; i < pages; ++i) {
    SearchKey next = key_of(i, rows), shorter = key_of(i, rows);
    next.offset += rows;
    shorter.limit = std::max<std::uint32_t>(1, rows / 2);
    answer.probe("next page", next);
    answer.probe("shorter page", shorter);
    // Degenerate keys: an empty page (limit 0), an empty user, an empty query; each answers the
    // page built for exactly that key, not a default limit's or a cached neighbour's.
    SearchKey empty_page = key_of(i, rows), no_user = key_of(i, rows), no_query = key_of(i, rows);
    empty_page.limit = 0;
    no_user.user.clear();
    no_query.query.clear();
    answer.probe("limit 0", empty_page);
    answer.probe("empty user", no_user);
    answer.probe("empty query", no_query);
  }
  probe_held_pages(answer, pages, rows);
  probe_lru_order(inv, answer, pages, rows);
  probe_expiry(*cache, answer, inv.param<int>("ttl_s"), pages, hot, rows);

  std::sort(ns.begin(), ns.end());
  perfgate::Report report;
  report.count("retained_mib", retained / kMiB, "MiB")
      .count("cache_entries", static_cast<double>(entries))
      .metric("get_p50_ns", perfgate::percentile_sorted(ns, 0.50), "ns")
      .metric("get_p99_ns", perfgate::percentile_sorted(ns, 0.99), "ns")
      .metric("get_total_ms", get_total_ms, "ms")
      .metric("later_misses", static_cast<double>(later_misses), "count")
      .extra("retained_bytes", retained)
      .extra("queries", pages)
      .extra("rows_per_page", rows)
      .extra("warm_gets", gets)
      .extra("warm_misses", hot_misses)
      .extra("warm_rows_seen", rows_seen)
      .digest(digest.hex());
  return report;
}

}  // namespace search_cache
