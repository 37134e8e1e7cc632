#include <memory>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "common/exit_meanings.hpp"

namespace perfgate::cli {
namespace {
int g_exit_code = 0;
}

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

std::string unexpected_arguments(const CLI::App& app) {
  const CLI::App* cmd = &app;
  for (const auto* sub : app.get_subcommands()) cmd = sub;
  const std::string name = cmd == &app ? "perfgate" : "perfgate " + cmd->get_name();
  std::vector<std::string> left = cmd->remaining();
  if (cmd != &app)
    for (const auto& a : app.remaining()) left.push_back(a);
  std::string unknown, words;
  for (const auto& a : left) {
    if (unknown.empty() && a.size() > 1 && a[0] == '-') unknown = a;
    words += (words.empty() ? "" : " ") + a;
  }
  if (!unknown.empty())
    return name + ": unknown option " + unknown + " (in: " + words + "); `" + name +
           " --help` lists the options (hyperfine's: docs/hyperfine.md)";
  return name + ": unexpected argument" + (left.size() > 1 ? "s " : " ") + words + "; see `" + name + " --help`";
}

std::string mismatch_message(const std::string& m) {
  // "--after: At Most 1 required but received 2"
  const std::string said = ": At Most 1 required but received ";
  const auto at = m.find(said);
  if (at == std::string::npos) return m;
  const std::string option = m.substr(0, at), times = m.substr(at + said.size());
  std::string hint;
  if (option == "--before" || option == "--after")
    hint = " (to compare several commands: perfgate ab CMD1 CMD2 CMD3, each against the first or --reference CMD)";
  return option + " is given " + times + " times; it takes one" + hint;
}

void add_run_flags(CLI::App* cmd, plan::RunOptions& o) {
  flags::rounds(cmd, o);
  flags::timeout(cmd, o.timeout_s);
  flags::policy(cmd, o.policy);
  flags::noise(cmd, o.noise);
  flags::alpha(cmd, o.alpha);
  flags::seed(cmd, o.seed);
  flags::cpus(cmd, o.cpus);
  flags::run_outputs(cmd, o);
  flags::baseline(cmd, o);
}

void list_exit_codes(CLI::App& app) {
  for (auto* cmd : app.get_subcommands({})) {
    const std::string text = exit_codes_text(cmd->get_name());
    cmd->footer(text);
    for (auto* sub : cmd->get_subcommands({})) sub->footer(text);  // baseline check, history add, …
  }
}

}  // namespace perfgate::cli
