#include "export/calibration_text.hpp"

#include <iomanip>
#include <sstream>
#include <string>

#include "common/number_format.hpp"

namespace perfgate::exports {

using json = nlohmann::json;

void print_calibration(std::ostream& out, const json& doc) {
  out << "perfgate calibrate: " << doc["pairs"] << " pairs in " << std::fixed << std::setprecision(0)
      << doc["elapsed_s"].get<double>() << " s (load " << doc["load_average"].dump() << ")\n";
  auto pct = [](const json& v) {
    if (!v.is_number()) return std::string("   -  ");
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << std::setw(5) << 100 * v.get<double>() << "%";
    return s.str();
  };
  auto one_decimal = [](const json& v) {
    if (!v.is_number()) return std::string("-");
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << v.get<double>();
    return s.str();
  };
  for (const auto& w : doc["workloads"]) {
    const auto& g = w["gate"];
    out << "\n"
        << w["name"].get<std::string>() << ": " << g["aa_pairs"] << " A/A pairs, " << g["false_alarms"]
        << " false alarms (exit 1); rounds " << one_decimal(w["rounds_median"]) << ", s/pair "
        << one_decimal(w["seconds_per_pair"]) << "; harness wall perturbation " << pct(w["perturbation"]["fraction"])
        << "\n";
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

void print_layout_spread(std::ostream& out, const store::LayoutSpread& spread) {
  out << "layout alone moves " << spread.program << " ±" << format_quantity(100 * spread.spread, "%")
      << " on this machine (" << spread.cpu_model << "): " << spread.layouts << " layouts, " << spread.rounds
      << " rounds of each against itself, " << spread.metric << "\n";
  out << "layout means:";
  for (double m : spread.medians) out << " " << format_quantity(m, spread.unit);
  out << "\nthe layouts' own sd: " << format_quantity(100 * spread.layout_sd, "%") << " beyond the rounds' noise of "
      << format_quantity(100 * spread.noise_sd, "%") << " a run";
  if (spread.layout_sd > 0)
    out << "\na single-layout A/B (two prebuilt executables) can trust a change of "
        << format_quantity(100 * spread.trusted_change, "%")
        << " or more: two random layouts differ by less in 95% of pairs\n";
  else
    out << "\nthe layouts moved nothing beyond the rounds' noise here: a single-layout A/B is limited by its "
           "noise, not by layout (more --layout-rounds would resolve a smaller layout effect)\n";
  out << "kept in " << store::layout_spread_file(spread.program).string() << ": ab's caveat on two executables named "
      << spread.program << " quotes it\n";
}

}  // namespace perfgate::exports
