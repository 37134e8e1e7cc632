#include "export/ab_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "export/text_table.hpp"

namespace perfgate::exports {
namespace {

struct Unit {
  const char* name;
  const char* symbol;
  double per_ms;  // how many of it in a millisecond
};

Unit unit_for(const std::string& asked, double fastest_ms) {
  const Unit us{"microsecond", "µs", 1000}, ms{"millisecond", "ms", 1}, s{"second", "s", 0.001};
  if (asked == "microsecond") return us;
  if (asked == "millisecond") return ms;
  if (asked == "second") return s;
  return fastest_ms < 1 ? us : fastest_ms < 1000 ? ms : s;
}

std::string number(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string time(double ms, const Unit& u) { return number(ms * u.per_ms, 1) + " " + u.symbol; }

std::string ratio(double r) { return number(r, 3) + "x"; }

std::vector<const model::ScenarioResult*> ab_scenarios(const model::ResultsDoc& doc) {
  std::vector<const model::ScenarioResult*> out;
  for (const auto& s : doc.scenarios)
    if (s.kind == catalog::ScenarioKind::Ab) out.push_back(&s);
  return out;
}

double fastest_wall(const std::vector<const model::ScenarioResult*>& ab) {
  double fastest = INFINITY;
  for (const auto* s : ab)
    for (const char* v : {"before", "after"})
      if (const auto* m = metric_summary(*s, v, "wall_ms")) fastest = std::min(fastest, m->s.median);
  return std::isfinite(fastest) ? fastest : 1;
}

std::string params_text(const model::ScenarioResult& s, const std::string& variant) {
  std::string out;
  for (const auto& [k, v] : command_parameters(s, variant)) out += (out.empty() ? "" : ", ") + k + "=" + v;
  return out;
}

// Rows that read alike (the same command typed twice) get their place among them: "X (2)".
void number_equal(std::vector<std::string>& names) {
  std::map<std::string, int> count, seen;
  for (const auto& n : names) ++count[n];
  for (auto& n : names)
    if (const std::string name = n; count[name] > 1) n = name + " (" + std::to_string(++seen[name]) + ")";
}

}  // namespace

std::map<std::string, std::string> command_parameters(const model::ScenarioResult& s, const std::string& variant) {
  std::map<std::string, std::string> out;
  if (s.sampling && s.sampling->contains(variant) && (*s.sampling)[variant].contains("parameters")) {
    for (const auto& [k, v] : (*s.sampling)[variant]["parameters"].items())
      out[k] = v.is_string() ? v.get<std::string>() : v.dump();
    return out;
  }
  for (const auto& [k, v] : s.params.items()) out[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return out;
}

std::vector<AbCommand> ab_commands(const model::ResultsDoc& doc) {
  std::vector<AbCommand> out;
  std::map<std::pair<std::string, std::map<std::string, std::string>>, std::size_t> references;
  for (const auto& s : doc.scenarios) {
    if (s.kind != catalog::ScenarioKind::Ab) continue;
    const auto key = std::make_pair(ab_command_label(s, "before"), command_parameters(s, "before"));
    if (const auto it = references.find(key); it != references.end())
      ++out[it->second].pairs;
    else {
      references.emplace(key, out.size());
      out.push_back({&s, "before"});
    }
    out.push_back({&s, "after"});
  }
  return out;
}

const model::MetricSummary* metric_summary(const model::ScenarioResult& s, const std::string& variant,
                                           const char* metric) {
  const auto v = s.summaries.find(variant);
  if (v == s.summaries.end()) return nullptr;
  const auto m = v->second.find(metric);
  return m == v->second.end() ? nullptr : &m->second;
}

std::string ab_command_label(const model::ScenarioResult& s, const std::string& variant) {
  for (const auto& v : s.variants)
    if (v.name == variant && !v.label.empty()) return v.label;
  if (s.commands && s.commands->count(variant)) {
    std::string line;
    for (const auto& w : s.commands->at(variant)) line += (line.empty() ? "" : " ") + w;
    // A command run through the shell reads as the user typed it.
    const auto& argv = s.commands->at(variant);
    if (argv.size() >= 3 && argv[argv.size() - 2] == "-c") return argv.back();
    return line;
  }
  return variant;
}

void print_ab_summary(std::ostream& out, const model::ResultsDoc& doc, const std::string& unit) {
  const auto ab = ab_scenarios(doc);
  if (ab.empty()) return;
  const Unit u = unit_for(unit, fastest_wall(ab));
  TextRows rows{{"", "command", "wall median", "mean ± σ", "min … max", "cpu median", "rounds"}};
  for (const auto& cmd : ab_commands(doc)) {
    const auto& s = *cmd.scenario;
    const auto* w = metric_summary(s, cmd.variant, "wall_ms");
    const auto* c = metric_summary(s, cmd.variant, "cpu_ms");
    if (!w) continue;
    const std::string params = params_text(s, cmd.variant);
    rows.push_back({cmd.reference() ? "reference" : "",
                    ab_command_label(s, cmd.variant) + (params.empty() ? "" : "  [" + params + "]"),
                    time(w->s.median, u), time(w->s.mean, u) + " ± " + time(w->s.stddev, u),
                    time(w->s.min, u) + " … " + time(w->s.max, u), c ? time(c->s.median, u) : "-",
                    std::to_string(w->s.n) +
                        (cmd.pairs > 1 ? " (1st of " + std::to_string(cmd.pairs) + " pairs that ran it)" : "")});
  }
  if (rows.size() == 1) return;
  out << "\n";
  print_text_table(out, rows, true);
  bool family = false;
  for (const auto* s : ab) family = family || !s->params.empty() || ab.size() > 1;
  if (!family) return;
  TextRows fam{{"pair", "metric", "ratio", "interval", "verdict"}};
  std::vector<std::string> names;
  for (const auto* s : ab) {
    const auto* c = s->find("after", s->primary_metric);
    if (!c) continue;
    const std::string params = params_text(*s, "after");
    names.push_back(ab_command_label(*s, "after") + (params.empty() ? "" : "  [" + params + "]"));
    fam.push_back({"", c->metric, ratio(c->r.ratio), "[" + number(c->r.ci.lo, 3) + ", " + number(c->r.ci.hi, 3) + "]",
                   std::string(name_of(c->verdict))});
  }
  number_equal(names);
  for (std::size_t i = 0; i < names.size(); ++i) fam[i + 1][0] = names[i];
  out << "\nEach against the reference (one Holm family):\n";
  print_text_table(out, fam, true);
}

std::string ab_markdown(const model::ResultsDoc& doc, const std::string& unit) {
  const auto ab = ab_scenarios(doc);
  const Unit u = unit_for(unit, fastest_wall(ab));
  std::ostringstream md;
  const std::string sym = u.symbol;
  md << "| Command | Mean [" << sym << "] | Median [" << sym << "] | Min [" << sym << "] | Max [" << sym
     << "] | Relative | Gated ratio | Verdict |\n|:---|---:|---:|---:|---:|---:|---:|:---|\n";
  for (const auto& cmd : ab_commands(doc)) {
    const auto& s = *cmd.scenario;
    const auto* w = metric_summary(s, cmd.variant, "wall_ms");
    if (!w) continue;
    const bool after = !cmd.reference();
    const auto* wb = metric_summary(s, "before", "wall_ms");
    const auto* c = s.find("after", s.primary_metric);
    std::string escaped;
    for (char ch : ab_command_label(s, cmd.variant)) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
    const std::string params = params_text(s, cmd.variant);
    md << "| `" << escaped << "`" << (params.empty() ? "" : " (" + params + ")") << " | "
       << number(w->s.mean * u.per_ms, 1) << " ± " << number(w->s.stddev * u.per_ms, 1) << " | "
       << number(w->s.median * u.per_ms, 1) << " | " << number(w->s.min * u.per_ms, 1) << " | "
       << number(w->s.max * u.per_ms, 1) << " | "
       << (after && wb && wb->s.mean > 0 ? number(w->s.mean / wb->s.mean, 2) : std::string("1.00")) << " | "
       << (after && c ? ratio(c->r.ratio) + " " + c->metric : std::string("reference")) << " | "
       << (after && c ? std::string(name_of(c->verdict)) : std::string("")) << " |\n";
  }
  return md.str();
}

std::string ab_csv(const model::ResultsDoc& doc) {
  const auto commands = ab_commands(doc);
  std::vector<std::string> params;
  for (const auto& cmd : commands)
    for (const auto& [k, v] : command_parameters(*cmd.scenario, cmd.variant))
      if (std::find(params.begin(), params.end(), k) == params.end()) params.push_back(k);
  auto quote = [](const std::string& t) {
    std::string q = "\"";
    for (char c : t) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::ostringstream csv;
  csv << "command,mean,stddev,median,user,system,min,max";
  for (const auto& p : params) csv << ",parameter_" << p;
  csv << ",role,gated_metric,ratio,ratio_lo,ratio_hi,verdict\n";
  for (const auto& cmd : commands) {
    const auto& s = *cmd.scenario;
    const auto* w = metric_summary(s, cmd.variant, "wall_ms");
    if (!w) continue;
    const auto* user = metric_summary(s, cmd.variant, "user_ms");
    const auto* sys = metric_summary(s, cmd.variant, "sys_ms");
    auto sec = [](double ms) { return number(ms / 1000, 9); };
    csv << quote(ab_command_label(s, cmd.variant)) << "," << sec(w->s.mean) << "," << sec(w->s.stddev) << ","
        << sec(w->s.median) << "," << (user ? sec(user->s.mean) : "") << "," << (sys ? sec(sys->s.mean) : "") << ","
        << sec(w->s.min) << "," << sec(w->s.max);
    const auto values = command_parameters(s, cmd.variant);
    for (const auto& p : params) csv << "," << (values.count(p) ? quote(values.at(p)) : "");
    const auto* c = cmd.reference() ? nullptr : s.find("after", s.primary_metric);
    csv << "," << (c ? "compared" : "reference") << "," << (c ? c->metric : "") << ","
        << (c ? number(c->r.ratio, 6) : "") << "," << (c ? number(c->r.ci.lo, 6) : "") << ","
        << (c ? number(c->r.ci.hi, 6) : "") << "," << (c ? std::string(name_of(c->verdict)) : "") << "\n";
  }
  return csv.str();
}

}  // namespace perfgate::exports
