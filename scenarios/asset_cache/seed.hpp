// The deterministic asset catalogue: packages × versions, one gzipped JavaScript-like file
// per version, 512 B to 8 KiB gzipped; and the URL list whose first lines are the hot set.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace asset_cache {

struct SeedParams {
  int packages = 500;
  int versions = 5;
  std::size_t min_gz_bytes = 512;
  std::size_t max_gz_bytes = 8192;
  std::uint64_t seed = 2;  // the PRNG seed: same params, same bytes
  // Share of an asset's raw bytes that is JavaScript text; the rest is an embedded binary
  // blob (random bytes) that gzip cannot shrink. The write-up's server spent ~3% of its CPU
  // inflating (62.1k vs 60.4k req/s with and without Accept-Encoding: gzip), which only
  // near-incompressible content gives: 0.05 makes the catalogue compress ~1.04:1. 1.0 gives
  // all-text assets (~3.7:1), whose inflation costs more than the rest of a request.
  double text_fraction = 0.05;
  // Reads the profile's params ({"packages": 500, "versions": 5, "min_gz_bytes": 512, ...});
  // absent keys keep the defaults above.
  static SeedParams from_json(const nlohmann::json& params);
};

struct AssetSpec {
  std::string package, version, file;
  std::string path;  // /assets/<package>/<version>/<file>
  std::size_t target_gz_bytes = 0;
  std::uint64_t content_seed = 0;
};

// Every asset, in insertion order (package by package). Pure function of the params.
std::vector<AssetSpec> plan_catalog(const SeedParams& p);
// The URL list: every asset's path, shuffled by the seed; its first lines are the hot set.
std::vector<std::string> url_order(const SeedParams& p, const std::vector<AssetSpec>& assets);
// JavaScript-like text (identifiers, calls, literals, comments) of at least `length` bytes.
std::string js_text(std::uint64_t seed, std::size_t length);
// The asset's content: a js_text prologue (text_fraction of it) and a random blob, cut so
// that its gzip lies in [min_gz_bytes, max_gz_bytes], close to spec.target_gz_bytes.
// Returns {raw, gzip}.
std::pair<std::string, std::string> make_asset(const AssetSpec& spec, const SeedParams& p);

// Writes DIR/assets.sqlite and DIR/urls.txt (DIR is created if needed; an existing catalogue
// is replaced). Returns the seeder's figures: {"assets", "packages", "gz_bytes", "raw_bytes"}.
nlohmann::json seed_fixture(const SeedParams& p, const std::string& dir);

}  // namespace asset_cache
