#include "bisect/revisions.hpp"

#include "common/errors.hpp"
#include "common/git_probe.hpp"

namespace perfgate::bisect {

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

Commit resolve_revision(const std::filesystem::path& repo, const std::string& rev) {
  if (!git_stdout(repo, {"rev-parse", "--is-inside-work-tree"}))
    throw UsageError(repo.string() + " is not a git work tree (--repo)");
  std::string sha;
  if (rev == ".") {
    // A commit of the work tree's changes; empty output when there are none.
    const auto stash = git_stdout(repo, {"stash", "create", "perfgate ab: the work tree"});
    sha = stash ? trimmed(*stash) : "";
    if (sha.empty()) sha = trimmed(git_stdout(repo, {"rev-parse", "HEAD"}).value_or(""));
    if (sha.empty()) throw UsageError("--rev .: the repository " + repo.string() + " has no commit yet");
  } else {
    const auto found = git_stdout(repo, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
    if (!found || trimmed(*found).empty()) throw UsageError("revision " + rev + " names no commit in " + repo.string());
    sha = trimmed(*found);
  }
  Commit c;
  c.sha = sha;
  c.subject = rev == "." ? "the work tree" : trimmed(git_stdout(repo, {"log", "-1", "--format=%s", sha}).value_or(""));
  return c;
}

RevisionBuild build_revision(const Worktrees& trees, const Commit& c, const std::string& rev,
                             const std::string& build_command, int layouts, const suite::RunSink& status) {
  RevisionBuild out{c, {}};
  for (int k = layouts > 0 ? 1 : 0; k <= layouts; ++k) {
    status.update("building " + rev + " (" + c.short_sha() + ")" +
                  (layouts > 0 ? ", layout " + std::to_string(k) + "/" + std::to_string(layouts) : ""));
    Built b = trees.build(c, build_command, k);
    if (!b.ok())
      throw RunError("revision " + rev + " (" + c.short_sha() + ") does not build: `" + build_command + "` exited " +
                     std::to_string(b.exit_code) + (layouts > 0 ? " in layout " + std::to_string(k) : "") +
                     " (log: " + b.log.string() + ")");
    if (k <= 1) out.build = b;
  }
  return out;
}

std::string build_revision_tree(const std::filesystem::path& repo, const std::filesystem::path& cache,
                                const std::string& rev, const std::string& build_command, int layouts,
                                const suite::RunSink& status, Commit* commit) {
  const Worktrees trees(repo, cache.empty() ? default_cache(repo) : cache);
  const Commit c = resolve_revision(repo, rev);
  build_revision(trees, c, rev, build_command, layouts, status);
  if (commit) *commit = c;
  return trees.tree(c, layouts > 0 ? "{layout}" : "0").string();
}

RevisionTrees build_revision_pair(const std::filesystem::path& repo, const std::filesystem::path& cache,
                                  const std::string& before_rev, const std::string& after_rev,
                                  const std::string& build_command, int layouts, const suite::RunSink& status) {
  RevisionTrees out;
  out.before = build_revision_tree(repo, cache, before_rev, build_command, layouts, status, &out.before_commit);
  out.after = build_revision_tree(repo, cache, after_rev, build_command, layouts, status, &out.after_commit);
  status.done();
  return out;
}

}  // namespace perfgate::bisect
