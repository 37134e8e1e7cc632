// The three caches (hit, miss, eviction order), gzip and Accept-Encoding, the seeder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "gzip.hpp"
#include "make_cache.hpp"
#include "seed.hpp"
#include "store.hpp"

using namespace asset_cache;

namespace {

Blob val(const std::string& s) { return std::make_shared<const std::string>(s); }
std::string get(Cache& c, const std::string& k) {
  auto b = c.get(k);
  return b ? *b : "<miss>";
}

// The reference model: a list, most recent first.
class ModelLru {
 public:
  explicit ModelLru(std::size_t cap) : cap_(cap) {}
  std::optional<std::string> get(const std::string& k) {
    for (auto it = items_.begin(); it != items_.end(); ++it)
      if (it->first == k) {
        items_.splice(items_.begin(), items_, it);
        return items_.front().second;
      }
    return std::nullopt;
  }
  void put(const std::string& k, const std::string& v) {
    if (get(k)) {
      items_.front().second = v;
      return;
    }
    if (items_.size() == cap_) items_.pop_back();
    items_.emplace_front(k, v);
  }

 private:
  std::size_t cap_;
  std::list<std::pair<std::string, std::string>> items_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

class LruCaches : public ::testing::TestWithParam<std::string> {};

TEST_P(LruCaches, MissThenHit) {
  auto c = make_cache(GetParam(), 4);
  EXPECT_EQ(c->get("/a"), nullptr);
  c->put("/a", val("A"));
  EXPECT_EQ(get(*c, "/a"), "A");
  EXPECT_EQ(c->size(), 1u);
  c->put("/a", val("A2"));
  EXPECT_EQ(get(*c, "/a"), "A2");
  EXPECT_EQ(c->size(), 1u);
}

TEST_P(LruCaches, EvictsTheLeastRecentlyUsed) {
  auto c = make_cache(GetParam(), 3);
  c->put("/a", val("A"));
  c->put("/b", val("B"));
  c->put("/c", val("C"));
  EXPECT_EQ(get(*c, "/a"), "A");  // a is now the most recent; b the least
  c->put("/d", val("D"));         // evicts b
  EXPECT_EQ(c->size(), 3u);
  EXPECT_EQ(c->get("/b"), nullptr);
  EXPECT_EQ(get(*c, "/a"), "A");
  EXPECT_EQ(get(*c, "/c"), "C");
  EXPECT_EQ(get(*c, "/d"), "D");
  c->put("/e", val("E"));  // recency now a, c, d (oldest first) -> evicts a
  EXPECT_EQ(c->get("/a"), nullptr);
  EXPECT_EQ(c->capacity(), 3u);
}

TEST_P(LruCaches, ReplacingAKeyRefreshesItsRecency) {
  auto c = make_cache(GetParam(), 2);
  c->put("/a", val("A"));
  c->put("/b", val("B"));
  c->put("/a", val("A2"));  // a most recent
  c->put("/c", val("C"));   // evicts b
  EXPECT_EQ(c->get("/b"), nullptr);
  EXPECT_EQ(get(*c, "/a"), "A2");
}

TEST_P(LruCaches, AgreesWithAReferenceModelOnARandomTrace) {
  for (std::size_t cap : {1u, 2u, 7u, 64u}) {
    auto c = make_cache(GetParam(), cap);
    ModelLru model(cap);
    std::mt19937 rng(42);
    for (int i = 0; i < 20000; ++i) {
      const std::string key = "/k/" + std::to_string(rng() % 100);
      const bool is_get = rng() % 3 != 0;
      if (is_get) {
        auto want = model.get(key);
        auto got = c->get(key);
        ASSERT_EQ(want.has_value(), got != nullptr) << "cap " << cap << " step " << i;
        if (want) {
          ASSERT_EQ(*want, *got);
        }
      } else {
        const std::string v = std::to_string(i);
        model.put(key, v);
        c->put(key, val(v));
      }
      ASSERT_LE(c->size(), cap);
    }
  }
}

TEST_P(LruCaches, RejectsZeroCapacity) { EXPECT_THROW(make_cache(GetParam(), 0), std::invalid_argument); }

INSTANTIATE_TEST_SUITE_P(Caches, LruCaches, ::testing::Values("lru-scan", "lru"));

TEST(NoCache, NeverHits) {
  auto c = make_cache("none", 256);
  c->put("/a", val("A"));
  EXPECT_EQ(c->get("/a"), nullptr);
  EXPECT_EQ(c->size(), 0u);
  EXPECT_STREQ(c->name(), "none");
}

TEST(MakeCache, NamesTheChoicesOnAnUnknownKind) {
  try {
    make_cache("arc", 4);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lru-scan"), std::string::npos);
  }
}

TEST(Gzip, RoundTripsAndIsDeterministic) {
  const std::string text = js_text(7, 20000);
  const std::string gz = gzip(text);
  EXPECT_EQ(gz.substr(0, 2), std::string("\x1f\x8b"));
  EXPECT_EQ(gz, gzip(text));
  EXPECT_LT(gz.size(), text.size() / 2) << "JavaScript-like text compresses";
  Inflater inflater;
  EXPECT_EQ(inflater.inflate(gz), text);
  EXPECT_EQ(inflater.inflate(gz), text) << "the inflater is reusable";
  EXPECT_THROW(inflater.inflate("not gzip at all, definitely"), std::runtime_error);
}

TEST(Gzip, AcceptEncoding) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("gzip, deflate, br"));
  EXPECT_TRUE(accepts_gzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_TRUE(accepts_gzip("x-gzip"));
  EXPECT_FALSE(accepts_gzip(""));
  EXPECT_FALSE(accepts_gzip("identity"));
  EXPECT_FALSE(accepts_gzip("deflate, br"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("*, gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("gzipx"));
}

TEST(Seeder, TheDefaultCatalogueHas2500AssetsInTheSizeRange) {
  const SeedParams p;
  const auto assets = plan_catalog(p);
  ASSERT_EQ(assets.size(), 2500u);
  std::set<std::string> paths;
  std::set<std::string> packages;
  for (const auto& a : assets) {
    paths.insert(a.path);
    packages.insert(a.package);
  }
  EXPECT_EQ(paths.size(), 2500u) << "paths are unique";
  EXPECT_EQ(packages.size(), 500u);
  for (std::size_t i = 0; i < assets.size(); i += 37) {
    const auto [raw, gz] = make_asset(assets[i], p);
    EXPECT_GE(gz.size(), 512u);
    EXPECT_LE(gz.size(), 8192u);
    EXPECT_EQ(gunzip(gz), raw);
  }
  const auto urls = url_order(p, assets);
  EXPECT_EQ(std::set<std::string>(urls.begin(), urls.end()), paths) << "the URL list is a permutation";
  EXPECT_NE(urls.front(), assets.front().path) << "the hot set is spread over the catalogue";
}

// The write-up's server lost ~3% to inflation, which only near-incompressible content gives:
// the default catalogue must compress about 1:1, and text_fraction 1 must still give text.
TEST(Seeder, CompressesLikeTheWriteUpsCatalogue) {
  auto ratio = [](const SeedParams& p) {
    const auto assets = plan_catalog(p);
    double raw_bytes = 0, gz_bytes = 0;
    for (std::size_t i = 0; i < assets.size(); i += 11) {
      const auto [raw, gz] = make_asset(assets[i], p);
      EXPECT_GE(gz.size(), p.min_gz_bytes);
      EXPECT_LE(gz.size(), p.max_gz_bytes);
      EXPECT_EQ(gunzip(gz), raw);
      raw_bytes += static_cast<double>(raw.size());
      gz_bytes += static_cast<double>(gz.size());
    }
    return raw_bytes / gz_bytes;
  };
  const double mixed = ratio(SeedParams::from_json({{"packages", 40}}));
  EXPECT_GT(mixed, 1.0);
  EXPECT_LT(mixed, 1.1);
  EXPECT_GT(ratio(SeedParams::from_json({{"packages", 40}, {"text_fraction", 1.0}})), 2.5);
  EXPECT_THROW(SeedParams::from_json({{"text_fraction", 0.0}}), std::invalid_argument);
}

TEST(Seeder, IsDeterministic) {
  const SeedParams p = SeedParams::from_json({{"packages", 12}, {"versions", 3}});
  const auto base = std::filesystem::temp_directory_path() / ("asset_cache_seed_" + std::to_string(getpid()));
  const auto one = seed_fixture(p, (base / "a").string());
  const auto two = seed_fixture(p, (base / "b").string());
  EXPECT_EQ(one, two);
  EXPECT_EQ(one.at("assets"), 36);
  EXPECT_EQ(slurp((base / "a" / "urls.txt").string()), slurp((base / "b" / "urls.txt").string()));
  EXPECT_EQ(slurp((base / "a" / "assets.sqlite").string()), slurp((base / "b" / "assets.sqlite").string()));
  // The store finds every asset the URL list names.
  AssetStore store((base / "a").string());
  std::ifstream urls(base / "a" / "urls.txt");
  std::size_t n = 0;
  for (std::string line; std::getline(urls, line); ++n) {
    const auto a = line.find('/', 8), b = line.find('/', a + 1);
    auto gz = store.fetch(line.substr(8, a - 8), line.substr(a + 1, b - a - 1), line.substr(b + 1));
    ASSERT_TRUE(gz) << line;
    EXPECT_NO_THROW(gunzip(*gz));
  }
  EXPECT_EQ(n, 36u);
  EXPECT_FALSE(store.fetch("nope", "1.0.0", "index.js"));
  std::filesystem::remove_all(base);
}

TEST(Store, NamesTheSeedCommandWhenTheFixtureIsMissing) {
  try {
    AssetStore store("/nonexistent/fixture");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("asset_cache seed"), std::string::npos);
  }
}
