#include "store/github_actions.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "common/errors.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

std::string num(const json& v) {
  if (!v.is_number()) return "-";
  double d = v.get<double>();
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(d) >= 1000 ? "%.0f" : std::fabs(d) >= 10 ? "%.1f" : "%.3g", d);
  return buf;
}

std::string cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

std::string mark(const json& passed) {
  if (passed.is_null()) return "➖ n/a";
  return passed.get<bool>() ? "✅ pass" : "❌ FAIL";
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

std::string markdown_summary(const json& results) {
  std::ostringstream md;
  const json& outcome = results["outcome"];
  const std::string status = outcome.value("status", "?");
  md << "## perfgate: " << (status == "passed" ? "✅ passed" : "❌ " + status) << " (exit "
     << outcome.value("exit_code", 0) << ")\n\n";
  const json& run = results["run"];
  md << "Commit `" << (run.contains("git") ? run["git"].value("commit", "?").substr(0, 12) : "?") << "`"
     << (run.contains("git") && run["git"].value("dirty", false) ? " (dirty)" : "") << ", profile `"
     << run.value("profile", "") << "`, host `" << results["host"].value("fingerprint", "") << "` ("
     << results["host"].value("cpu_model", "") << ")";
  auto load = [](const json& l) { return l.is_array() && !l.empty() ? num(l[0]) : std::string("-"); };
  md << ", load " << load(results["host"].value("load_before", json())) << " → "
     << load(results["host"].value("load_after", json())) << ".\n\n";
  md << "| scenario | metric | before | after | ratio [95% CI] | verdict | gate |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& s : results["scenarios"]) {
    const std::string name = s.value("name", "?") + " (" + s.value("profile", "") + ")";
    bool any = false;
    for (const auto& c : s.value("comparisons", json::array())) {
      if (!c.value("gated", false)) continue;
      const std::string metric = c.value("metric", "");
      const json& sum = s["summaries"];
      auto med = [&](const std::string& v) {
        return sum.contains(v) && sum[v].contains(metric) ? num(sum[v][metric]["median"]) : std::string("-");
      };
      json policy;
      for (const auto& g : s["gates"])
        if (g.value("kind", "") == "policy") policy = g["passed"];
      md << "| " << cell(name) << " | " << cell(metric) << " | " << med(c.value("baseline", "before")) << " | "
         << med(c.value("variant", "after")) << " | " << num(c["ratio"]) << "x [" << num(c["ci"][0]) << ", "
         << num(c["ci"][1]) << "] | " << c.value("verdict", "-") << " | "
         << (policy.is_null() && !s.contains("error") ? "-"
             : policy.is_null()                       ? "❌ error"
                                                      : mark(policy))
         << " |\n";
      any = true;
    }
    if (!any) md << "| " << cell(name) << " | - | | | | not run | ❌ error |\n";
  }
  bool baseline_header = false;
  for (const auto& s : results["scenarios"])
    for (const auto& g : s.value("gates", json::array()))
      if (g.value("kind", "") == "baseline") {
        if (!baseline_header) {
          md << "\n**Against baseline.json**\n\n| scenario | gate | result | detail |\n|---|---|---|---|\n";
          baseline_header = true;
        }
        md << "| " << cell(s.value("name", "?") + " (" + s.value("profile", "") + ")") << " | "
           << cell(g.value("name", "")) << " | " << mark(g["passed"]) << " | " << cell(g.value("detail", "")) << " |\n";
      }
  const json& failures = outcome.value("failures", json::array());
  if (!failures.empty()) {
    md << "\n**Failures**\n\n";
    for (const auto& f : failures) md << "- " << cell(f.get<std::string>()) << "\n";
  }
  md << "\n";
  return md.str();
}

void write_annotations(std::ostream& out, const json& results) {
  for (const auto& s : results["scenarios"]) {
    const std::string title = "perfgate " + s.value("name", "?") + " (" + s.value("profile", "") + ")";
    if (s.contains("error"))
      out << "::error title=" << github_escape(title, true)
          << "::" << github_escape("could not run: " + s["error"].value("message", "error")) << "\n";
    for (const auto& g : s.value("gates", json::array())) {
      const std::string kind = g.value("kind", ""), detail = g.value("detail", "");
      if (g["passed"].is_null())
        out << "::warning title=" << github_escape(title + ": " + kind, true) << "::" << github_escape(detail) << "\n";
      else if (!g["passed"].get<bool>())
        out << "::error title=" << github_escape(title + ": " + kind + " gate failed", true)
            << "::" << github_escape(g.value("name", "") + ": " + detail) << "\n";
    }
    for (const auto& b : s.value("baseline", json::array()))
      if (b.contains("absolute") && b["absolute"].contains("change") &&
          b["absolute"]["change"].value("verdict", "") == "worse")
        out << "::warning title=" << github_escape(title + ": absolute figure", true) << "::"
            << github_escape(b.value("metric", "") + " of " + b.value("variant", "after") +
                             " is significantly worse than the baseline's on the same host (not gated; "
                             "see the baseline gate's detail)")
            << "\n";
  }
}

void append_step_summary(const std::filesystem::path& path, const json& results) {
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
