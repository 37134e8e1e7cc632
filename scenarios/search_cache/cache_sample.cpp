// One sample: (1) fill: every distinct query asked once (all misses: each page is built and
// put); the heap the cache retains is read right after, the interposer's window (when perfgate
// counts allocations) closes there too; (2) warm gets: get() timed in batches of 64 calls over
// the most recent queries, which both bounds keep, then each of them answered once more into the
// digest (so a hit is checked against the miss it replays); (3) sweep: every query asked again, a miss
// rebuilding the page; (4) probes: the next page and a shorter page of the recent queries
// (keys that differ only in offset or limit), looked up and never put. Every answer of (1), (3)
// and (4) goes to the digest, one line per query, so the equivalence gate checks that each query
// answered the same rows in both variants.
#include "cache_sample.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <perfgate/alloc_window.hpp>
#include <random>
#include <stdexcept>

#include "result_cache.hpp"

namespace search_cache {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::unique_ptr<ResultCache> make_cache(const perfgate::Invocation& inv) {
  const std::chrono::seconds ttl(inv.param<int>("ttl_s"));
  if (inv.variant == "before") return std::make_unique<CountCappedCache>(inv.param<std::size_t>("max_entries"), ttl);
  const auto budget = static_cast<std::size_t>(inv.param<double>("budget_mib") * kMiB);
  const KeyField dropped = inv.lying("key-no-user")     ? KeyField::User
                           : inv.lying("key-no-query")  ? KeyField::Query
                           : inv.lying("key-no-offset") ? KeyField::Offset
                           : inv.lying("key-no-limit")  ? KeyField::Limit
                                                        : KeyField::None;
  return std::make_unique<WeighedCache>(budget, ttl, inv.lying("cache-first-rows") ? Keep::FirstHalf : Keep::WholePage,
                                        dropped);
}

struct Answerer {
  ResultCache& cache;
  Build build;
  perfgate::OutputLog& log;
  std::size_t misses = 0;
  void ask(const char* phase, const SearchKey& key) {
    const std::string text = key.text();
    PagePtr page = cache.get(text);
    if (!page) {
      ++misses;
      page = build_page(key, build);
      cache.put(text, page);
    }
    record(phase, text, *page);
  }
  void probe(const char* phase, const SearchKey& key) {
    PagePtr page = cache.get(key.text());
    if (!page) page = build_page(key, build);
    record(phase, key.text(), *page);
  }
  void record(const char* phase, const std::string& text, const Page& page) {
    log.line(std::string(phase) + '\t' + text + '\t' + std::to_string(page.size()) + '\t' + page_digest(page));
  }
};

}  // namespace

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto pages = inv.param<std::size_t>("pages");
  const auto rows = inv.param<std::uint32_t>("rows_per_page");
  const auto hot = std::min(pages, inv.param<std::size_t>("hot_keys"));
  const auto gets = inv.param<std::size_t>("gets");
  auto cache = make_cache(inv);
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
  for (std::size_t b = 0; b + kBatch <= order.size(); b += kBatch) {
    const auto t0 = Clock::now();
    for (std::size_t g = b; g < b + kBatch; ++g) {
      PagePtr page = cache->get(hot_keys[order[g] % hot]);
      if (page)
        rows_seen += page->size();
      else
        ++hot_misses;
    }
    ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kBatch);
  }
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
  }

  std::sort(ns.begin(), ns.end());
  perfgate::Report report;
  report.count("retained_mib", retained / kMiB, "MiB")
      .count("cache_entries", static_cast<double>(entries))
      .metric("get_p50_ns", perfgate::percentile_sorted(ns, 0.50), "ns")
      .metric("get_p99_ns", perfgate::percentile_sorted(ns, 0.99), "ns")
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
