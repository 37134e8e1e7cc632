// The response gate's book: every answer against its path's first answer, within a variant
// and across variants; errors where a 2xx was seen; the first differing byte named.
#include "load/response_book.hpp"

#include <gtest/gtest.h>
#include <xxhash.h>

using perfgate::load::BodyDigest;
using perfgate::load::first_differing_byte;
using perfgate::load::ResponseBook;

namespace {

BodyDigest digest(const std::string& body) {
  const XXH128_hash_t h = XXH3_128bits(body.data(), body.size());
  return {h.high64, h.low64};
}

bool say(ResponseBook& book, const std::string& path, std::uint64_t k, int status, const std::string& body) {
  return book.answer(path, k, status, digest(body), body);
}

}  // namespace

TEST(ResponseBook, EqualAnswersPassAndAreCounted) {
  ResponseBook book;
  book.begin("before", 1, "warm-up");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  EXPECT_TRUE(say(book, "/b", 1, 404, "missing"));
  book.begin("before", 1, "window");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  book.begin("after", 1, "window");
  EXPECT_TRUE(say(book, "/a", 5, 200, "alpha"));
  EXPECT_TRUE(say(book, "/b", 6, 404, "missing"));
  EXPECT_FALSE(book.failure());
  EXPECT_EQ(book.answers(), 5u);
  EXPECT_EQ(book.paths(), 2u);
  EXPECT_NE(book.summary().find("5 answers of 2 paths"), std::string::npos) << book.summary();
  EXPECT_NE(book.summary().find("3 compared"), std::string::npos) << book.summary();
}

TEST(ResponseBook, AHitThatDiffersFromItsMissFailsNamingPathVariantRequestAndByte) {
  ResponseBook book;
  book.begin("before", 1, "window");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  book.begin("after", 2, "window");
  EXPECT_TRUE(say(book, "/a", 3, 200, "alpha"));   // the miss: right
  EXPECT_FALSE(say(book, "/a", 9, 200, "alpxa"));  // a hit: wrong
  ASSERT_TRUE(book.failure());
  const std::string& f = *book.failure();
  EXPECT_NE(f.find("GET /a"), std::string::npos) << f;
  EXPECT_NE(f.find("after (round 2, window request #9)"), std::string::npos) << f;
  EXPECT_NE(f.find("its own first answer"), std::string::npos) << f;
  EXPECT_NE(f.find("offset 3: 0x68 vs 0x78"), std::string::npos) << f;
}

TEST(ResponseBook, AnEmptyBodyOnAHitNamesTheEndOfTheBody) {
  ResponseBook book;
  book.begin("after", 1, "warm-up");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  EXPECT_FALSE(say(book, "/a", 1, 200, ""));
  EXPECT_NE(book.failure()->find("offset 0: 0x61 vs (end of body)"), std::string::npos) << *book.failure();
}

TEST(ResponseBook, FirstAnswersMustAgreeAcrossVariants) {
  ResponseBook book;
  book.begin("before", 1, "window");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  book.begin("after", 1, "window");
  EXPECT_FALSE(say(book, "/a", 0, 200, "beta"));
  EXPECT_NE(book.failure()->find("the first answer of any variant: before (round 1"), std::string::npos)
      << *book.failure();
}

TEST(ResponseBook, ANon2xxWhereAnotherAnswerWas2xxFails) {
  ResponseBook book;
  book.begin("before", 1, "window");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  book.begin("after", 1, "window");
  EXPECT_TRUE(say(book, "/a", 1, 200, "alpha"));
  EXPECT_FALSE(say(book, "/a", 2, 500, "alpha"));
  EXPECT_NE(book.failure()->find("status 500"), std::string::npos) << *book.failure();
}

TEST(ResponseBook, ATransportErrorWhereA2xxWasSeenFailsButATimeoutDoesNot) {
  ResponseBook book;
  book.begin("before", 1, "window");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));
  book.timeout();
  EXPECT_FALSE(book.failure());
  book.begin("after", 1, "window");
  EXPECT_FALSE(book.transport_error("/a", 4, "the response could not be read: connection reset by peer"));
  EXPECT_NE(book.failure()->find("got no answer: the response could not be read"), std::string::npos)
      << *book.failure();
  EXPECT_NE(book.summary().find("1 timeouts not compared"), std::string::npos);
}

TEST(ResponseBook, AnErrorFirstThenA2xxFailsToo) {
  ResponseBook book;
  book.begin("after", 1, "window");
  EXPECT_TRUE(book.transport_error("/a", 0, "reset"));
  EXPECT_FALSE(say(book, "/a", 1, 200, "alpha"));
}

TEST(ResponseBook, KeepsNoBodyBeyondItsCapAndStillCatches) {
  ResponseBook book(4);
  book.begin("before", 1, "window");
  EXPECT_TRUE(say(book, "/a", 0, 200, "alpha"));  // 5 bytes > cap: digest only
  EXPECT_FALSE(say(book, "/a", 1, 200, "alphb"));
  EXPECT_NE(book.failure()->find("not kept"), std::string::npos) << *book.failure();
}

TEST(ResponseBook, StopsCheckingAfterTheFirstFailure) {
  ResponseBook book;
  book.begin("before", 1, "window");
  say(book, "/a", 0, 200, "alpha");
  say(book, "/a", 1, 200, "beta");
  const std::string first = *book.failure();
  say(book, "/a", 2, 200, "gamma");
  EXPECT_EQ(*book.failure(), first);
}

TEST(FirstDifferingByte, NamesOffsetAndBytes) {
  EXPECT_EQ(first_differing_byte("abc", "abc"), "bodies equal");
  EXPECT_EQ(first_differing_byte("abc", "abd"), "first differing byte at offset 2: 0x63 vs 0x64");
  EXPECT_EQ(first_differing_byte("ab", "abc"), "first differing byte at offset 2: (end of body) vs 0x63");
}

// A hit that drops a header carrying meaning (Vary, Content-Type) is a different answer, even
// with the same body; the message says which headers differ.
TEST(ResponseBook, MeaningfulHeadersAreComparedToo) {
  ResponseBook book;
  const std::string js = "content-type: application/javascript\nvary: Accept-Encoding\n";
  book.begin("before", 1, "window");
  EXPECT_TRUE(book.answer("/a", 0, 200, digest("alpha"), "alpha", js));
  book.begin("after", 1, "window");
  EXPECT_TRUE(book.answer("/a", 0, 200, digest("alpha"), "alpha", js));
  EXPECT_FALSE(book.answer("/a", 1, 200, digest("alpha"), "alpha", "content-type: application/javascript\n"));
  ASSERT_TRUE(book.failure());
  EXPECT_NE(book.failure()->find("the bodies are equal, the headers differ: 'content-type: application/javascript; "
                                 "vary: Accept-Encoding' vs 'content-type: application/javascript'"),
            std::string::npos)
      << *book.failure();
}
