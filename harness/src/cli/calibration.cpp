#include "cli/calibration.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "catalog/catalog.hpp"
#include "cli/pipeline.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "measure/host.hpp"
#include "plan/plan.hpp"
#include "run/counting_sample.hpp"

namespace perfgate::cli {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double median_of(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double sd_of(const std::vector<double>& v) {
  if (v.size() < 2) return std::nan("");
  double mean = 0, ss = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

json finite(double v) { return std::isfinite(v) ? json(v) : json(); }

// j[key] when it is there, else null: iterating a reference, not a temporary.
const json& field(const json& j, const char* key) {
  static const json none;
  return j.is_object() && j.contains(key) ? j[key] : none;
}

// One `ab` run of the calibration program, in process, its tables and notes kept off the
// terminal: the results document's scenario, the exit code and how long it took.
struct Pair {
  int exit_code = 0;
  json scenario;
  double seconds = 0;
  std::vector<double> self_ms;  // the program's own wall time, every sample (warm-up included)
};

Pair run_pair(const CalibrationOptions& o, const TempDir& dir, const std::string& mode, std::uint64_t n_before,
              std::uint64_t n_after, int serial) {
  const fs::path self = dir.path() / ("self-" + std::to_string(serial));
  const bool duet = mode == "cpu-duet";
  // The CPU-bound program with each timed sample followed by a valgrind run: instruction counts'
  // A/A spread beside CPU time's, from the same pairs.
  const bool counted = mode == "cpu-counted";
  auto words = [&](std::uint64_t n) {
    return std::vector<std::string>{o.program.string(), duet || counted ? "cpu" : mode, std::to_string(n),
                                    "--self-time", self.string()};
  };
  plan::RunOptions ab = o.ab;
  ab.duet = duet;
  ab.quiet = true;
  // Instruction counts have no spread to wait out: the first look's rounds show it, and valgrind
  // makes every further round cost ~50x.
  if (counted) ab.max_rounds = ab.min_rounds ? *ab.min_rounds : 8;
  ab.json_path = (dir.path() / ("pair-" + std::to_string(serial) + ".json")).string();
  ab.seed = (o.ab.seed ? *o.ab.seed : 1) + static_cast<std::uint64_t>(serial);
  ab.baseline_path = "none";
  auto plan = plan::plan_ab("calibrate-" + mode, words(n_before), words(n_after), o.metric, ab);
  if (counted)
    for (auto& s : plan.scenarios) s.manifest.measure = {"instructions"};
  const auto start = std::chrono::steady_clock::now();
  std::ostringstream sink;
  auto* out = std::cout.rdbuf(sink.rdbuf());
  auto* err = std::cerr.rdbuf(sink.rdbuf());
  Pair p;
  try {
    p.exit_code = execute_plan(plan, ab, {"perfgate", "calibrate"});
  } catch (...) {
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    throw;
  }
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  p.seconds = seconds_since(start);
  if (p.exit_code == kExitInterrupted) throw Interrupted();
  auto doc = json::parse(read_file(ab.json_path), nullptr, false);
  if (doc.is_object() && doc.contains("scenarios") && !doc["scenarios"].empty()) p.scenario = doc["scenarios"][0];
  if (p.exit_code >= kExitUsage)
    throw RunError("calibrate: the " + mode + " pair exited " + std::to_string(p.exit_code) + ": " +
                   sink.str().substr(0, 400));
  std::ifstream in(self);
  for (double ms; in >> ms;) p.self_ms.push_back(ms);
  return p;
}

// Per metric of one pair: measured values of each side, paired by round.
std::map<std::string, std::map<int, std::pair<double, double>>> by_metric(const json& scenario) {
  std::map<std::string, std::map<int, std::pair<double, double>>> out;
  for (const auto& s : field(scenario, "samples")) {
    if (s.value("warmup", false)) continue;
    const bool before = s.value("variant", "") == "before";
    for (const auto& [m, v] : field(s, "metrics").items()) {
      auto& slot = out[m][s.value("round", 0)];
      (before ? slot.first : slot.second) = v.value("value", 0.0);
    }
  }
  return out;
}

std::string verdict_of(const json& scenario, const std::string& metric) {
  for (const auto& c : field(scenario, "comparisons"))
    if (c.value("metric", "") == metric && c.value("variant", "") == "after") return c.value("verdict", "");
  return "";
}

double wall_median(const json& scenario) {
  std::vector<double> w;
  for (const auto& s : field(scenario, "samples"))
    if (s.contains("metrics") && s["metrics"].contains("wall_ms")) w.push_back(s["metrics"]["wall_ms"]["value"]);
  return median_of(w);
}

// What one workload's pairs say, per metric.
struct Tally {
  std::vector<double> cv, log_ratio_var;
  int aa = 0, aa_alarms = 0;
  std::map<double, std::pair<int, int>> injected;  // extra → (pairs, caught)
};

json workload_summary(const std::string& mode, const std::vector<std::string>& command,
                      const std::vector<Pair>& aa_pairs, const std::map<double, std::vector<Pair>>& injected,
                      const CalibrationOptions& o, double alpha_per_look) {
  std::map<std::string, Tally> tallies;
  std::vector<double> rounds, seconds, walls, selfs;
  int exit_alarms = 0;
  std::map<std::string, int> gated;
  for (const auto& p : aa_pairs) {
    exit_alarms += p.exit_code == kExitPerformance;
    rounds.push_back(p.scenario.value("stop", json::object()).value("rounds", 0));
    seconds.push_back(p.seconds);
    walls.push_back(wall_median(p.scenario));
    selfs.push_back(median_of(p.self_ms));
    gated[p.scenario.value("primary_metric", "")]++;
    for (const auto& [metric, rows] : by_metric(p.scenario)) {
      std::vector<double> before, logs;
      for (const auto& [round, ba] : rows) {
        before.push_back(ba.first);
        if (ba.first > 0 && ba.second > 0) logs.push_back(std::log(ba.second / ba.first));
      }
      auto& t = tallies[metric];
      double mean = 0;
      for (double b : before) mean += b;
      mean /= std::max<std::size_t>(1, before.size());
      if (mean > 0 && before.size() >= 2) t.cv.push_back(sd_of(before) / mean);
      if (logs.size() >= 2) t.log_ratio_var.push_back(std::pow(sd_of(logs), 2));
      t.aa++;
      const std::string v = verdict_of(p.scenario, metric);
      t.aa_alarms += v == "better" || v == "worse";
    }
  }
  std::map<double, std::pair<int, int>> exit_caught;
  for (const auto& [extra, pairs] : injected)
    for (const auto& p : pairs) {
      auto& e = exit_caught[extra];
      e.first++;
      e.second += p.exit_code == kExitPerformance;
      seconds.push_back(p.seconds);
      for (const auto& [metric, rows] : by_metric(p.scenario)) {
        auto& slot = tallies[metric].injected[extra];
        slot.first++;
        slot.second += verdict_of(p.scenario, metric) == "worse";
      }
    }
  const double n_rounds = median_of(rounds);
  json metrics = json::object();
  for (const auto& [metric, t] : tallies) {
    double pooled = 0;
    for (double v : t.log_ratio_var) pooled += v;
    const double sd = t.log_ratio_var.empty() ? std::nan("") : std::sqrt(pooled / t.log_ratio_var.size());
    const int n = std::isfinite(n_rounds) ? static_cast<int>(n_rounds) : 0;
    json inj = json::array();
    for (const auto& [extra, pc] : t.injected)
      inj.push_back({{"extra", extra}, {"pairs", pc.first}, {"caught", pc.second}});
    metrics[metric] = {
        {"per_sample_cv", finite(median_of(t.cv))},
        {"round_log_ratio_sd", finite(sd)},
        {"aa_pairs", t.aa},
        {"false_alarms", t.aa_alarms},
        {"false_alarm_rate", t.aa ? json(static_cast<double>(t.aa_alarms) / t.aa) : json()},
        {"detectable_effect_80", finite(n ? detectable_effect(sd, n, alpha_per_look, o.ab.noise, 0.80) : NAN)},
        {"detectable_effect_95", finite(n ? detectable_effect(sd, n, alpha_per_look, o.ab.noise, 0.95) : NAN)},
        {"injected", inj}};
  }
  json gate_inj = json::array();
  for (const auto& [extra, pc] : exit_caught)
    gate_inj.push_back({{"extra", extra}, {"pairs", pc.first}, {"caught", pc.second}});
  const double wall = median_of(walls), self = median_of(selfs);
  return {{"name", mode},
          {"command", command},
          {"rounds_median", finite(n_rounds)},
          {"seconds_per_pair", finite(median_of(seconds))},
          {"gate",
           {{"metric_chosen", gated},
            {"aa_pairs", aa_pairs.size()},
            {"false_alarms", exit_alarms},
            {"injected", gate_inj}}},
          {"perturbation",
           {{"wall_ms_under_perfgate", finite(wall)},
            {"self_timed_wall_ms", finite(self)},
            {"fraction", finite(self > 0 ? wall / self - 1 : NAN)}}},
          {"metrics", metrics}};
}

// Duet against sequential rounds of the same program in the same calibration: per-round
// log-ratio sd of the gated metrics and false alarms. Duet "wins" only with a smaller sd and no
// more false alarms; ab keeps sequential rounds as its default unless it does.
json duet_against_sequential(const json& workloads) {
  const json *seq = nullptr, *duet = nullptr;
  for (const auto& w : workloads) {
    if (w["name"] == "cpu") seq = &w;
    if (w["name"] == "cpu-duet") duet = &w;
  }
  if (!seq || !duet) return json();
  json out = json::object();
  bool wins = true;
  for (const char* m : {"cpu_ms", "wall_ms"}) {
    const json& s = field(field(*seq, "metrics"), m);
    const json& d = field(field(*duet, "metrics"), m);
    if (!s.is_object() || !d.is_object()) continue;
    out[m] = {{"sequential_round_log_ratio_sd", s["round_log_ratio_sd"]},
              {"duet_round_log_ratio_sd", d["round_log_ratio_sd"]},
              {"sequential_false_alarms", s["false_alarms"]},
              {"duet_false_alarms", d["false_alarms"]},
              {"aa_pairs", {s["aa_pairs"], d["aa_pairs"]}}};
    const bool smaller = s["round_log_ratio_sd"].is_number() && d["round_log_ratio_sd"].is_number() &&
                         d["round_log_ratio_sd"].get<double>() < s["round_log_ratio_sd"].get<double>();
    const double rate_s = s["false_alarm_rate"].is_number() ? s["false_alarm_rate"].get<double>() : 0;
    const double rate_d = d["false_alarm_rate"].is_number() ? d["false_alarm_rate"].get<double>() : 1;
    wins = wins && smaller && rate_d <= rate_s;
  }
  out["duet_wins"] = wins;
  return out;
}

}  // namespace

double detectable_effect(double sd, int rounds, double alpha, double noise, double power) {
  if (!std::isfinite(sd) || rounds < 2) return std::nan("");
  boost::math::normal z;
  const double k = boost::math::quantile(z, 1 - alpha / 2) + boost::math::quantile(z, power);
  return std::exp(std::log1p(noise) + k * 1.2533 * sd / std::sqrt(static_cast<double>(rounds))) - 1;
}

json run_calibration(const CalibrationOptions& o_in) {
  CalibrationOptions o = o_in;
  // Duet needs two CPUs for this process; on one, only sequential rounds can be calibrated.
  if (measure::allowed_cpus().size() < 2 || o.ab.cpus)
    o.workloads.erase(std::remove(o.workloads.begin(), o.workloads.end(), "cpu-duet"), o.workloads.end());
  try {
    run::check_counting_measure("instructions");
  } catch (const UsageError&) {  // no valgrind here: calibrate what can be measured
    o.workloads.erase(std::remove(o.workloads.begin(), o.workloads.end(), "cpu-counted"), o.workloads.end());
  }
  if (o.program.empty())
    o.program = catalog::executable_dir().parent_path() / "libexec" / "perfgate" / "calibration_work";
  if (!fs::exists(o.program))
    throw RunError("calibrate: the calibration program " + o.program.string() +
                   " is missing (build target calibration_work)");
  const auto start = std::chrono::steady_clock::now();
  TempDir dir("perfgate-calibrate-");
  auto work_of = [&](const std::string& mode) {
    // Under valgrind a sample runs ~50x longer: a tenth of the work keeps the pair short.
    return mode == "cpu" || mode == "cpu-duet" ? o.cpu_iterations
           : mode == "cpu-counted"             ? o.cpu_iterations / 10
           : mode == "syscall"                 ? o.syscalls
                                               : o.memory_mib;
  };
  std::map<std::string, std::vector<Pair>> aa;
  std::map<std::string, std::map<double, std::vector<Pair>>> injected;
  // Round-robin over kinds of pair, each over every workload, so a short budget still samples
  // each of them; A/A twice per cycle: false alarms need the most pairs.
  std::vector<std::pair<std::string, double>> cycle;
  for (const auto& w : o.workloads) cycle.push_back({w, 0.0});
  for (double x : o.extra_work)
    for (const auto& w : o.workloads) cycle.push_back({w, x});
  for (const auto& w : o.workloads) cycle.push_back({w, 0.0});
  double last = 0;
  int serial = 0;
  std::string stop = "budget";
  for (std::size_t i = 0;; i = (i + 1) % cycle.size()) {
    if (seconds_since(start) + last > o.budget_s && serial >= 1) break;
    const auto& [mode, extra] = cycle[i];
    const std::uint64_t n = work_of(mode);
    const auto n_after = static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * (1 + extra)));
    Pair p = run_pair(o, dir, mode, n, n_after, ++serial);
    last = p.seconds;
    (extra == 0 ? aa[mode] : injected[mode][extra]).push_back(std::move(p));
  }
  auto probe = plan::plan_ab("probe", {o.program.string()}, {o.program.string()}, o.metric, o.ab);
  json workloads = json::array();
  for (const auto& w : o.workloads)
    workloads.push_back(workload_summary(w, {o.program.string(), w, std::to_string(work_of(w))}, aa[w], injected[w], o,
                                         probe.alpha_per_look));
  json defaults = probe.options_json();
  json duet = duet_against_sequential(workloads);
  defaults["metric"] = o.metric;
  return {{"kind", "perfgate-calibration"},
          {"version", 1},
          {"budget_s", o.budget_s},
          {"elapsed_s", seconds_since(start)},
          {"pairs", serial},
          {"stop", stop},
          {"load_average", measure::load_average()},
          {"defaults", defaults},
          {"notes",
           {"false alarms and catches of the gated metric are exit codes of `perfgate ab` (gate); per metric they "
            "are the comparison's verdict, uncorrected for metrics ab does not gate",
            "detectable_effect_*: from the pooled per-round log-ratio sd of the A/A pairs at their median round count "
            "and ab's per-look alpha, noise band included (normal approximation)",
            "perturbation: median wall under perfgate against the program's own median wall (steady clock from main "
            "to exit): process creation, cgroup placement and exit are the difference"}},
          {"workloads", workloads},
          {"duet_vs_sequential", duet}};
}

void print_calibration(std::ostream& out, const json& doc) {
  out << "perfgate calibrate: " << doc["pairs"] << " pairs in " << std::fixed << std::setprecision(0)
      << doc["elapsed_s"].get<double>() << " s (load " << doc["load_average"].dump() << ")\n";
  auto pct = [](const json& v) {
    if (!v.is_number()) return std::string("   -  ");
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << std::setw(5) << 100 * v.get<double>() << "%";
    return s.str();
  };
  for (const auto& w : doc["workloads"]) {
    const auto& g = w["gate"];
    out << "\n"
        << w["name"].get<std::string>() << ": " << g["aa_pairs"] << " A/A pairs, " << g["false_alarms"]
        << " false alarms (exit 1); rounds " << w["rounds_median"].dump() << ", s/pair " << w["seconds_per_pair"].dump()
        << "; harness wall perturbation " << pct(w["perturbation"]["fraction"]) << "\n";
    for (const auto& i : g["injected"])
      out << "  +" << 100 * i["extra"].get<double>() << "% work: caught " << i["caught"] << "/" << i["pairs"] << "\n";
    out << "  metric          cv     sd/round  alarms  detect80  detect95\n";
    for (const auto& [m, v] : w["metrics"].items()) {
      if (m != "wall_ms" && m != "cpu_ms" && m != "user_ms" && m != "sys_ms" && m != "peak_rss_kib" &&
          m != "instructions")
        continue;
      out << "  " << std::left << std::setw(14) << m << std::right << pct(v["per_sample_cv"]) << "   "
          << pct(v["round_log_ratio_sd"]) << "   " << std::setw(2) << v["false_alarms"] << "/" << std::setw(3)
          << v["aa_pairs"] << "  " << pct(v["detectable_effect_80"]) << "   " << pct(v["detectable_effect_95"]) << "\n";
    }
  }
  const json& duet = doc["duet_vs_sequential"];
  if (!duet.is_object()) return;
  for (const char* m : {"cpu_ms", "wall_ms"})
    if (duet.contains(m))
      out << "\nduet vs sequential rounds, " << m << ": per-round log-ratio sd "
          << pct(duet[m]["duet_round_log_ratio_sd"]) << " vs " << pct(duet[m]["sequential_round_log_ratio_sd"])
          << ", false alarms " << duet[m]["duet_false_alarms"] << " vs " << duet[m]["sequential_false_alarms"];
  out << "\n"
      << (duet.value("duet_wins", false) ? "duet wins here: consider `ab --duet`\n"
                                         : "duet does not win here: ab keeps sequential rounds\n");
}

}  // namespace perfgate::cli
