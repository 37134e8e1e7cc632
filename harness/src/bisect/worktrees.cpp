#include "bisect/worktrees.hpp"

#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/git_probe.hpp"
#include "common/interrupt.hpp"
#include "layouts/layout_build.hpp"
#include "process/logged_run.hpp"

namespace perfgate::bisect {

fs::path default_cache(const fs::path& repo) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path base = xdg && *xdg ? fs::path(xdg) : fs::path(home && *home ? home : "/tmp") / ".cache";
  const fs::path abs = fs::weakly_canonical(repo);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(abs.string()));
  return base / "perfgate" / "bisect" / (abs.filename().string() + "-" + std::string(hash).substr(0, 8));
}

namespace {

std::string key(const Commit& c, const std::string& layout) {
  return layout == "0" || layout.empty() ? c.sha : c.sha + "-layout-" + layout;
}

}  // namespace

fs::path Worktrees::tree(const Commit& c, const std::string& layout) const { return cache_ / key(c, layout) / "tree"; }

fs::path Worktrees::checkout(const Commit& c, int layout) const {
  const fs::path tree = this->tree(c, std::to_string(layout));
  if (fs::exists(tree)) {
    auto head = git_stdout(tree, {"rev-parse", "HEAD"});
    if (head && head->substr(0, c.sha.size()) == c.sha) return tree;
    // Left half-made by an interrupted run: made again.
    git_stdout(repo_, {"worktree", "remove", "--force", tree.string()});
    fs::remove_all(tree);
  }
  fs::create_directories(tree.parent_path());
  if (!git_stdout(repo_, {"worktree", "add", "--detach", "--force", tree.string(), c.sha}))
    throw RunError("git worktree add " + tree.string() + " " + c.short_sha() + " failed in " + repo_.string());
  return tree;
}

Built Worktrees::build(const Commit& c, const std::string& build_command, int layout) const {
  Built b;
  b.tree = checkout(c, layout);
  const fs::path dir = cache_ / key(c, std::to_string(layout));
  b.log = dir / "build.log";
  const fs::path record = dir / "build.json";
  if (auto text = try_read_file(record)) {
    const auto j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_object() && j.value("command", "") == build_command && j.contains("exit_code")) {
      b.exit_code = j["exit_code"].get<int>();
      b.reused = true;
      return b;
    }
  }
  fs::remove(b.log);
  const auto argv = layout > 0 ? layouts::layout_build_argv(build_command, layout)
                               : std::vector<std::string>{"/bin/sh", "-c", build_command};
  const auto run = process::run_logged(argv, b.tree, b.log, [] { return interrupted(); });
  if (run.interrupted) check_interrupted();
  b.exit_code = run.exit_code;
  write_file_atomic(record, nlohmann::json{{"command", build_command}, {"exit_code", b.exit_code}}.dump() + "\n");
  return b;
}

void Worktrees::clean() const {
  if (fs::exists(cache_))
    for (const auto& e : fs::directory_iterator(cache_))
      if (fs::exists(e.path() / "tree"))
        git_stdout(repo_, {"worktree", "remove", "--force", (e.path() / "tree").string()});
  fs::remove_all(cache_);
  git_stdout(repo_, {"worktree", "prune"});
}

int Worktrees::kept() const {
  int n = 0;
  std::error_code ec;
  if (fs::is_directory(cache_, ec))
    for (const auto& e : fs::directory_iterator(cache_, ec)) n += fs::exists(e.path() / "tree") ? 1 : 0;
  return n;
}

std::optional<fs::path> exclude_from_status(const fs::path& repo, const fs::path& folder) {
  auto line = [](std::optional<std::string> s) {
    while (s && !s->empty() && (s->back() == '\n' || s->back() == '\r')) s->pop_back();
    return s;
  };
  const auto top = line(git_stdout(repo, {"rev-parse", "--show-toplevel"}));
  if (!top || top->empty()) return std::nullopt;
  const fs::path rel = fs::weakly_canonical(fs::absolute(folder)).lexically_relative(fs::weakly_canonical(*top));
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;  // not in the working tree
  // check-ignore answers (exit 0) only for a path something ignores already.
  if (git_stdout(*top, {"check-ignore", "-q", "--no-index", rel.string() + "/"})) return std::nullopt;
  const auto exclude = line(git_stdout(*top, {"rev-parse", "--git-path", "info/exclude"}));
  if (!exclude || exclude->empty()) return std::nullopt;
  const fs::path file = fs::path(*exclude).is_absolute() ? fs::path(*exclude) : fs::path(*top) / *exclude;
  fs::create_directories(file.parent_path());
  append_file(file, "# perfgate bisect's output folder\n/" + rel.generic_string() + "/\n");
  return file;
}

}  // namespace perfgate::bisect
