#include <gtest/gtest.h>

#include <set>

#include "common/errors.hpp"
#include "plan/shard.hpp"

using namespace perfgate::plan;

TEST(Shard, ParsesAndRejects) {
  auto s = parse_shard("2/3");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 3);
  for (const char* bad : {"0/3", "4/3", "1", "a/b", "1/0", "1/2x", "/2"})
    EXPECT_THROW(parse_shard(bad), perfgate::UsageError) << bad;
}

TEST(Shard, EveryNameInExactlyOneShardWhateverTheInputOrder) {
  std::vector<std::string> names = {"e", "b", "a", "d", "c", "g", "f"};
  std::vector<std::string> reversed(names.rbegin(), names.rend());
  std::multiset<std::string> seen;
  for (int i = 1; i <= 3; ++i) {
    auto part = shard_names(names, {i, 3});
    EXPECT_EQ(part, shard_names(reversed, {i, 3}));
    EXPECT_GE(part.size(), 2u);
    EXPECT_LE(part.size(), 3u);
    seen.insert(part.begin(), part.end());
  }
  EXPECT_EQ(seen, std::multiset<std::string>(names.begin(), names.end()));
  EXPECT_EQ(shard_names(names, {1, 3}), (std::vector<std::string>{"a", "d", "g"}));
}
