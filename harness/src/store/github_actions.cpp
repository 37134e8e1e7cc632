#include "store/github_actions.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>

#include "common/errors.hpp"
#include "common/number_format.hpp"

namespace perfgate::store {

namespace {

std::string num(double d) { return std::isfinite(d) ? format_number(d) : "-"; }

std::string cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

std::string mark(const std::optional<bool>& passed) {
  if (!passed) return "➖ n/a";
  return *passed ? "✅ pass" : "❌ FAIL";
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
  md << "## perfgate: " << (outcome.status == "passed" ? "✅ passed" : "❌ " + outcome.status) << " (exit "
     << outcome.exit_code << ")\n\n";
  md << "Commit `" << results.run.commit.substr(0, 12) << "`" << (results.run.dirty ? " (dirty)" : "") << ", profile `"
     << results.run.profile << "`, host `" << results.host.fingerprint << "` (" << results.host.cpu_model << ")";
  auto load = [](const std::vector<double>& l) { return l.empty() ? std::string("-") : num(l[0]); };
  md << ", load " << load(results.host.load_before) << " → " << load(results.host.load_after) << ".\n\n";
  md << "| scenario | metric | before | after | ratio [95% CI] | verdict | gate |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& s : results.scenarios) {
    const std::string name = title_of(s);
    bool any = false;
    for (const auto& c : s.comparisons) {
      if (!c.gated) continue;
      auto med = [&](const std::string& v) {
        auto sv = s.summaries.find(v);
        return sv != s.summaries.end() && sv->second.count(c.metric) ? num(sv->second.at(c.metric).s.median)
                                                                     : std::string("-");
      };
      std::optional<bool> policy;
      for (const auto& g : s.gates)
        if (g.kind == "policy") policy = g.passed;
      md << "| " << cell(name) << " | " << cell(c.metric) << " | " << med(c.baseline) << " | " << med(c.variant)
         << " | " << num(c.r.ratio) << "x [" << num(c.r.ci.lo) << ", " << num(c.r.ci.hi) << "] | "
         << stats::to_string(c.verdict) << " | "
         << (!policy && !s.error ? "-"
             : !policy           ? "❌ error"
                                 : mark(policy))
         << " |\n";
      any = true;
    }
    if (!any) md << "| " << cell(name) << " | - | | | | not run | ❌ error |\n";
  }
  bool baseline_header = false;
  for (const auto& s : results.scenarios)
    for (const auto& g : s.gates)
      if (g.kind == "baseline") {
        if (!baseline_header) {
          md << "\n**Against baseline.json**\n\n| scenario | gate | result | detail |\n|---|---|---|---|\n";
          baseline_header = true;
        }
        md << "| " << cell(title_of(s)) << " | " << cell(g.name) << " | " << mark(g.passed) << " | " << cell(g.detail)
           << " |\n";
      }
  if (!outcome.failures.empty()) {
    md << "\n**Failures**\n\n";
    for (const auto& f : outcome.failures) md << "- " << cell(f) << "\n";
  }
  md << "\n";
  return md.str();
}

void write_annotations(std::ostream& out, const model::ResultsDoc& results) {
  for (const auto& s : results.scenarios) {
    const std::string title = "perfgate " + title_of(s);
    if (s.error)
      out << "::error title=" << github_escape(title, true)
          << "::" << github_escape("could not run: " + s.error->message) << "\n";
    for (const auto& g : s.gates) {
      if (!g.passed)
        out << "::warning title=" << github_escape(title + ": " + g.kind, true) << "::" << github_escape(g.detail)
            << "\n";
      else if (!*g.passed)
        out << "::error title=" << github_escape(title + ": " + g.kind + " gate failed", true)
            << "::" << github_escape(g.name + ": " + g.detail) << "\n";
    }
    for (const auto& b : s.baseline)
      if (b.absolute_compared && b.absolute_verdict == "worse")
        out << "::warning title=" << github_escape(title + ": absolute figure", true) << "::"
            << github_escape(b.metric + " of " + b.variant +
                             " is significantly worse than the baseline's on the same host (not gated; "
                             "see the baseline gate's detail)")
            << "\n";
  }
}

void append_step_summary(const std::filesystem::path& path, const model::ResultsDoc& results) {
  const std::string text = markdown_summary(results);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw RunError("cannot append to $GITHUB_STEP_SUMMARY " + path.string() + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace perfgate::store
