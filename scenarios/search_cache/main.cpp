// search_cache (seed 000 [11]): a search-results cache bounded by entry count (BEFORE) or by
// the bytes it holds (AFTER), same TTL (docs/scenario-contract.md; the SDK does the plumbing,
// cache_sample.cpp the work). No fixture: the pages are built from their keys.
//
//   search_cache run --variant before|after --profile P --params JSON
//                    [--lie drop-enrichment|cache-first-rows|key-no-user|key-no-query|key-no-offset|
//                           key-no-limit|no-ttl-check|scratch-page|default-limit|deferred-lru|
//                           light-weigher|short-get-clock]
//
// Lies (AFTER only, each holding less than BEFORE): pages built without their enrichment
// (owner display name, tags), only the first half of a page's rows kept in the cache, or a
// cache key without one of its fields (user, query, offset, limit: two pages share an entry).
#include <perfgate/scenario_main.hpp>

#include "cache_sample.hpp"

int main(int argc, char** argv) {
  return perfgate::scenario_main(
      argc, argv, perfgate::ScenarioProgram("search_cache").variants({"before", "after"}).run(search_cache::run));
}
