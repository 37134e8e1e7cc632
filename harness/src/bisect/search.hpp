// The search of `perfgate bisect`: over the first-parent path good = 0 … bad = n, which commit
// first made the measured work slower than good's. Pure logic over a step callback, so it is
// tested without a repository or a timer (bisect_test.cpp).
//
// Each timed step compares one commit with good and says slower, not slower, or cannot tell
// (step_verdict.hpp); a commit that does not build, or whose step cannot decide, is skipped as
// `git bisect skip` skips. A commit whose output differs from good's is not timed on: the search
// finds the first commit whose output differs (a search of its own, on outputs only) and
// attributes no slowdown at or after it. The answer is the smallest range the steps defend: one
// commit, or the skipped commits that sit between the last not-slower and the first slower one.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/enum_names.hpp"

namespace perfgate::bisect {

enum class Verdict { Slower, NotSlower, CannotTell, BuildFailed, OutputDiffers };

constexpr auto names(Verdict) {
  return in_declaration_order<Verdict>({"slower", "not slower", "cannot tell", "build failed", "output differs"});
}

struct StepResult {
  Verdict verdict = Verdict::CannotTell;
  double ratio = 0, lo = 0, hi = 0;  // AFTER/BEFORE of the gated metric and its interval (0: none)
  int rounds = 0;
  double alpha = 0;  // the level this step was decided at
  std::string note;  // why it could not decide, what failed
};

struct Step {
  int index = 0;  // on the path: 0 good … n bad
  StepResult result;
};

enum class Answer {
  FirstSlower,     // `first` is the first slower commit (index into the path)
  Range,           // the first slower commit is one of `candidates`
  BadNotSlower,    // bad is not slower than good: nothing to search
  BadUndecided,    // cannot tell whether bad is slower than good
  NoSlowerBefore,  // the output changed at `changed_at`, and no commit before it is slower
};

constexpr auto names(Answer) {
  return in_declaration_order<Answer>(
      {"first slower", "range", "bad not slower", "cannot tell", "no slower commit before the behaviour change"});
}

struct Outcome {
  Answer answer = Answer::BadUndecided;
  int first = -1;
  std::vector<int> candidates;
  std::optional<int> changed_at;  // the first commit whose output differs from good's
  std::vector<Step> steps;        // timed steps, in the order they ran
};

struct Callbacks {
  // Compares commit `index` with good, deciding at `alpha`.
  std::function<StepResult(int index, double alpha)> time;
  // Whether commit `index`'s output differs from good's; none: it does not build.
  std::function<std::optional<bool>(int index)> output_differs;
  // Whether commit `index` builds (asked before it is timed, so a build failure spends no share
  // of alpha); null: every commit is timed and may answer BuildFailed itself.
  std::function<bool(int index)> builds;
};

// The level of the i-th timed step (1-based): alpha · 6 / (π² i²), which sums to alpha over any
// number of steps, so the whole search attributes a slowdown falsely with probability <= alpha.
double step_alpha(double alpha, int i);

Outcome search(int n, double alpha, const Callbacks& callbacks);

}  // namespace perfgate::bisect
