// upload_spool's digests — like every scenario's, and the results recorded on other machines —
// are the SDK's XXH3-128. The SDK compiles xxHash inline (no -lxxhash); these values were made
// with the linked libxxhash 0.8.1 before that change, so a build that hashes differently fails
// here instead of staling every recorded digest. Lengths cover each of XXH3's input-size paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "perfgate/sample.hpp"

namespace {

std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 2654435761u) >> 13);
  return s;
}

TEST(SdkDigest, IsTheXxh3OfLibxxhashForEveryInputSize) {
  const std::pair<std::size_t, const char*> pins[] = {
      {0, "99aa06d3014798d86001c324468d497f"},       {3, "95c705060a313bf8a1c4a8259b827291"},
      {8, "2761698c33953c430234362aaf47b71a"},       {16, "29be75b0bbbb5284aafffcec5df2cb27"},
      {128, "ba44fd018231af4cbbe087d879edcc78"},     {240, "4f49ccc8526aa7ad407883ea5ef95b9a"},
      {241, "50b62ee1ee6455a7bc424a2c480dd281"},     {1024, "53bd178b75ab292e1fd15e7d36f5e1bc"},
      {1 << 20, "490d2e4880066606e2786b358eab4a67"},
  };
  for (const auto& [n, hex] : pins) EXPECT_EQ(perfgate::digest_of(pattern(n)), hex) << n << " bytes";
  EXPECT_EQ(perfgate::digest_of("perfgate"), "95b381ff2e3de403c8f5a3f1c0f7382b");
}

TEST(SdkDigest, StreamingAndFieldsAreUnchanged) {
  perfgate::Digest d;
  d.field("ab");
  d.field("c");
  EXPECT_EQ(d.hex(), "f2eda2708bcfd51cc05c0ee4c9f60440");
  perfgate::Digest pieces;  // the same bytes in uneven pieces: one stream, one digest
  const auto big = pattern(1 << 20);
  for (std::size_t at = 0; at < big.size(); at += 4099) pieces.update(big.substr(at, 4099));
  EXPECT_EQ(pieces.hex(), "490d2e4880066606e2786b358eab4a67");
}

}  // namespace
