// The commits `perfgate bisect` walks: the first-parent path from GOOD to BAD, as `git bisect
// --first-parent` walks it, so a merge counts as one commit of the branch it landed on.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgate::bisect {

struct Commit {
  std::string sha, subject;
  std::string short_sha() const { return sha.substr(0, 12); }
};

// GOOD first, BAD last. Throws UsageError (exit 2) when REPO is not a git work tree, a revision
// does not name a commit, GOOD is not on BAD's first-parent path, or GOOD is BAD.
std::vector<Commit> first_parent_path(const std::filesystem::path& repo, const std::string& good,
                                      const std::string& bad);

}  // namespace perfgate::bisect
