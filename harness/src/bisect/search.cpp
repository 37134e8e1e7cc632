#include "bisect/search.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace perfgate::bisect {

double step_alpha(double alpha, int i) { return alpha * 6 / (M_PI * M_PI * i * i); }

namespace {

// The untested index of (lo, hi), not in `skip`, nearest the middle (the lower on a tie).
std::optional<int> middle(int lo, int hi, const std::set<int>& skip) {
  std::optional<int> best;
  for (int i = lo + 1; i < hi; ++i) {
    if (skip.count(i)) continue;
    if (!best || std::abs(2 * i - (lo + hi)) < std::abs(2 * *best - (lo + hi))) best = i;
  }
  return best;
}

class Search {
 public:
  Search(double alpha, const Callbacks& cb) : alpha_(alpha), cb_(cb) {}

  Outcome run(int n) {
    std::optional<int> hi = establish_bad(0, n);
    if (!hi) return std::move(out_);
    int lo = 0;
    std::set<int> skipped;
    while (auto mid = middle(lo, *hi, skipped)) {
      const StepResult r = time(*mid);
      switch (r.verdict) {
        case Verdict::Slower:
          hi = *mid;
          break;
        case Verdict::NotSlower:
          lo = *mid;
          break;
        case Verdict::CannotTell:
        case Verdict::BuildFailed:
          skipped.insert(*mid);
          break;
        case Verdict::OutputDiffers: {
          // No slowdown is attributed at or after the change: search before it.
          const int boundary = first_changed(lo, *mid);
          if (boundary - 1 <= lo) {
            out_.answer = Answer::NoSlowerBefore;
            return std::move(out_);
          }
          hi = establish_bad(lo, boundary - 1);
          if (!hi) return std::move(out_);
          break;
        }
      }
    }
    for (int i : skipped)
      if (i > lo && i < *hi) out_.candidates.push_back(i);
    out_.candidates.push_back(*hi);
    out_.answer = out_.candidates.size() == 1 ? Answer::FirstSlower : Answer::Range;
    out_.first = out_.candidates.front();
    return std::move(out_);
  }

 private:
  StepResult time(int index) {
    auto known = timed_.find(index);
    if (known != timed_.end()) return known->second;
    StepResult r;
    if (cb_.builds && !cb_.builds(index))
      r.verdict = Verdict::BuildFailed;
    else
      r = cb_.time(index, step_alpha(alpha_, ++count_));
    if (r.verdict == Verdict::OutputDiffers) outputs_[index] = true;
    timed_[index] = r;
    out_.steps.push_back({index, r});
    return r;
  }

  std::optional<bool> differs(int index) {
    auto known = outputs_.find(index);
    if (known != outputs_.end()) return known->second;
    auto d = cb_.output_differs(index);
    if (d) outputs_[index] = *d;
    return d;
  }

  // Is `bad` slower than good? Its slower index, or none with the answer set. `lo` is known
  // not slower (good, or a tested commit).
  std::optional<int> establish_bad(int lo, int bad) {
    for (;;) {
      const StepResult r = time(bad);
      switch (r.verdict) {
        case Verdict::Slower:
          return bad;
        case Verdict::NotSlower:
          out_.answer = out_.changed_at ? Answer::NoSlowerBefore : Answer::BadNotSlower;
          return std::nullopt;
        case Verdict::CannotTell:
        case Verdict::BuildFailed:
          out_.answer = Answer::BadUndecided;
          return std::nullopt;
        case Verdict::OutputDiffers: {
          const int boundary = first_changed(lo, bad);
          if (boundary - 1 <= lo) {
            out_.answer = Answer::NoSlowerBefore;
            return std::nullopt;
          }
          bad = boundary - 1;
          break;
        }
      }
    }
  }

  // The first commit of (same, diff] whose output differs from good's, `same` being known equal
  // and `diff` known different. Returns the first index that may carry the change: a commit
  // that does not build between the last equal and the first different one may be it.
  int first_changed(int same, int diff) {
    std::set<int> unbuildable;
    while (auto mid = middle(same, diff, unbuildable)) {
      const auto d = differs(*mid);
      if (!d)
        unbuildable.insert(*mid);
      else if (*d)
        diff = *mid;
      else
        same = *mid;
    }
    if (!out_.changed_at || diff < *out_.changed_at) out_.changed_at = diff;
    return same + 1;
  }

  double alpha_;
  const Callbacks& cb_;
  int count_ = 0;
  std::map<int, StepResult> timed_;
  std::map<int, bool> outputs_;
  Outcome out_;
};

}  // namespace

Outcome search(int n, double alpha, const Callbacks& callbacks) { return Search(alpha, callbacks).run(n); }

}  // namespace perfgate::bisect
