// __NAME__: BEFORE and AFTER give the same answer to every query, at several sizes and edge
// cases; the answers carry what they should; and each of AFTER's lies gives other answers, so
// the digest (and `perfgate lies`) can tell. Keep these when you replace the example work.
#include "work.hpp"

#include <gtest/gtest.h>

namespace {

using namespace __NAME__;

std::vector<std::string> before_answers(const Input& in) { return answer_all(Before(in.records), in.queries); }
std::vector<std::string> after_answers(const Input& in, Lies lies = {}) {
  return answer_all(After(in.records, lies), in.queries);
}

TEST(Work, BeforeAndAfterAnswerEveryQueryAlike) {
  for (const Params p : {Params{}, Params{0, 1, 10}, Params{1, 1, 3}, Params{500, 7, 300}, Params{3000, 2000, 999}}) {
    const auto in = make_input(p);
    const auto before = before_answers(in);
    ASSERT_EQ(before.size(), in.queries.size());
    EXPECT_EQ(before, after_answers(in)) << p.records << " records, " << p.keys << " keys";
  }
}

TEST(Work, TheInputIsTheSameEveryTime) {
  const auto a = make_input({}), b = make_input({});
  EXPECT_EQ(a.queries, b.queries);
  EXPECT_EQ(before_answers(a), before_answers(b));
}

TEST(Work, AnswersHoldEveryRecordOfTheKeyAndMissingKeysToo) {
  const auto in = make_input({});
  std::size_t rows = 0, empty = 0;
  for (const auto key : in.queries) {
    std::vector<const Record*> matches;
    for (const auto& r : in.records)
      if (r.key == key) matches.push_back(&r);
    EXPECT_EQ(Before(in.records).answer(key), format_answer(key, matches));
    rows += matches.size();
    empty += matches.empty();
  }
  EXPECT_GT(rows, in.queries.size());  // keys with several records
  EXPECT_GT(empty, 0u);                // and keys with none: both paths are exercised
}

TEST(Work, EachLieGivesOtherAnswers) {
  const auto in = make_input({});
  const auto truth = before_answers(in);
  EXPECT_NE(truth, after_answers(in, {.first_match_only = true}));
  EXPECT_NE(truth, after_answers(in, {.skip_empty = true}));
  EXPECT_NE(truth, after_answers(in, {.no_size = true}));
}

}  // namespace
