#include "bisect/commit_path.hpp"

#include <sstream>

#include "common/errors.hpp"
#include "common/git_probe.hpp"

namespace perfgate::bisect {
namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string resolve(const std::filesystem::path& repo, const std::string& rev, const char* flag) {
  auto sha = git_stdout(repo, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
  if (!sha || trimmed(*sha).empty())
    throw UsageError(std::string(flag) + " " + rev + ": not a commit of " +
                     std::filesystem::weakly_canonical(std::filesystem::absolute(repo)).string());
  return trimmed(*sha);
}

// git bisect users give the older commit as good; one who swapped them gets a path that runs
// backwards. `git merge-base --is-ancestor` exits 0 when its first commit is the second's ancestor.
std::string swapped_hint(const std::filesystem::path& repo, const std::string& good, const std::string& bad,
                         const std::string& g, const std::string& b) {
  if (!git_stdout(repo, {"merge-base", "--is-ancestor", b, g})) return "";
  return "; good and bad look swapped: --bad " + bad + " is an ancestor of --good " + good + " (try --good " + bad +
         " --bad " + good + ")";
}

}  // namespace

std::vector<Commit> first_parent_path(const std::filesystem::path& repo, const std::string& good,
                                      const std::string& bad) {
  if (!git_stdout(repo, {"rev-parse", "--git-dir"}))
    throw UsageError("--repo " + std::filesystem::weakly_canonical(std::filesystem::absolute(repo)).string() +
                     ": not a git work tree");
  const std::string g = resolve(repo, good, "--good"), b = resolve(repo, bad, "--bad");
  if (g == b) throw UsageError("--good and --bad name the same commit " + g.substr(0, 12));
  auto log = git_stdout(repo, {"log", "--first-parent", "--reverse", "--format=%H%x09%P%x09%s", g + ".." + b});
  if (!log) throw UsageError("git log " + good + ".." + bad + " failed in " + repo.string());
  std::vector<Commit> path;
  auto subject_of = git_stdout(repo, {"log", "-1", "--format=%s", g});
  path.push_back({g, subject_of ? trimmed(*subject_of) : ""});
  std::istringstream in(*log);
  std::string line;
  while (std::getline(in, line)) {
    const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) continue;
    const std::string sha = line.substr(0, t1), parents = line.substr(t1 + 1, t2 - t1 - 1);
    // Each commit's first parent must be the one before it, down to GOOD itself.
    if (parents.substr(0, parents.find(' ')) != path.back().sha)
      throw UsageError("--good " + good + " is not on the first-parent path of --bad " + bad +
                       " (git log --first-parent " + bad + " does not reach it)" + swapped_hint(repo, good, bad, g, b));
    path.push_back({sha, line.substr(t2 + 1)});
  }
  if (path.size() < 2 || path.back().sha != b)
    throw UsageError("--good " + good + " is not an ancestor of --bad " + bad + " on its first-parent path" +
                     swapped_hint(repo, good, bad, g, b));
  return path;
}

}  // namespace perfgate::bisect
