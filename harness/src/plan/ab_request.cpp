#include "plan/ab_request.hpp"

#include "common/errors.hpp"

namespace perfgate::plan {

std::vector<AbPair> resolve_ab(const AbRequest& r, const Shell& shell, HyperfineCommands commands) {
  if (r.no_shell && !shell.none()) throw UsageError("-N and --shell: choose one");
  std::string before = r.before, after = r.after;
  if (r.revisions()) {
    if (r.source.build.empty()) throw UsageError("--rev-before needs --build CMD (e.g. --build make)");
    if (before.empty() && after.empty() && commands.commands.size() == 1) {
      before = after = commands.commands.front();  // one command, run in both revisions
      commands.commands.clear();
    }
  } else if (!r.rev_after.empty() || !r.source.build.empty()) {
    throw UsageError("--rev-after and --build compare two revisions: give --rev-before REV too");
  }
  auto pairs = hyperfine_pairs(commands, before, after, r.name, [&](const std::string& c) { return shell.command(c); });
  if (r.revisions() && pairs.size() != 1)
    throw UsageError("--rev-before compares one command in two revisions, not several");
  if (r.source.layouts > 0 && pairs.size() != 1)
    throw UsageError("--layouts compares one pair: give --before and --after (or two commands), not " +
                     std::to_string(pairs.size()) + " pairs");
  return pairs;
}

}  // namespace perfgate::plan
