// hyperfine's shell spellings become --shell=SHELL; perfgate's bare --shell before a command stays.
#include "plan/hyperfine_shell.hpp"

#include <gtest/gtest.h>

#include "common/errors.hpp"

namespace perfgate::plan {

using V = std::vector<std::string>;

TEST(HyperfineShell, EverySpellingBecomesOne) {
  for (const V& given : {V{"perfgate", "ab", "-S", "bash", "a", "b"}, V{"perfgate", "ab", "-Sbash", "a", "b"},
                         V{"perfgate", "ab", "-S=bash", "a", "b"}, V{"perfgate", "ab", "--shell", "bash", "a", "b"},
                         V{"perfgate", "ab", "--shell=bash", "a", "b"}})
    EXPECT_EQ(with_hyperfine_shell(given), (V{"perfgate", "ab", "--shell=bash", "a", "b"}));
  EXPECT_EQ(with_hyperfine_shell({"perfgate", "ab", "--shell", "/usr/bin/bash --norc", "a", "b"}),
            (V{"perfgate", "ab", "--shell=/usr/bin/bash --norc", "a", "b"}));
  EXPECT_EQ(with_hyperfine_shell({"perfgate", "ab", "--shell", "none", "a", "b"}),
            (V{"perfgate", "ab", "--shell=none", "a", "b"}));
}

TEST(HyperfineShell, ABareShellBeforeACommandStays) {
  const V given = {"perfgate", "ab", "--shell", "exit 1", "exit 1"};
  EXPECT_EQ(with_hyperfine_shell(given), given);
  const V sides = {"perfgate", "ab", "--shell", "--before", "a | b", "--after", "c"};
  EXPECT_EQ(with_hyperfine_shell(sides), sides);
}

TEST(HyperfineShell, OnlyAbAndBisectBeforeTheirCommand) {
  const V run = {"perfgate", "run", "-S", "bash"};
  EXPECT_EQ(with_hyperfine_shell(run), run);
  EXPECT_EQ(with_hyperfine_shell({"perfgate", "bisect", "-N", "--", "prog", "-S", "bash"}),
            (V{"perfgate", "bisect", "--shell=none", "--", "prog", "-S", "bash"}));
  EXPECT_THROW(with_hyperfine_shell({"perfgate", "ab", "a", "b", "-S"}), UsageError);
}

}  // namespace perfgate::plan
