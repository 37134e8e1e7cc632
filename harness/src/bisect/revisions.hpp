// Two revisions of the user's repository, each checked out and built in bisect's worktrees (the
// same cache, the same keys: a commit, or a commit and a layout seed), for `perfgate ab
// --rev-before REV --rev-after REV --build CMD`: what a developer comparing a branch with main
// types. The revision "." is the work tree as it stands: its uncommitted changes to tracked files
// are taken as a commit (`git stash create`, which touches neither the work tree nor the stash
// list; HEAD itself when nothing changed). Untracked files are not in it.
#pragma once

#include <filesystem>
#include <string>

#include "bisect/commit_path.hpp"
#include "bisect/worktrees.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::bisect {

// The commit REV names in `repo`; "." the work tree as above. Throws UsageError naming the
// revision when it names no commit or `repo` is not a git work tree.
Commit resolve_revision(const std::filesystem::path& repo, const std::string& rev);

struct RevisionBuild {
  Commit commit;
  Built build;  // the plain build, or layout 1's with `layouts` (every layout built)
};

// Builds `c` once, or in layouts 1..`layouts` (each its own worktree). Throws RunError naming the
// revision and its build log when a build fails; Interrupted on Ctrl-C.
RevisionBuild build_revision(const Worktrees& trees, const Commit& c, const std::string& rev,
                             const std::string& build_command, int layouts, const suite::RunSink& status);

// One revision built (in K layouts with `layouts`): where its command runs, "{layout}" in the
// path when there are layouts; `commit` is set to what REV named.
std::string build_revision_tree(const std::filesystem::path& repo, const std::filesystem::path& cache,
                                const std::string& rev, const std::string& build_command, int layouts,
                                const suite::RunSink& status, Commit* commit = nullptr);

// `ab --rev-before A --rev-after B --build CMD`: both revisions built (in K layouts with `layouts`),
// and where each side's command runs: its worktree, with "{layout}" in the path when there are
// layouts (the commands' {rev_dir} is that path).
struct RevisionTrees {
  std::string before, after;
  Commit before_commit, after_commit;
};
RevisionTrees build_revision_pair(const std::filesystem::path& repo, const std::filesystem::path& cache,
                                  const std::string& before_rev, const std::string& after_rev,
                                  const std::string& build_command, int layouts, const suite::RunSink& status);

}  // namespace perfgate::bisect
