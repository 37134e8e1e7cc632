// A program built with its manifest's lies compiled in (perfgate_manifest_lies(), as every
// bundled scenario is): it accepts those and no others, with no list of its own; a list of its
// own that differs from the manifest's is refused.
#include <gtest/gtest.h>

#include <sstream>

#include "perfgate/scenario_main.hpp"

// What perfgate_manifest_lies() generates for a manifest declaring two lies.
extern "C" const char* const perfgate_manifest_lies = "stop-early,drop-row";

namespace {

int call(const perfgate::ScenarioProgram& p, std::vector<std::string> args, std::string& err) {
  std::vector<char*> argv;
  std::string program = "prog";
  argv.push_back(program.data());
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, errors;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(errors.rdbuf());
  const int code = perfgate::scenario_main(static_cast<int>(argv.size()), argv.data(), p);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  err = errors.str();
  return code;
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
