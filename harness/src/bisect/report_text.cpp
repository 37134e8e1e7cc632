#include "bisect/report_text.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>

namespace perfgate::bisect {

namespace {

std::string ratio_text(const StepResult& r) {
  if (r.ratio <= 0) return "-";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.3fx [%.3f, %.3f]", r.ratio, r.lo, r.hi);
  return buf;
}

std::string first_line(std::string s, std::size_t width) {
  s = s.substr(0, s.find('\n'));
  return s.size() > width ? s.substr(0, width - 1) + "~" : s;
}

}  // namespace

void print_report(std::ostream& out, const BisectReport& r, const BisectOptions& o) {
  const auto& path = r.path;
  char head[240];
  std::snprintf(head, sizeof head,
                "bisect: %zu commit%s after %s (good) on the first-parent path to %s (bad); metric %s, slower = "
                "beyond +%g%%; alpha %g over all steps (step i at alpha*6/(pi^2 i^2))",
                path.size() - 1, path.size() == 2 ? "" : "s", path.front().short_sha().c_str(),
                path.back().short_sha().c_str(), r.metric.c_str(), o.step.band * 100, o.alpha);
  out << head << "\n";
  out << "  builds: " << r.builds_made << " made, " << r.builds_reused << " build(s) reused";
  if (r.reused_steps) out << "; " << r.reused_steps << " step(s) reused";
  out << " (cache " << r.cache.string() << ")\n";
  std::vector<const Step*> steps;
  for (const auto& s : r.outcome.steps) steps.push_back(&s);
  std::sort(steps.begin(), steps.end(), [](auto* a, auto* b) { return a->index < b->index; });
  out << "\n  #   commit        subject                         verdict         ratio vs good [interval]    rounds  "
         "level\n";
  out << "  " << std::left << std::setw(3) << 0 << " " << std::setw(12) << path[0].short_sha() << "  " << std::setw(30)
      << first_line(path[0].subject, 30) << "  good\n";
  for (const auto* s : steps) {
    char level[32] = "-";
    if (s->result.alpha > 0) std::snprintf(level, sizeof level, "%.2g", s->result.alpha);
    out << "  " << std::left << std::setw(3) << s->index << " " << std::setw(12)
        << path[static_cast<std::size_t>(s->index)].short_sha() << "  " << std::setw(30)
        << first_line(path[static_cast<std::size_t>(s->index)].subject, 30) << "  " << std::setw(14)
        << name_of(s->result.verdict) << "  " << std::setw(26) << ratio_text(s->result) << "  " << std::setw(6)
        << s->result.rounds << "  " << level;
    if (!s->result.note.empty() && s->result.verdict == Verdict::CannotTell)
      out << "  (" << first_line(s->result.note, 100) << ")";
    out << "\n";
  }
  if (o.step.layouts > 0)
    out << "  (over " << o.step.layouts << " layouts of each commit, " << o.step.layout_rounds
        << " paired rounds each; interval: Student's t over the layout pairs at 1 - 2*level, docs/layout.md)\n\n";
  else
    out << "  (interval: the step's exact Walsh interval at 1 - 2*level/5: five looks per step)\n\n";
  for (const auto& [i, why] : r.skipped_builds)
    out << "skipped " << path[static_cast<std::size_t>(i)].short_sha() << " "
        << path[static_cast<std::size_t>(i)].subject << ": the build failed, " << why << "\n";
  if (r.outcome.changed_at) {
    const auto& c = path[static_cast<std::size_t>(*r.outcome.changed_at)];
    out << "changed behaviour at " << c.short_sha() << " " << c.subject
        << ": its output differs from the good commit's; no slowdown is attributed at or after it\n";
  }
  auto step_of = [&](int i) -> const StepResult* {
    for (const auto& s : r.outcome.steps)
      if (s.index == i) return &s.result;
    return nullptr;
  };
  switch (r.outcome.answer) {
    case Answer::FirstSlower: {
      const auto& c = path[static_cast<std::size_t>(r.outcome.first)];
      const auto* s = step_of(r.outcome.first);
      out << "first slower commit: " << c.sha << " " << c.subject;
      if (s && s->ratio > 0) out << " (ratio " << ratio_text(*s) << " against " << path[0].short_sha() << ")";
      out << "\n";
      break;
    }
    case Answer::Range: {
      out << "the first slower commit is one of (no step could decide between them):\n";
      for (int i : r.outcome.candidates)
        out << "  " << path[static_cast<std::size_t>(i)].sha << " " << path[static_cast<std::size_t>(i)].subject
            << "\n";
      break;
    }
    case Answer::BadNotSlower:
      out << "no slower commit in the range: bad " << path.back().short_sha() << " is not slower than good "
          << path[0].short_sha() << " (beyond +" << o.step.band * 100 << "%)\n";
      break;
    case Answer::BadUndecided:
      out << "cannot tell whether " << path.back().short_sha() << " is slower than good"
          << (o.step.layouts > 0 ? " over " + std::to_string(o.step.layouts) +
                                       " layouts: no commit is named (more --layouts or --layout-rounds, or widen "
                                       "--noise)\n"
                                 : " within the step budget: no commit is named (raise --step-budget, or widen "
                                   "--noise)\n");
      break;
    case Answer::NoSlowerBefore:
      out << "no slower commit before the behaviour change\n";
      break;
  }
}

}  // namespace perfgate::bisect
