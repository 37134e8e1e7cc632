// `perfgate bisect --good REV --bad REV --build CMD -- COMMAND...`: which commit of a git range
// made COMMAND slower, a paired gate at every step (bisect/bisect.hpp), and the table of every
// tested commit.
#include <cstdio>
#include <iomanip>
#include <iostream>

#include "bisect/bisect.hpp"
#include "bisect/worktrees.hpp"
#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"

namespace perfgate::cli {
namespace {

std::string ratio_text(const bisect::StepResult& r) {
  if (r.ratio <= 0) return "-";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.3fx [%.3f, %.3f]", r.ratio, r.lo, r.hi);
  return buf;
}

std::string first_line(std::string s, std::size_t width) {
  s = s.substr(0, s.find('\n'));
  return s.size() > width ? s.substr(0, width - 1) + "~" : s;
}

void print_report(std::ostream& out, const bisect::BisectReport& r, const bisect::BisectOptions& o) {
  const auto& path = r.path;
  char head[240];
  std::snprintf(head, sizeof head,
                "bisect: %zu commits after %s (good) on the first-parent path to %s (bad); metric %s, slower = "
                "beyond +%g%%; alpha %g over all steps (step i at alpha*6/(pi^2 i^2))",
                path.size() - 1, path.front().short_sha().c_str(), path.back().short_sha().c_str(), r.metric.c_str(),
                o.step.band * 100, o.alpha);
  out << head << "\n";
  out << "  builds: " << r.builds_made << " made, " << r.builds_reused << " build(s) reused";
  if (r.reused_steps) out << "; " << r.reused_steps << " step(s) reused";
  out << " (cache " << r.cache.string() << ")\n";
  std::vector<const bisect::Step*> steps;
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
    if (!s->result.note.empty() && s->result.verdict == bisect::Verdict::CannotTell)
      out << "  (" << first_line(s->result.note, 100) << ")";
    out << "\n";
  }
  out << "  (interval: the step's exact Walsh interval at 1 - 2*level/5: five looks per step)\n\n";
  for (const auto& [i, why] : r.skipped_builds)
    out << "skipped " << path[static_cast<std::size_t>(i)].short_sha() << " "
        << path[static_cast<std::size_t>(i)].subject << ": the build failed, " << why << "\n";
  if (r.outcome.changed_at) {
    const auto& c = path[static_cast<std::size_t>(*r.outcome.changed_at)];
    out << "changed behaviour at " << c.short_sha() << " " << c.subject
        << ": its output differs from the good commit's; no slowdown is attributed at or after it\n";
  }
  auto step_of = [&](int i) -> const bisect::StepResult* {
    for (const auto& s : r.outcome.steps)
      if (s.index == i) return &s.result;
    return nullptr;
  };
  switch (r.outcome.answer) {
    case bisect::Answer::FirstSlower: {
      const auto& c = path[static_cast<std::size_t>(r.outcome.first)];
      const auto* s = step_of(r.outcome.first);
      out << "first slower commit: " << c.sha << " " << c.subject;
      if (s && s->ratio > 0) out << " (ratio " << ratio_text(*s) << " against " << path[0].short_sha() << ")";
      out << "\n";
      break;
    }
    case bisect::Answer::Range: {
      out << "the first slower commit is one of (no step could decide between them):\n";
      for (int i : r.outcome.candidates)
        out << "  " << path[static_cast<std::size_t>(i)].sha << " " << path[static_cast<std::size_t>(i)].subject
            << "\n";
      break;
    }
    case bisect::Answer::BadNotSlower:
      out << "no slower commit in the range: bad " << path.back().short_sha() << " is not slower than good "
          << path[0].short_sha() << " (beyond +" << o.step.band * 100 << "%)\n";
      break;
    case bisect::Answer::BadUndecided:
      out << "cannot tell whether " << path.back().short_sha()
          << " is slower than good within the step budget: no commit is named (raise --step-budget, or widen "
             "--noise)\n";
      break;
    case bisect::Answer::NoSlowerBefore:
      out << "no slower commit before the behaviour change\n";
      break;
  }
}

}  // namespace

void add_bisect_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "bisect",
      "Which commit made it slower: each tested commit of --good..--bad (first-parent) is checked out in a\n"
      "worktree, built with --build, and compared with the good commit's build in paired rounds.\n"
      "  perfgate bisect --good v1.2 --bad main --build make -- ./prog --input data.txt\n"
      "The command runs in each commit's worktree ({rev_dir} expands to it). Exit 0 with an answer (a commit,\n"
      "a range no step could split, or none), 2 bad usage, 4 the good commit does not build, 130 interrupted\n"
      "(finished steps are kept: run it again to resume).");
  auto o = std::make_shared<bisect::BisectOptions>();
  auto repo = std::make_shared<std::string>(".");
  auto cache = std::make_shared<std::string>();
  auto out_path = std::make_shared<std::string>("perfgate-out/bisect.json");
  auto clean = std::make_shared<bool>(false);
  auto script = std::make_shared<std::string>();
  auto noise_pct = std::make_shared<double>(2.0);
  cmd->add_option("--good", o->good, "A revision that is not slower (the reference every step is compared with)");
  cmd->add_option("--bad", o->bad, "A revision that is slower");
  cmd->add_option("--repo", *repo, "The git repository (default: the current folder)")->capture_default_str();
  cmd->add_option("--build", o->build, "The build command, run with sh -c in each commit's worktree (e.g. make)");
  cmd->add_option("--scenario", o->step.scenario,
                  "Instead of a command: a scenario of the perfgate catalog each worktree builds (as run --against)");
  cmd->add_option(
      "--catalog", o->step.catalog,
      "With --scenario: the catalog folder relative to the worktree (default: build/share/perfgate/scenarios)");
  cmd->add_flag("--shell", o->step.shell, "Run the command with sh -c instead of splitting it into words");
  cmd->add_option("--metric", o->step.metric,
                  "The metric each step compares (default auto: as ab decides it at the first step, then kept)")
      ->capture_default_str();
  cmd->add_option("--noise", *noise_pct, "Percent: a commit is slower only beyond +PCT against good")
      ->check(CLI::Range(0.0, 99.0))
      ->capture_default_str();
  cmd->add_option("--alpha", o->alpha, "The whole search's false-attribution rate, spent over its steps")
      ->check(CLI::Range(0.000001, 0.5))
      ->capture_default_str();
  cmd->add_option("--step-budget", o->step.budget_s,
                  "Seconds one step may spend adding rounds before it says cannot tell")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--cache", *cache,
                  "Where worktrees, builds and finished steps are kept (default: ~/.cache/perfgate/bisect/REPO-HASH)");
  cmd->add_flag("--clean", *clean, "Remove the cache's worktrees and steps, then exit");
  cmd->add_option("--json", *out_path, "The results file (the bisect section)")->capture_default_str();
  cmd->add_option("--seed", o->step.options.seed, "Seed of the round order and the bootstrap");
  cmd->add_option_function<std::string>(
      "--cpus", [o](const std::string& s) { o->step.options.cpus = plan::parse_cpu_list(s); },
      "CPUs to pin samples to, e.g. 1");
  cmd->add_option("--timeout", o->step.options.timeout_s, "Seconds one sample may take (default 600)");
  cmd->add_option("--debug-samples", *script,
                  "FILE: commit subject (or \"*\") -> scripted samples of that commit's build (tests)")
      ->group("");
  auto* command = cmd->add_option("command", o->step.command, "The command (after --)");
  command->expected(-1);
  cmd->callback([=] {
    o->repo = *repo;
    o->cache = cache->empty() ? std::filesystem::path() : std::filesystem::path(*cache);
    if (*clean) {
      const bisect::Worktrees trees(o->repo, o->cache.empty() ? bisect::default_cache(o->repo) : o->cache);
      trees.clean();
      std::cout << "removed " << trees.cache().string() << "\n";
      return;
    }
    if (o->good.empty() || o->bad.empty()) throw UsageError("bisect needs --good REV and --bad REV");
    if (o->build.empty()) throw UsageError("bisect needs --build CMD (e.g. --build make)");
    if (o->step.command.empty() == o->step.scenario.empty())
      throw UsageError("bisect needs a command after -- (e.g. -- ./prog), or --scenario NAME: one of them");
    o->step.band = *noise_pct / 100;
    o->step.argv = argv;
    if (!script->empty()) o->step.script = std::filesystem::absolute(*script);
    install_interrupt_handlers();
    Progress progress(false);
    suite::StatusLine status{[&](const std::string& t) { progress.update(t); }, [&] { progress.clear(); }};
    const auto report = bisect::run_bisect(*o, status);
    progress.clear();
    print_report(std::cout, report, *o);
    nlohmann::json doc = {
        {"schema_version", 1}, {"kind", "bisect"}, {"command_line", argv}, {"bisect", report.to_json(*o)}};
    std::filesystem::path file(*out_path);
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    write_file_atomic(file, doc.dump(2) + "\n");
    std::cout << "perfgate: bisect results in " << file.string() << "\n";
  });
}

}  // namespace perfgate::cli
