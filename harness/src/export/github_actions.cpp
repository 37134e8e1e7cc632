#include "export/github_actions.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "common/errors.hpp"
#include "common/number_format.hpp"
#include "export/verdict_rows.hpp"

namespace perfgate::exports {

// GitHub's runner sets GITHUB_ACTIONS=true in every step (docs: "Default environment variables").
bool on_github_actions() {
  const char* v = std::getenv("GITHUB_ACTIONS");
  return v && std::strcmp(v, "true") == 0;
}

namespace {

std::string num(double d) { return std::isfinite(d) ? format_number(d) : "-"; }

std::string cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

// A reason in a table cell: a long one (a request path, a digest) is cut, the whole of it being
// in the gate's annotation and the results file.
std::string shortened(const std::string& text, std::size_t at = 200) {
  if (text.size() <= at) return text;
  std::size_t cut = at;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return text.substr(0, cut) + " …";
}

std::string title_of(const model::ScenarioResult& s) {
  return (s.name.empty() ? "?" : s.name) + " (" + s.profile + ")";
}

}  // namespace

std::string github_escape(const std::string& text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else if (property && c == ':')
      out += "%3A";
    else if (property && c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

std::string markdown_summary(const model::ResultsDoc& results) {
  std::ostringstream md;
  const auto& outcome = results.outcome;
  md << "## perfgate: "
     << (outcome.status == model::RunStatus::Passed ? std::string("✅ passed")
                                                    : "❌ " + std::string(name_of(outcome.status)))
     << " (exit " << outcome.exit_code << ")\n\n";
  md << "Commit `" << results.run.commit.substr(0, 12) << "`" << (results.run.dirty ? " (dirty)" : "") << ", profile `"
     << results.run.profile << "`, host `" << results.host.fingerprint << "` (" << results.host.cpu_model << ")";
  auto load = [](const std::vector<double>& l) { return l.empty() ? std::string("-") : num(l[0]); };
  md << ", load " << load(results.host.load_before) << " → " << load(results.host.load_after) << ".\n\n";
  // The gates only: one row each with its own result; a failure says why in its verdict cell.
  md << "| scenario | gate | metric | before | after | ratio [interval] | verdict | result |\n"
     << "|---|---|---|--:|--:|---|---|---|\n";
  for (const auto& s : results.scenarios)
    for (const auto& r : verdict_rows(s)) {
      if (r.informational()) continue;
      const std::string metric = r.metric.empty() ? "" : "`" + r.metric + "`" + (r.primary ? " *" : "");
      md << "| " << cell(title_of(s)) << " | " << cell(r.gate) << " | " << cell(metric) << " | " << cell(r.before)
         << " | " << cell(r.after) << " | " << cell(r.ratio) << " | "
         << cell(r.reason.empty() ? r.verdict : shortened(r.reason)) << " | " << result_mark(r) << " |\n";
    }
  md << "\n\\* the scenario's gated metric; ratio = after/before with its interval; a baseline row's before and "
        "after are the accepted ratio and this run's.\n\n";
  return md.str();
}

std::string annotations(const model::ResultsDoc& results) {
  std::ostringstream out;
  for (const auto& s : results.scenarios) {
    const std::string title = "perfgate " + title_of(s);
    // One message per failure: the scenario's error only when no failed gate already says it.
    if (s.error && !error_is_a_gate(s))
      out << "::error title=" << github_escape(title, true)
          << "::" << github_escape("could not run: " + s.error->message) << "\n";
    for (const auto& g : s.gates) {
      if (g.cannot_tell())
        out << "::warning title=" << github_escape(title + ": " + std::string(name_of(g.kind)) + " cannot tell", true)
            << "::" << github_escape(g.name + ": " + failure_detail(g)) << "\n";
      else if (g.outcome == model::GateOutcome::Undecided && !s.error)
        out << "::warning title=" << github_escape(title + ": " + std::string(name_of(g.kind)), true)
            << "::" << github_escape(g.detail) << "\n";
      else if (g.failed())
        out << "::error title=" << github_escape(title + ": " + std::string(name_of(g.kind)) + " gate failed", true)
            << "::" << github_escape(g.name + ": " + failure_detail(g)) << "\n";
    }
    for (const auto& b : s.baseline)
      if (b.absolute_compared && b.absolute_verdict == stats::Verdict::Worse)
        out << "::warning title=" << github_escape(title + ": absolute figure", true) << "::"
            << github_escape(b.metric + " of " + b.variant +
                             " is significantly worse than the baseline's on the same host (not gated; "
                             "see the baseline gate's detail)")
            << "\n";
  }
  return out.str();
}

}  // namespace perfgate::exports
