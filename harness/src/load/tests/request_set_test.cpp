// RequestSet: deterministic sampling, the mixes' shares, URL files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <numeric>

#include "load/http_load.hpp"

using perfgate::load::RequestSet;

namespace {

std::vector<std::string> make_paths(std::size_t n) {
  std::vector<std::string> p;
  for (std::size_t i = 0; i < n; ++i) p.push_back("/p/" + std::to_string(i));
  return p;
}

std::vector<std::size_t> histogram(const RequestSet& s, std::uint64_t seed, std::uint64_t draws) {
  std::vector<std::size_t> h(s.paths.size());
  for (std::uint64_t k = 0; k < draws; ++k) ++h.at(s.pick(seed, k));
  return h;
}

// A temporary file holding `text`, removed with the object.
struct TempFile {
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/perfgate_urls_XXXXXX";
    const int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    close(fd);
    path = name;
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace

TEST(RequestSet, PickIsAPureFunctionOfSeedAndIndex) {
  const auto s = RequestSet::from_paths(make_paths(2500)).zipf(1.0);
  for (std::uint64_t k = 0; k < 1000; ++k) EXPECT_EQ(s.pick(7, k), s.pick(7, k));
  std::size_t same = 0;
  for (std::uint64_t k = 0; k < 1000; ++k) same += s.pick(7, k) == s.pick(8, k);
  EXPECT_LT(same, 500u) << "another seed gives another sequence";
}

TEST(RequestSet, HotSetGetsItsShare) {
  const auto s = RequestSet::from_paths(make_paths(2500)).hot(50, 0.8);
  const auto h = histogram(s, 1, 200000);
  const auto hot = std::accumulate(h.begin(), h.begin() + 50, std::size_t{0});
  EXPECT_NEAR(static_cast<double>(hot) / 200000.0, 0.8, 0.01);
  EXPECT_NEAR(s.probability(0), 0.8 / 50, 1e-12);
  EXPECT_NEAR(s.probability(60), 0.2 / 2450, 1e-12);
  EXPECT_EQ(s.label, "hot(50,0.8)");
}

TEST(RequestSet, UniformCoversEveryPathEvenly) {
  const auto s = RequestSet::from_paths(make_paths(100));
  const auto h = histogram(s, 3, 100000);
  for (std::size_t n : h) EXPECT_NEAR(static_cast<double>(n), 1000.0, 150.0);
}

TEST(RequestSet, ZipfFollowsRank) {
  const auto s = RequestSet::from_paths(make_paths(1000)).zipf(1.0);
  const auto h = histogram(s, 5, 300000);
  // P(rank 1) / P(rank 2) = 2 under s = 1.
  EXPECT_NEAR(static_cast<double>(h[0]) / static_cast<double>(h[1]), 2.0, 0.15);
  EXPECT_GT(h[0], h[9]);
  EXPECT_GT(h[9], h[99]);
  EXPECT_NEAR(s.probability(0) / s.probability(1), 2.0, 1e-9);
}

TEST(RequestSet, CycleVisitsEveryPathOncePerRound) {
  const auto s = RequestSet::from_paths(make_paths(7)).cycle();
  for (std::uint64_t k = 0; k < 21; ++k) EXPECT_EQ(s.pick(99, k), k % 7);
}

TEST(RequestSet, UrlFileTakesPathsUrlsCommentsAndWeights) {
  const TempFile plain("# catalogue\n/a\n\nhttp://127.0.0.1:8333/b/c\n");
  const auto s = RequestSet::from_url_file(plain.path);
  EXPECT_EQ(s.paths, (std::vector<std::string>{"/a", "/b/c"}));
  EXPECT_EQ(s.mix, RequestSet::Mix::Uniform);

  const TempFile weighted("/a 3\n/b 1\n");
  const auto w = RequestSet::from_url_file(weighted.path);
  EXPECT_EQ(w.mix, RequestSet::Mix::Weighted);
  EXPECT_NEAR(w.probability(0), 0.75, 1e-12);

  const TempFile bad_weight("/a x\n"), empty("\n# nothing\n");
  EXPECT_THROW(RequestSet::from_url_file(bad_weight.path), std::invalid_argument);
  EXPECT_THROW(RequestSet::from_url_file(empty.path), std::invalid_argument);
  EXPECT_THROW(RequestSet::from_url_file("/nonexistent/urls.txt"), std::runtime_error);
}

TEST(RequestSet, WorkloadFromManifest) {
  const TempFile file("/a\n/b\n/c\n/d\n");
  const auto dir = file.path.substr(0, file.path.rfind('/'));
  const auto name = file.path.substr(file.path.rfind('/') + 1);
  auto hot = RequestSet::from_workload({{"urls", name}, {"mix", "hot"}, {"hot_count", 1}, {"hot_fraction", 0.5}}, dir);
  EXPECT_NEAR(hot.probability(0), 0.5, 1e-12);
  EXPECT_NEAR(hot.probability(3), 0.5 / 3, 1e-12);
  EXPECT_THROW(RequestSet::from_workload({{"urls", name}, {"mix", "bogus"}}, dir), std::invalid_argument);
  EXPECT_THROW(RequestSet::from_workload({{"urls", name}, {"mix", "hot"}, {"hot_count", 9}}, dir),
               std::invalid_argument);
}
