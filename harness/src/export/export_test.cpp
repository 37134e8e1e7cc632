#include <gtest/gtest.h>

#include "export/github_actions.hpp"
#include "export/junit_file.hpp"

using namespace perfgate;

TEST(JUnit, EscapesAndDropsControlCharacters) {
  EXPECT_EQ(exports::xml_escape("a<b & \"c\"\x01\n"), "a&lt;b &amp; &quot;c&quot;&#10;");
}

TEST(GitHub, EscapesWorkflowCommands) {
  EXPECT_EQ(exports::github_escape("50% done\nnext"), "50%25 done%0Anext");
  EXPECT_EQ(exports::github_escape("a: b, c", true), "a%3A b%2C c");
}
