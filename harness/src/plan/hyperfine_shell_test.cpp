// hyperfine's shell spellings become --shell=SHELL; perfgate's bare --shell before a command stays.
#include "plan/hyperfine_shell.hpp"

#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "plan/shell.hpp"

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

TEST(Shell, ResolvedOnceAndOneArgvForEveryCommand) {
  EXPECT_TRUE(Shell::from_flag("").none());
  EXPECT_TRUE(Shell::from_flag("none").none());
  // hyperfine's "default" is /bin/sh, for ab and bisect alike (bisect once ran `default -c ...`).
  EXPECT_EQ(Shell::from_flag("default").argv(), V{"/bin/sh"});
  EXPECT_EQ(Shell::from_flag("bash --norc").command("a | b"), (V{"bash", "--norc", "-c", "a | b"}));
  EXPECT_EQ(Shell::from_flag("default").command(V{"./prog", "{rev_dir}/in"}),
            (V{"/bin/sh", "-c", "./prog {rev_dir}/in"}));
  const Shell none = Shell::from_flag("");
  EXPECT_EQ(none.command("./build-{layout}/prog 'a b' {rev_dir}"), (V{"./build-{layout}/prog", "a b", "{rev_dir}"}));
  EXPECT_EQ(none.command(V{"./prog", "x y"}), (V{"./prog", "x y"}));
  EXPECT_THROW(none.command("a | b"), UsageError);  // a shell's syntax needs a shell
}

}  // namespace perfgate::plan
