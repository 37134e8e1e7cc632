// A program built with its manifest's lies compiled in (perfgate_manifest_lies(), as every
// bundled scenario is): it accepts those and no others, with no list of its own; a list of its
// own that differs from the manifest's is refused.
#include <gtest/gtest.h>

#include "call_main.hpp"
#include "perfgate/scenario_main.hpp"

// What perfgate_manifest_lies() generates for a manifest declaring two lies.
extern "C" const char* const perfgate_manifest_lies = "stop-early,drop-row";

namespace {

// The exit code; what the program said on stderr into `err`.
int call(const perfgate::ScenarioProgram& p, std::vector<std::string> args, std::string& err) {
  const auto o = sdk_test::call(p, std::move(args));
  err = o.err;
  return o.code;
}

perfgate::ScenarioProgram program() {
  return perfgate::ScenarioProgram("prog").variants({"before", "after"}).run([](const perfgate::Invocation& inv) {
    perfgate::Report r;
    r.digest(inv.lying("stop-early") ? "short" : "whole");
    return r;
  });
}

}  // namespace

TEST(ManifestLies, TheManifestsLiesAreAcceptedAndNoOthers) {
  std::string err;
  EXPECT_EQ(program().lie_names, (std::vector<std::string>{"stop-early", "drop-row"}));
  EXPECT_EQ(call(program(), {"run", "--variant", "after", "--lie", "drop-row"}, err), 0) << err;
  EXPECT_EQ(call(program(), {"run", "--variant", "after", "--lie", "skip-fsync"}, err), 2);
  EXPECT_NE(err.find("unknown lie 'skip-fsync': prog declares stop-early or drop-row"), std::string::npos) << err;
}

TEST(ManifestLies, AListOfItsOwnMustAgreeWithTheManifest) {
  std::string err;
  EXPECT_EQ(call(program().lies({"drop-row", "stop-early"}), {"run", "--variant", "after"}, err), 0) << err;
  EXPECT_EQ(call(program().lies({"stop-early"}), {"run", "--variant", "after"}, err), 2);
  EXPECT_NE(err.find("ScenarioProgram.lies(stop-early) differs from scenario.json's stop-early or drop-row"),
            std::string::npos)
      << err;
}
