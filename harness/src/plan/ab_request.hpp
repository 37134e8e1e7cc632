// `perfgate ab`'s own request beside hyperfine's commands (hyperfine_pairs.hpp): the pair's
// commands and name, the shell they run through, and with --rev-before or --layouts where the
// builds come from. Checked and resolved into the family's pairs once, before anything runs.
#pragma once

#include <string>
#include <vector>

#include "plan/build_source.hpp"
#include "plan/hyperfine_pairs.hpp"
#include "plan/shell.hpp"

namespace perfgate::plan {

struct AbRequest {
  std::string before, after, name = "ab", metric = "auto";
  std::string shell;      // --shell's word (plan/shell.hpp): empty or "none", no shell
  bool no_shell = false;  // -N
  int layout_rounds = 3;  // with --layouts K: paired rounds of each layout
  // --rev-before/--rev-after: two revisions of --repo, each built with --build in its worktree.
  std::string rev_before, rev_after;
  BuildSource source;

  bool revisions() const { return !rev_before.empty(); }
  // --rev-after, "." (the work tree with its uncommitted changes) when not given.
  std::string after_revision() const { return rev_after.empty() ? "." : rev_after; }
};

// The pairs `request` and `commands` ask for, each command through `shell` (request.shell,
// resolved once by the caller): one with --rev-before (one command given alone runs in both
// revisions) or --layouts, the family otherwise. Throws UsageError.
std::vector<AbPair> resolve_ab(const AbRequest& request, const Shell& shell, HyperfineCommands commands);

}  // namespace perfgate::plan
