#include "parity/markdown.hpp"

#include <sstream>

namespace perfgate::parity {

using nlohmann::json;

namespace {

std::string num(const json& v, int digits = 3) {
  if (!v.is_number()) return "—";
  std::ostringstream o;
  o.precision(digits);
  o << v.get<double>();
  return o.str();
}

void agreement(std::ostringstream& md, const json& ag) {
  md << "### Agreement pass\n\n"
     << ag["requests"] << " requests: " << ag["agreeing"] << " agree, " << ag["dropped"] << " dropped ("
     << ag["not_doing_the_work"] << " not doing the work); " << ag["leaves_compared_agreeing"]
     << " fields compared in the agreeing ones.\n\n";
  if (!ag["dropped_requests"].empty()) {
    md << "| dropped request | fields | not doing the work |\n|---|---|---|\n";
    for (const auto& d : ag["dropped_requests"]) {
      std::string fields, hollow;
      for (const auto& f : d["fields"]) fields += (fields.empty() ? "" : ", ") + ("`" + f.get<std::string>() + "`");
      for (const auto& h : d["not_doing_the_work"]) hollow += (hollow.empty() ? "" : "; ") + h.get<std::string>();
      md << "| `" << d["path"].get<std::string>() << "` | " << fields << " | " << hollow << " |\n";
    }
    md << "\n";
  }
  if (!ag["noise_fields"].empty()) {
    md << "Noise (differs within one server as often as between the two; not blamed):";
    for (const auto& [f, _] : ag["noise_fields"].items()) md << " `" << f << "`";
    md << "\n\n";
  }
}

void per_server(std::ostringstream& md, const json& per) {
  md << "| measure | A | B |\n|---|---|---|\n";
  auto row = [&](const std::string& label, auto get) {
    md << "| " << label << " | " << get(per.value("A", json::object())) << " | " << get(per.value("B", json::object()))
       << " |\n";
  };
  row("plateau req/s (at concurrency)", [](const json& s) {
    return s.contains("plateau") ? num(s["plateau"]["rps"]) + " (" + num(s["plateau"]["concurrency"]) + ")" : "—";
  });
  row("cores ÷ CPU per request (plateau share)", [](const json& s) {
    return s.contains("arithmetic") ? num(s["arithmetic"]["predicted_rps"]) + " (" +
                                          num(s["arithmetic"]["plateau_share_of_predicted"], 2) + ")"
                                    : "—";
  });
  row("offered → achieved req/s, p50/p90/p99 ms", [](const json& s) {
    std::string out;
    for (const auto& r : s.value("offered", json::array()))
      out += (out.empty() ? "" : "<br>") + num(r["offered_rps"]) + " → " + num(r["achieved_rps"]) + ", " +
             num(r["p50_ms"]) + "/" + num(r["p90_ms"]) + "/" + num(r["p99_ms"]);
    return out.empty() ? "—" : out;
  });
  row("RSS idle / peak KiB (a page once per mapping)", [](const json& s) {
    return num(s.value("rss_idle_kib", json()), 6) + " / " + num(s.value("rss_peak_kib", json()), 6);
  });
  row("PSS at the end KiB (a page once) / cgroup memory peak KiB", [](const json& s) {
    return num(s.value("pss_kib", json()), 6) + " / " + num(s.value("cgroup_memory_peak_kib", json()), 6);
  });
  row("cold start to first answer ms", [](const json& s) { return num(s.value("cold_start_ms", json())); });
  row("bytes per response", [](const json& s) { return num(s.value("bytes_per_response", json()), 5); });
  md << "\n";
}

}  // namespace

std::string parity_markdown(const json& doc) {
  std::ostringstream md;
  md << "## Parity: A " << doc["servers"].value("A", "") << " vs B " << doc["servers"].value("B", "") << "\n\n";
  if (doc.contains("agreement")) agreement(md, doc["agreement"]);
  if (doc.contains("refused")) md << "**Refused (exit 3):** " << doc["refused"].get<std::string>() << "\n\n";
  if (doc.contains("comparison")) {
    const auto& c = doc["comparison"];
    md << "### Timed comparison (agreeing requests only)\n\n"
       << c["what"].get<std::string>() << ": B/A = " << num(c.value("ratio_b_over_a", json())) << " ["
       << num(c.value("ci", json::array({0, 0}))[0]) << ", " << num(c.value("ci", json::array({0, 0}))[1])
       << "], p = " << num(c.value("p_wilcoxon", json()), 2) << ", " << c.value("rounds", 0) << " paired rounds.\n\n";
  }
  if (doc.contains("per_server")) per_server(md, doc["per_server"]);
  const auto& la = doc.value("load_before", json::array());
  if (la.size() == 3)
    md << "Load average before the run: " << num(la[0]) << ", " << num(la[1]) << ", " << num(la[2]) << ".\n";
  return md.str();
}

}  // namespace perfgate::parity
