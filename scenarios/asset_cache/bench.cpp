// asset_cache_bench: ns per operation of each cache (none, lru-scan, lru) at capacities 64 to
// 4096, over the catalogue's own paths (the seeder's, 2,500 by default).
//
//   get_hit/<cache>/<capacity>       get of a cached key (lru-scan: the O(n) touch)
//   get_miss/<cache>/<capacity>      get of a key not cached
//   put_evict/<cache>/<capacity>     put of a new key into a full cache (evicts one)
//   request_uniform/<cache>/<cap>    the actor's cache work per request, uniform access:
//                                    get, and put on a miss
//   request_hot/<cache>/<capacity>   the same under the 80/20 hot set (50 hot paths)
//
// And, for scale, the other per-request costs of the server's hot path:
//   inflate                          inflating one asset (200 assets of the catalogue)
//   store_fetch                      one SQLite lookup of a random asset (only with
//                                    --fixture=DIR, a seeded catalogue: `asset_cache seed`)
//
// perfgate runs it with --benchmark_out=FILE --benchmark_out_format=json and reads that.
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gzip.hpp"
#include "make_cache.hpp"
#include "seed.hpp"
#include "store.hpp"

namespace {

using asset_cache::Blob;
using asset_cache::Cache;

const std::vector<std::string>& catalogue() {
  static const std::vector<std::string> paths = [] {
    asset_cache::SeedParams p;
    return asset_cache::url_order(p, asset_cache::plan_catalog(p));
  }();
  return paths;
}

const std::vector<std::string>& strangers() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> s;
    for (int i = 0; i < 8192; ++i) s.push_back("/assets/not-cached-" + std::to_string(i) + "/1.0.0/index.js");
    return s;
  }();
  return paths;
}

// A fixed pseudo-random index sequence (SplitMix64), the same for every cache.
std::vector<std::uint32_t> sequence(std::size_t n, std::size_t range, std::uint64_t seed, std::size_t hot = 0,
                                    double hot_share = 0) {
  std::vector<std::uint32_t> out(n);
  std::uint64_t s = seed;
  auto next = [&] {
    std::uint64_t x = (s += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  auto below = [&](std::size_t m) {
    return static_cast<std::uint32_t>((static_cast<unsigned __int128>(next()) * m) >> 64);
  };
  for (auto& v : out) {
    if (hot > 0)
      v = (static_cast<double>(next() >> 11) * 0x1.0p-53 < hot_share)
              ? below(hot)
              : static_cast<std::uint32_t>(hot + below(range - hot));
    else
      v = below(range);
  }
  return out;
}

Blob blob() {
  static const Blob b = std::make_shared<const std::string>(4096, 'x');
  return b;
}

void fill(Cache& c, const std::vector<std::string>& keys, std::size_t n) {
  for (std::size_t i = 0; i < n && i < keys.size(); ++i) c.put(keys[i], blob());
}

void get_hit(benchmark::State& st, std::string kind, std::size_t cap) {
  auto c = asset_cache::make_cache(kind, cap);
  const auto& keys = catalogue();
  const std::size_t cached = std::min(cap, keys.size());
  fill(*c, keys, cached);
  const auto seq = sequence(1 << 16, kind == "none" ? keys.size() : cached, 11);
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(c->get(keys[seq[i++ & 0xffff]]));
  }
}

void get_miss(benchmark::State& st, std::string kind, std::size_t cap) {
  auto c = asset_cache::make_cache(kind, cap);
  fill(*c, catalogue(), cap);
  const auto& keys = strangers();
  const auto seq = sequence(1 << 16, keys.size(), 12);
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(c->get(keys[seq[i++ & 0xffff]]));
  }
}

void put_evict(benchmark::State& st, std::string kind, std::size_t cap) {
  auto c = asset_cache::make_cache(kind, cap);
  // Cycle through more distinct keys than any capacity, so every put inserts and evicts.
  std::vector<std::string> keys = catalogue();
  keys.insert(keys.end(), strangers().begin(), strangers().end());
  fill(*c, keys, cap);
  std::size_t i = cap % keys.size();
  for (auto _ : st) {
    c->put(keys[i], blob());
    if (++i == keys.size()) i = 0;
  }
}

void request(benchmark::State& st, std::string kind, std::size_t cap, bool hot) {
  auto c = asset_cache::make_cache(kind, cap);
  const auto& keys = catalogue();
  const auto seq = hot ? sequence(1 << 16, keys.size(), 13, 50, 0.8) : sequence(1 << 16, keys.size(), 13);
  // Warm the cache to its steady state first: until it is full (or has seen the whole
  // sequence), then a little more.
  const std::size_t full = kind == "none" ? 0 : std::min(cap, keys.size());
  std::size_t w = 0;
  for (; w < seq.size() && (c->size() < full || w < 4096); ++w)
    if (!c->get(keys[seq[w]])) c->put(keys[seq[w]], blob());
  std::size_t i = w, hits = 0, n = 0;
  for (auto _ : st) {
    const auto& key = keys[seq[i++ & 0xffff]];
    Blob b = c->get(key);
    if (b)
      ++hits;
    else
      c->put(key, blob());
    ++n;
  }
  st.counters["hit_ratio"] = n ? static_cast<double>(hits) / static_cast<double>(n) : 0.0;
}

void inflate(benchmark::State& st) {
  static std::size_t raw_bytes = 0;
  static const std::vector<std::string> gz = [] {
    const asset_cache::SeedParams p;
    const auto assets = asset_cache::plan_catalog(p);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < assets.size(); i += assets.size() / 200) {
      auto [raw, z] = asset_cache::make_asset(assets[i], p);
      raw_bytes += raw.size();
      out.push_back(std::move(z));
    }
    return out;
  }();
  asset_cache::Inflater inflater;
  std::size_t i = 0, out = 0;
  for (auto _ : st) {
    out += inflater.inflate(gz[i]).size();
    if (++i == gz.size()) i = 0;
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(out));
  st.counters["avg_raw_bytes"] = static_cast<double>(raw_bytes) / static_cast<double>(gz.size());
}

void store_fetch(benchmark::State& st, std::string dir) {
  asset_cache::AssetStore store(dir);
  struct Key {
    std::string package, version, file;
  };
  std::vector<Key> keys;
  for (const auto& path : catalogue()) {
    const auto a = path.find('/', 8), b = path.find('/', a + 1);
    keys.push_back({path.substr(8, a - 8), path.substr(a + 1, b - a - 1), path.substr(b + 1)});
  }
  const auto seq = sequence(1 << 16, keys.size(), 14);
  std::size_t i = 0;
  for (auto _ : st) {
    const Key& k = keys[seq[i++ & 0xffff]];
    benchmark::DoNotOptimize(store.fetch(k.package, k.version, k.file));
  }
}

const bool registered = [] {
  benchmark::RegisterBenchmark("inflate", inflate);
  for (std::string kind : {"none", "lru-scan", "lru"}) {
    for (std::size_t cap : {64, 256, 1024, 4096}) {
      if (kind == "none" && cap != 64) continue;  // capacity means nothing without a cache
      const std::string suffix = "/" + kind + (kind == "none" ? "" : "/" + std::to_string(cap));
      benchmark::RegisterBenchmark(("get_hit" + suffix).c_str(), get_hit, kind, cap);
      benchmark::RegisterBenchmark(("get_miss" + suffix).c_str(), get_miss, kind, cap);
      benchmark::RegisterBenchmark(("put_evict" + suffix).c_str(), put_evict, kind, cap);
      benchmark::RegisterBenchmark(("request_uniform" + suffix).c_str(), request, kind, cap, false);
      benchmark::RegisterBenchmark(("request_hot" + suffix).c_str(), request, kind, cap, true);
    }
  }
  return true;
}();

}  // namespace

int main(int argc, char** argv) {
  // --fixture=DIR (ours, taken out before Google Benchmark sees the flags).
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--fixture=", 10) == 0) {
      const std::string dir = argv[i] + 10;
      if (std::filesystem::exists(dir + "/assets.sqlite"))
        benchmark::RegisterBenchmark("store_fetch", store_fetch, dir);
      else
        std::cerr << "asset_cache_bench: no catalogue in '" << dir << "': store_fetch skipped\n";
      continue;
    }
    args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
