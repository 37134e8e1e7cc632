#include "run/batch_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "common/program_path.hpp"
#include "measure/cgroup.hpp"
#include "perfgate/sample.hpp"
#include "run/counting_sample.hpp"
#include "run/metric_specs.hpp"
#include "run/not_equivalent.hpp"
#include "run/output_mask.hpp"
#include "run/schedule.hpp"
#include "run/witness.hpp"

namespace perfgate::run {
namespace {

bool says_not_equivalent(const std::string& line) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  return j.is_object() && reported_divergence(j).has_value();
}

std::string describe_failure(const VariantCommand& v, const ChildResult& r, const SampleFiles& f) {
  std::string why = r.timed_out ? "timed out"
                    : r.signal  ? "was killed by signal " + std::to_string(r.signal)
                                : "exited with " + std::to_string(r.exit_code);
  std::string tail = tail_of_file(f.stderr_path);
  // A user's command (ab, bisect) that exits non-zero on purpose: say what lets it, as hyperfine does.
  const std::string hint =
      v.digest_stdout && !r.timed_out && !r.signal
          ? " (if that exit is expected, -i/--ignore-failure keeps going, as in hyperfine; --show-output "
            "shows what it printed)"
          : "";
  return "variant " + v.name + ": " + v.argv[0] + " " + why + hint +
         (tail.empty() ? " (no stderr)" : "; its stderr:\n" + tail);
}

// A sample's child as the contract promises it (docs/scenario-contract.md): a fresh working
// directory `fresh` (or the variant's own folder), stdout/stderr to files, and the PERFGATE_*
// environment; temporary files go to the fresh folder either way. Timed and counting runs alike,
// so a program cannot tell them apart but for the counter.
ChildSpec sample_spec(const VariantCommand& v, const std::vector<std::string>& argv, const fs::path& fresh,
                      const SampleFiles& files, const std::vector<int>& cpus, double timeout_s) {
  const fs::path work = v.workdir.empty() ? fresh : v.workdir;
  ChildSpec spec;
  spec.argv = argv;
  spec.cwd = work;
  spec.stdout_path = files.stdout_path;
  spec.stderr_path = files.stderr_path;
  spec.cpus = cpus;
  spec.timeout_s = timeout_s;
  spec.env = {{"PERFGATE_OUTPUT", files.output_path.string()},
              {"PERFGATE_WORKDIR", work.string()},
              {"TMPDIR", fresh.string()},
              {"PERFGATE_WITNESS_DIR", witness_dir(fresh).string()},
              {"PERFGATE_VARIANT", v.name}};
  return spec;
}

// A run that did not finish as the user said it should: by default a non-zero exit fails it,
// ab's --ignore-failure lets exit codes pass; a timeout or a signal always fails.
bool failed(const VariantCommand& v, const ChildResult& r) {
  return r.timed_out || r.signal || (r.exit_code != 0 && !v.sampling.ignores(r.exit_code));
}

// The variant's program as its folder sees it: `./prog` is the folder's, as sh -c finds it
// there, so a command means the same with and without --shell.
std::string program_path(const VariantCommand& v) {
  const std::string& program = v.argv.at(0);
  if (!v.workdir.empty() && program.find('/') != std::string::npos && fs::path(program).is_relative())
    return (v.workdir / program).string();
  return program;
}

// The variant's command, its program's path as long as the others' (common/program_path.hpp).
std::vector<std::string> program_argv(const BatchPlan& plan, const VariantCommand& v) {
  std::vector<std::string> programs;
  for (const auto& other : plan.variants) programs.push_back(program_path(other));
  std::vector<std::string> argv = v.argv;
  argv[0] = padded_path(program_path(v), longest_path(programs));
  return argv;
}

// One counting run of `v` beside the timed sample `s` (run/counting_sample.hpp), in its own
// directory and cgroup; its stdout is not read, its counts become metrics of `s`.
void count_one(const BatchPlan& plan, const VariantCommand& v, const std::string& measure, const fs::path& dir,
               int serial, const std::vector<int>& cpus, Sample& s) {
  // Paths of one length in every round: they reach the program (cwd, environment), and a
  // longer one costs a few more instructions, which would be a spread of an exact count.
  const fs::path count_dir = dir.parent_path() / ("count-" + measure + "-" + padded_serial(serial));
  const fs::path work = count_dir / "work";
  fs::create_directories(work);
  const CountingCommand command = counting_command(measure, program_argv(plan, v), count_dir);
  SampleFiles files{count_dir / "stdout", count_dir / "stderr", count_dir / "output", {}};
  // valgrind runs a program 20-100x slower than it runs alone.
  ChildSpec spec =
      sample_spec(v, command.argv, work, files, cpus, plan.timeout_s * (measure == "instructions" ? 100 : 2));
  spec.stdin_path = v.sampling.input;
  spec.env.insert(command.env.begin(), command.env.end());
  measure::SampleCgroup cgroup(plan.scenario + "-" + std::to_string(serial) + "-" + measure);
  const ChildResult r = run_child(spec, cgroup);
  if (failed(v, r))
    throw RunError(plan.scenario + ", round " + std::to_string(s.round) + ", counting run (" + measure + ") of " +
                   describe_failure(v, r, files));
  add_counting_metrics(s, measure, count_dir, plan.scenario + " (" + v.name + ")");
  // What a program can only measure under the counter (allocations per kind of row, through
  // perfgate/alloc_window.hpp): the metrics its counting run reports and its timed run does not.
  if (!v.digest_stdout) {
    Sample counted;
    parse_program_report(counted, last_nonempty_line(files.stdout_path), plan.scenario + " (" + v.name + ")");
    for (auto& [name, metric] : counted.metrics) s.metrics.emplace(name, std::move(metric));
  }
  std::error_code ec;
  fs::remove_all(count_dir, ec);
}

// A sample taken, its files still on disk for the on_sample hook.
struct Taken {
  Sample sample;
  SampleFiles files;
  fs::path dir;
};

// The prepare command before a run of `v` and the conclude command after it (ab), unmeasured.
struct AroundRun {
  const VariantCommand& v;
  fs::path scratch;
  double timeout_s;
  AroundRun(const VariantCommand& v_, fs::path scratch_, double timeout)
      : v(v_), scratch(std::move(scratch_)), timeout_s(timeout) {
    if (!v.sampling.prepare.empty()) run_user_command("--prepare", v.sampling.prepare, v.workdir, scratch, timeout_s);
  }
  void conclude() const {
    if (!v.sampling.conclude.empty())
      run_user_command("--conclude", v.sampling.conclude, v.workdir, scratch, timeout_s);
  }
};

// The digest of what a sample printed, stdout's bytes at files.stdout_path: hashed as they are,
// or, when the program also wrote $PERFGATE_OUTPUT or `ab --mask` masks volatile parts, through
// run/output_mask.hpp. Either way `files` then name the compared text (a mismatch is diffed on it).
void digest_printed(SampleFiles& files, const std::vector<std::string>& masks, Sample& s) {
  std::error_code ec;
  if (masks.empty() && !fs::exists(files.output_path, ec)) {
    s.digest = digest_of_file(files.stdout_path);
    fs::rename(files.stdout_path, files.output_path, ec);
  } else {
    digest_program_output(files, masks, s);
  }
  files.stdout_path = files.output_path;
}

// One more run of `v`, untimed, its stdout to a file of the sample's: what a round whose timed
// run wrote to /dev/null or the terminal prints (run/ab_sampling.hpp), left at files.stdout_path.
void digest_run(const BatchPlan& plan, const VariantCommand& v, const fs::path& dir, SampleFiles& files, int round,
                int serial, const std::vector<int>& cpus) {
  const fs::path work = dir / "work";
  fs::create_directories(work);
  SampleFiles run_files{dir / "digest-stdout", dir / "digest-stderr", files.output_path, {}};
  ChildSpec spec = sample_spec(v, program_argv(plan, v), work, run_files, cpus, plan.timeout_s);
  spec.stdin_path = v.sampling.input;
  AroundRun around(v, dir / "around", plan.timeout_s);
  measure::SampleCgroup cgroup(plan.scenario + "-" + std::to_string(serial) + "-digest");
  const ChildResult r = run_child(spec, cgroup);
  around.conclude();
  if (failed(v, r))
    throw RunError(plan.scenario + ", round " + std::to_string(round) + ", digest run of " +
                   describe_failure(v, r, run_files));
  files.stdout_path = run_files.stdout_path;
}

// Where the timed run's stdout goes (the contract's file, or ab's --output) and its digest.
struct TimedStdout {
  const StdoutTarget& target;
  std::optional<DrainedPipe> pipe;
  TimedStdout(const StdoutTarget& t, ChildSpec& spec, const SampleFiles& files, const std::vector<int>& cpus)
      : target(t) {
    switch (t.kind) {
      case StdoutTarget::Kind::Contract:
        break;
      case StdoutTarget::Kind::Null:
        spec.stdout_path = "/dev/null";
        break;
      case StdoutTarget::Kind::Inherit:
        spec.stdout_path.clear();
        spec.stderr_path.clear();
        break;
      case StdoutTarget::Kind::File:
        spec.stdout_path = t.file;
        break;
      case StdoutTarget::Kind::Pipe:
        pipe.emplace(files.stdout_path, cpus);
        spec.stdout_fd = pipe->write_fd();
        break;
    }
  }
  // After the run: whether what it printed can be read; if so, stdout's bytes are at
  // files.stdout_path.
  bool kept(SampleFiles& files) {
    switch (target.kind) {
      case StdoutTarget::Kind::Contract:
        return true;
      case StdoutTarget::Kind::Pipe:
        pipe->finish();
        return true;
      case StdoutTarget::Kind::File: {
        std::error_code ec;
        fs::copy_file(target.file, files.stdout_path, fs::copy_options::overwrite_existing, ec);
        return !ec;
      }
      default:
        return false;
    }
  }
};

Taken take_one(const BatchPlan& plan, const VariantCommand& v, int round, bool warmup, int order,
               const TempDir& run_dir, int serial, const std::vector<int>& cpus, bool with_digest_run) {
  const fs::path dir = run_dir.subdir("sample-" + padded_serial(serial));
  const fs::path work = dir / "work";
  fs::create_directories(work);
  SampleFiles files{dir / "stdout", dir / "stderr", dir / "output", {}};
  ChildSpec spec = sample_spec(v, program_argv(plan, v), work, files, cpus, plan.timeout_s);
  spec.stdin_path = v.sampling.input;
  // A warm-up run is not timed: where its output would go to /dev/null it goes into the digest
  // pipe instead, so the first comparison of the outputs costs no run of its own.
  static const StdoutTarget piped{StdoutTarget::Kind::Pipe, {}};
  const bool warmup_digest = warmup && with_digest_run && v.sampling.output.kind == StdoutTarget::Kind::Null;
  TimedStdout out(warmup_digest ? piped : v.sampling.output, spec, files, cpus);
  AroundRun around(v, dir / "around", plan.timeout_s);
  measure::SampleCgroup cgroup(plan.scenario + "-" + std::to_string(serial));
  auto server0 = plan.server_cgroup ? plan.server_cgroup->cpu() : std::nullopt;
  ChildResult r = run_child(spec, cgroup);
  auto server1 = plan.server_cgroup ? plan.server_cgroup->cpu() : std::nullopt;
  const bool printed = v.digest_stdout && out.kept(files);
  around.conclude();

  Sample s;
  s.round = round;
  s.variant = v.name;
  s.warmup = warmup;
  s.order = order;
  s.exit_code = r.timed_out ? -1 : r.signal ? -r.signal : r.exit_code;
  // A program that said "not the same work" on its last line failed equivalence (exit 3) whatever
  // its exit status: a divergent answer is never "could not run".
  const bool said_divergent = !r.timed_out && !r.signal && r.exit_code != 0 && !v.digest_stdout &&
                              says_not_equivalent(last_nonempty_line(files.stdout_path));
  if (failed(v, r) && !said_divergent)
    throw RunError(plan.scenario + ", round " + std::to_string(round) + ", " + describe_failure(v, r, files));
  add_outside_metrics(s, r);
  add_witness_metrics(s, witness_dir(work), plan.scenario + " (" + v.name + ")");
  if (auto wait = measure::cpu_wait_ms(cgroup))
    s.metrics["cpu_wait_ms"] = measured("cpu_wait_ms", *wait, "cgroup-v2:cpu.pressure");
  if (server0 && server1) {
    s.metrics["server_cpu_ms"] = measured("server_cpu_ms", (server1->usage_usec - server0->usage_usec) / 1e3,
                                          "server-cgroup:" + plan.server_cgroup->cpu_source());
    s.metrics["total_cpu_ms"] = measured("total_cpu_ms", s.metrics["cpu_ms"].value + s.metrics["server_cpu_ms"].value,
                                         "sample + server cgroups");
  }
  if (v.digest_stdout) {
    if (!printed && with_digest_run) digest_run(plan, v, dir, files, round, serial, cpus);
    if (printed || with_digest_run) digest_printed(files, v.masks, s);
  } else {
    parse_program_report(s, last_nonempty_line(files.stdout_path), plan.scenario + " (" + v.name + ")");
  }
  if (!warmup && s.divergence.empty())
    for (const auto& measure : plan.counting) count_one(plan, v, measure, dir, serial, cpus, s);
  return {std::move(s), files, dir};
}

// The hook sees every sample in the order taken, on this thread (it may throw).
Sample finish_one(Taken t, const BatchHooks& hooks) {
  if (hooks.on_sample) hooks.on_sample(t.sample, t.files);
  std::error_code ec;
  fs::remove_all(t.dir, ec);
  return std::move(t.sample);
}

// BEFORE and AFTER of one round at the same time, one per CPU. Both children are always
// waited for; a failure of either is rethrown after both ended.
std::pair<Taken, Taken> take_duet(const BatchPlan& plan, const VariantCommand& before, const VariantCommand& after,
                                  int round, bool warmup, const TempDir& run_dir, int serial, bool digest) {
  const auto [cpu_b, cpu_a] = duet_cpus(round, plan.cpus);
  std::optional<Taken> b, a;
  std::exception_ptr fail_b, fail_a;
  std::thread other([&] {
    try {
      a = take_one(plan, after, round, warmup, 1, run_dir, serial + 1, {cpu_a}, digest);
    } catch (...) {
      fail_a = std::current_exception();
    }
  });
  try {
    b = take_one(plan, before, round, warmup, 0, run_dir, serial, {cpu_b}, digest);
  } catch (...) {
    fail_b = std::current_exception();
  }
  other.join();
  if (fail_b) std::rethrow_exception(fail_b);
  if (fail_a) std::rethrow_exception(fail_a);
  return {std::move(*b), std::move(*a)};
}

// The rounds, until a look, the round limit or the time limit stops them.
void run_rounds(const BatchPlan& plan, const TempDir& run_dir, const BatchHooks& hooks, BatchOutcome& out) {
  RoundOrder order(plan.seed);
  std::vector<std::string> names;
  for (const auto& v : plan.variants) names.push_back(v.name);
  auto command = [&](const std::string& n) -> const VariantCommand& {
    for (const auto& v : plan.variants)
      if (v.name == n) return v;
    throw std::logic_error("no variant " + n);
  };
  const auto start = std::chrono::steady_clock::now();
  int serial = 0;
  std::size_t next_look = 0;
  const int total_rounds = plan.warmup + plan.max_rounds;
  for (int round = 1; round <= total_rounds; ++round) {
    check_interrupted();
    const bool warmup = round <= plan.warmup;
    if (hooks.on_round) hooks.on_round(round, total_rounds, warmup);
    int pos = 0;
    // The outputs are compared at the first round of all (a warm-up's, when there is one), a seeded
    // eighth of the measured ones, and the last.
    const int seeded = static_cast<int>(
        std::count_if(out.digest_rounds.begin(), out.digest_rounds.end(), [](int r) { return r > 1; }));
    const bool digest = !hooks.take_sample && needs_digest_runs(plan) &&
                        (round == 1 || (!warmup && digest_round(plan.seed, out.rounds + 1, seeded)));
    if (digest) out.digest_rounds.push_back(warmup ? 0 : out.rounds + 1);
    const bool duet =
        plan.duet && !hooks.take_sample &&
        std::count(names.begin(), names.end(), "before") + std::count(names.begin(), names.end(), "after") == 2;
    for (const auto& name : order.next_adjacent(names, "before", "after")) {
      if (duet && name == "after") continue;  // ran beside BEFORE
      ++serial;
      if (duet && name == "before") {
        auto [b, a] = take_duet(plan, command("before"), command("after"), round, warmup, run_dir, serial++, digest);
        out.samples.push_back(finish_one(std::move(b), hooks));
        out.samples.push_back(finish_one(std::move(a), hooks));
        pos += 2;
        continue;
      }
      out.samples.push_back(hooks.take_sample ? hooks.take_sample(name, round, warmup, pos++, serial)
                                              : finish_one(take_one(plan, command(name), round, warmup, pos++, run_dir,
                                                                    serial, plan.cpus, digest),
                                                           hooks));
    }
    if (warmup) continue;
    ++out.rounds;
    const bool out_of_time =
        plan.max_time_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= plan.max_time_s;
    while (next_look < plan.looks.size() && plan.looks[next_look] < out.rounds) ++next_look;
    const bool at_look = next_look < plan.looks.size() && plan.looks[next_look] == out.rounds;
    if (at_look) {
      out.looks_taken.push_back(out.rounds);
      std::vector<Sample> measured;
      for (const auto& s : out.samples)
        if (!s.warmup) measured.push_back(s);
      if (hooks.should_stop && hooks.should_stop(measured, static_cast<int>(next_look))) {
        out.stop = StopReason::clear_at_look(static_cast<int>(next_look) + 1, out.rounds);
        return;
      }
      ++next_look;
    }
    if (out_of_time) {
      out.stop = StopReason::max_time(static_cast<int>(plan.max_time_s), out.rounds);
      return;
    }
  }
  out.stop = StopReason::max_rounds(plan.max_rounds);
}

// The last measured round's digest runs, when it had none: its samples get their digests
// and go past the hook (the equivalence gate) again.
void digest_last_round(const BatchPlan& plan, const TempDir& run_dir, const BatchHooks& hooks, BatchOutcome& out) {
  if (out.rounds == 0 || (!out.digest_rounds.empty() && out.digest_rounds.back() == out.rounds)) return;
  out.digest_rounds.push_back(out.rounds);
  for (const auto& v : plan.variants)
    for (auto it = out.samples.rbegin(); it != out.samples.rend(); ++it) {
      if (it->variant != v.name || it->warmup) continue;
      const fs::path dir = run_dir.subdir("last-digest-" + v.name);
      SampleFiles files{dir / "stdout", dir / "stderr", dir / "output", {}};
      digest_run(plan, v, dir, files, it->round, 0, plan.cpus);
      digest_printed(files, v.masks, *it);
      if (hooks.on_sample) hooks.on_sample(*it, files);
      std::error_code ec;
      fs::remove_all(dir, ec);
      break;
    }
}

}  // namespace

bool needs_digest_runs(const BatchPlan& plan) {
  for (const auto& v : plan.variants)
    if (v.digest_stdout && !v.sampling.output.hashed_when_timed()) return true;
  return false;
}

void run_batch(const BatchPlan& plan, const TempDir& run_dir, const BatchHooks& hooks, BatchOutcome& out) {
  const bool scripted = static_cast<bool>(hooks.take_sample);
  auto each = [&](const char* what, std::string AbSampling::*command) {
    for (const auto& v : plan.variants)
      if (!(v.sampling.*command).empty())
        run_user_command(what, v.sampling.*command, v.workdir, run_dir.subdir(std::string("user-") + (what + 2)),
                         plan.timeout_s);
  };
  if (!scripted) each("--setup", &AbSampling::setup);
  try {
    run_rounds(plan, run_dir, hooks, out);
    if (!scripted && needs_digest_runs(plan)) digest_last_round(plan, run_dir, hooks, out);
  } catch (const Interrupted&) {
    throw;
  } catch (...) {
    // The user's cleanup still runs when the rounds failed; its own failure then is not the news.
    try {
      if (!scripted) each("--cleanup", &AbSampling::cleanup);
    } catch (const Error&) {
    }
    throw;
  }
  if (!scripted) each("--cleanup", &AbSampling::cleanup);
}

}  // namespace perfgate::run
