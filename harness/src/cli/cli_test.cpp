// Every flag more than one command takes is declared once, in cli/flag_groups.cpp: each of its
// declarations is in the shared group with the same help. The list below is those flags; a new
// one joins it by being declared in a group, never by hand in two commands.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"

namespace perfgate::cli {
namespace {

struct Seen {
  std::string command, group, help;
};

void collect(const CLI::App* app, const std::string& path, std::map<std::string, std::vector<Seen>>& out) {
  for (const CLI::Option* o : app->get_options()) {
    for (const auto& name : o->get_lnames()) out["--" + name].push_back({path, o->get_group(), o->get_description()});
  }
  for (const CLI::App* sub : app->get_subcommands({})) collect(sub, path + " " + sub->get_name(), out);
}

std::map<std::string, std::vector<Seen>> every_flag() {
  static CLI::App app{"perfgate"};
  static bool built = false;
  if (!built) {
    const std::vector<std::string> argv = {"perfgate"};
    add_list_command(app);
    add_run_command(app, argv);
    add_ab_command(app, argv);
    add_gbench_command(app, argv);
    add_report_command(app);
    add_baseline_command(app);
    add_compare_command(app);
    add_merge_command(app, argv);
    add_batch_command(app, argv);
    add_history_command(app);
    add_lies_command(app, argv);
    add_calibrate_command(app, argv);
    add_parity_command(app, argv);
    add_new_command(app);
    add_bisect_command(app, argv);
    built = true;
  }
  std::map<std::string, std::vector<Seen>> out;
  for (const CLI::App* sub : app.get_subcommands({})) collect(sub, sub->get_name(), out);
  return out;
}

TEST(SharedFlags, EveryFlagOfSeveralCommandsIsDeclaredOnceInAGroup) {
  std::set<std::string> shared;
  for (const auto& [name, seen] : every_flag()) {
    std::set<std::string> commands;
    for (const auto& s : seen) commands.insert(s.command);
    if (commands.size() < 2 || name == "--help") continue;
    shared.insert(name);
    for (const auto& s : seen) {
      // Hidden ones (--debug-samples) have no group: their one help text still says they are one.
      EXPECT_TRUE(s.group == flags::kShared || s.group.empty())
          << name << " of `perfgate " << s.command << "` is declared by hand: declare it in cli/flag_groups.cpp";
      EXPECT_EQ(s.help, seen.front().help) << name << " means something else in `perfgate " << s.command
                                           << "` than in `perfgate " << seen.front().command << "`";
    }
  }
  const std::set<std::string> expected = {"--after",
                                          "--alpha",
                                          "--baseline",
                                          "--baseline-tolerance",
                                          "--before",
                                          "--build",
                                          "--cache",
                                          "--cannot-tell",
                                          "--catalog",
                                          "--cpus",
                                          "--db",
                                          "--debug-samples",
                                          "--decide-all",
                                          "--dry-run",
                                          "--export-gbench",
                                          "--json",
                                          "--junit",
                                          "--layout-rounds",
                                          "--layouts",
                                          "--lock",
                                          "--lock-timeout",
                                          "--max-rounds",
                                          "--max-time",
                                          "--measure",
                                          "--metric",
                                          "--min-rounds",
                                          "--min-segment",
                                          "--min-step",
                                          "--penalty",
                                          "--name",
                                          "--noise",
                                          "--out",
                                          "--policy",
                                          "--profile",
                                          "--quiet",
                                          "--repo",
                                          "--rounds",
                                          "--scenario",
                                          "--seed",
                                          "--shell",
                                          "--timeout",
                                          "--warmup",
                                          "--workdir"};
  EXPECT_EQ(shared, expected);
}

TEST(SharedFlags, AGroupsChecksAreTheSameEverywhere) {
  // --noise is a percentage everywhere: 150 is refused by every command that takes it.
  for (const char* command : {"run", "ab", "gbench", "bisect", "calibrate", "compare", "batch"}) {
    CLI::App app{"perfgate"};
    const std::vector<std::string> argv = {"perfgate"};
    add_run_command(app, argv);
    add_ab_command(app, argv);
    add_gbench_command(app, argv);
    add_bisect_command(app, argv);
    add_calibrate_command(app, argv);
    add_compare_command(app);
    add_batch_command(app, argv);
    std::vector<std::string> args = {"perfgate", command, "--noise", "150"};
    std::vector<const char*> c;
    for (const auto& a : args) c.push_back(a.c_str());
    EXPECT_THROW(app.parse(static_cast<int>(c.size()), c.data()), CLI::ValidationError) << command;
  }
}

}  // namespace
}  // namespace perfgate::cli
