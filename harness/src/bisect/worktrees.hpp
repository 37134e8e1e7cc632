// Where `perfgate bisect` keeps what outlives one run: a git worktree per tested commit and its
// build (exit code and log), reused by the next run over the same repository, removed by
// `--clean`. Layout: CACHE/<sha>/tree (the worktree), CACHE/<sha>/build.log, CACHE/<sha>/build.json
// ({"command", "exit_code"}, written once the build finished), CACHE/steps/ (step_store.hpp).
// A commit built in layout k (--layouts, docs/layout.md) has a worktree and build of its own,
// keyed by commit and seed: CACHE/<sha>-layout-<k>/.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "bisect/commit_path.hpp"

namespace perfgate::bisect {

namespace fs = std::filesystem;

struct Built {
  fs::path tree, log;
  int exit_code = 0;
  bool reused = false;  // built by an earlier run with the same command
  bool ok() const { return exit_code == 0; }
};

// $XDG_CACHE_HOME (or ~/.cache)/perfgate/bisect/<repo folder name>-<hash of its path>.
fs::path default_cache(const fs::path& repo);

class Worktrees {
 public:
  Worktrees(fs::path repo, fs::path cache) : repo_(std::move(repo)), cache_(std::move(cache)) {}
  const fs::path& cache() const { return cache_; }
  // The commit's worktree (layout 0: the plain build; k >= 1: layout k's), checked out
  // (detached) if it is not there yet.
  fs::path checkout(const Commit& c, int layout = 0) const;
  // Where that worktree is; `layout` may be the text "{layout}", for a command over layouts.
  fs::path tree(const Commit& c, const std::string& layout) const;
  // Checks out and runs `sh -c BUILD` in the worktree (for layout k, as layouts/layout_build.hpp
  // runs it), unless an earlier run finished the same command there. Throws Interrupted on
  // SIGINT/SIGTERM (the build is killed, nothing recorded).
  Built build(const Commit& c, const std::string& build_command, int layout = 0) const;
  // Removes every worktree of the cache and the cache itself.
  void clean() const;
  // How many commits' worktrees the cache holds (registered in the repository's `git worktree list`).
  int kept() const;

 private:
  fs::path repo_, cache_;
};

// Keeps `folder` (bisect's out folder, perfgate-out/ by default) out of `git status` when it lies
// in the repository's working tree and nothing ignores it yet: one line in the repository's own
// .git/info/exclude, never in a tracked file. Returns the exclude file it wrote, or nothing.
std::optional<fs::path> exclude_from_status(const fs::path& repo, const fs::path& folder);

}  // namespace perfgate::bisect
