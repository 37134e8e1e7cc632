// The command reader and parser against RFC 3501's grammar: literals (synchronising and
// LITERAL+), quoted strings, lists, sequence sets, and what is refused without ending the
// connection (an over-long line, a literal too large).
#include <gtest/gtest.h>

#include "imap_command.hpp"

namespace imap_select {
namespace {

// A reader over a fixed byte string, recording what it sent back ("+ " continuations).
struct Wire {
  explicit Wire(std::string bytes) : in(std::move(bytes)) {}
  std::string in;
  std::size_t pos = 0;
  std::string sent;
  std::size_t chunk = 7;  // odd, small reads: commands straddle reads
  CommandReader reader(std::size_t max_line = 64 * 1024, std::size_t max_literal = 256 * 1024) {
    return CommandReader(
        [this](char* p, std::size_t n) {
          const std::size_t k = std::min({n, chunk, in.size() - pos});
          in.copy(p, k, pos);
          pos += k;
          return k;
        },
        [this](std::string_view s) { sent += s; }, max_line, max_literal);
  }
};

Command parsed(const RawCommand& raw) {
  std::string tag, error;
  auto c = parse_command(raw, tag, error);
  EXPECT_TRUE(c) << error;
  return c ? *c : Command{};
}

TEST(Reader, LiteralsSynchronisingAndNot) {
  Wire w{"a1 LOGIN {18}\r\nalice@example.test {5+}\r\npa ss\r\na2 NOOP\r\n"};
  auto r = w.reader();
  RawCommand raw;
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  EXPECT_EQ(w.sent, "+ Ready for literal data\r\n");  // once: {5+} needs no continuation
  const Command c = parsed(raw);
  EXPECT_EQ(c.tag, "a1");
  EXPECT_EQ(c.name, "LOGIN");
  ASSERT_EQ(c.args.size(), 2u);
  EXPECT_EQ(c.args[0].text, "alice@example.test");
  EXPECT_EQ(c.args[1].text, "pa ss");
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  EXPECT_EQ(parsed(raw).name, "NOOP");
  EXPECT_EQ(r.next(raw), CommandReader::Status::Closed);
}

TEST(Reader, QuotedStringsAndLists) {
  Wire w{"t uid fetch 1:* (UID FLAGS)\r\nt2 LOGIN \"a \\\"b\\\\\" \"\"\r\n"};
  auto r = w.reader();
  RawCommand raw;
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  Command c = parsed(raw);
  EXPECT_EQ(c.name, "UID");
  ASSERT_EQ(c.args.size(), 3u);
  EXPECT_EQ(c.args[2].kind, Token::Kind::List);
  ASSERT_EQ(c.args[2].items.size(), 2u);
  EXPECT_EQ(c.args[2].items[1].text, "FLAGS");
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  c = parsed(raw);
  ASSERT_EQ(c.args.size(), 2u);
  EXPECT_EQ(c.args[0].text, "a \"b\\");
  EXPECT_EQ(c.args[1].kind, Token::Kind::String);
  EXPECT_EQ(c.args[1].text, "");
}

TEST(Reader, OverlongLineIsDrainedAndTheNextCommandReads) {
  Wire w{std::string(1 << 20, 'x') + "\r\na3 NOOP\r\n"};
  w.chunk = 16384;
  auto r = w.reader();
  RawCommand raw;
  EXPECT_EQ(r.next(raw), CommandReader::Status::TooLong);
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  EXPECT_EQ(parsed(raw).tag, "a3");
}

TEST(Reader, LiteralTooLargeIsRefusedWithoutAContinuation) {
  Wire w{"a1 LOGIN {999999}\r\na2 NOOP\r\na3 LOGIN {9999+}\r\n" + std::string(9999, 'y') + " x\r\na4 NOOP\r\n"};
  auto r = w.reader(1024, 1024);
  RawCommand raw;
  EXPECT_EQ(r.next(raw), CommandReader::Status::TooLong);
  EXPECT_EQ(w.sent, "");  // no "+": the client never sends it
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  EXPECT_EQ(parsed(raw).tag, "a2");
  EXPECT_EQ(r.next(raw), CommandReader::Status::TooLong);  // LITERAL+: drained
  ASSERT_EQ(r.next(raw), CommandReader::Status::Ok);
  EXPECT_EQ(parsed(raw).tag, "a4");
}

TEST(Parser, MalformedCommandsNameWhy) {
  for (const char* bad : {"", "a1", "a1 LOGIN \"unterminated", "* NOOP", "a1 FETCH 1 (UID", "a1 LOGIN \"\\x\""}) {
    std::string tag, error;
    EXPECT_FALSE(parse_command(RawCommand{{bad}, {}}, tag, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(SequenceSet, RangesStarsAndOrder) {
  using R = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(*parse_sequence_set("1:*", 10), (R{{1, 10}}));
  EXPECT_EQ(*parse_sequence_set("*:4", 10), (R{{4, 10}}));
  EXPECT_EQ(*parse_sequence_set("7,2:3,3:5,9", 10), (R{{2, 5}, {7, 7}, {9, 9}}));
  EXPECT_EQ(*parse_sequence_set("*", 3), (R{{3, 3}}));
  for (const char* bad : {"", "0", "1:0", "a", "1,", ",1", "1::2", "-1", "4294967296"})
    EXPECT_FALSE(parse_sequence_set(bad, 10)) << bad;
}

}  // namespace
}  // namespace imap_select
