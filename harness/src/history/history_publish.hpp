// `perfgate history publish`: the history as a static site (history/history_site.hpp) — a page per
// series (scenario × profile × gated metric × host class: host classes are never one line), its
// change points found as `history show --host-class` finds them (history/history_series.hpp), the
// band baseline.json accepts for the class, and a page of every change for the worse with the
// `perfgate bisect` command that would narrow it.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "catalog/baseline_choice.hpp"
#include "history/history_series.hpp"

namespace perfgate::history {

struct PublishRequest {
  std::string db;       // empty: default_history_db()
  std::string out_dir;  // the site's folder, replaced whole
  // Whose accepted band each series shows; none: --baseline not given (the default file).
  std::optional<catalog::BaselineChoice> baseline;
  StepSettings steps;
  // The build command of the `perfgate bisect` lines (a scenario's build, in each commit's worktree).
  std::string bisect_build = "cmake -B build && cmake --build build";
};

// Throws UsageError when there is no history or nothing gated in it, or the folder is not one to replace.
void publish_history(std::ostream& out, const PublishRequest& request);

}  // namespace perfgate::history
