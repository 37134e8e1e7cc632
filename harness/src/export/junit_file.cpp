#include "export/junit_file.hpp"

#include <cstdio>
#include <sstream>

#include "common/files.hpp"
#include "export/verdict_rows.hpp"
#include "perfgate/xml_escape.hpp"

namespace perfgate::exports {

// Attribute rules everywhere, element text included: newlines as &#10;, as JUnit readers expect.
std::string xml_escape(const std::string& s) { return perfgate::xml_escaped(s, perfgate::XmlEscape::Attribute); }

namespace {

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// Time a scenario's samples took: the sum of their wall clocks.
double scenario_seconds(const model::ScenarioResult& s) {
  double ms = 0;
  for (const auto& x : s.samples)
    if (auto w = x.metrics.find("wall_ms"); w != x.metrics.end()) ms += w->second.value;
  return ms / 1000;
}

}  // namespace

std::string junit_xml(const model::ResultsDoc& results) {
  // <testsuites> has no "skipped" attribute in the Jenkins/Surefire schema; the suites carry it.
  int tests = 0, failures = 0, errors = 0;
  double total_time = 0;
  std::ostringstream suites;
  const std::string& hostname = results.host.hostname;
  const std::string& timestamp = results.run.started_at;
  int id = 0;
  for (const auto& s : results.scenarios) {
    const std::string name = s.name.empty() ? "?" : s.name, profile = s.profile;
    const std::string classname = "perfgate." + name + "." + profile;
    int t = 0, f = 0, e = 0, k = 0;
    std::ostringstream cases;
    const double time = scenario_seconds(s);
    for (const auto& g : s.gates) {
      ++t;
      cases << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\""
            << xml_escape(std::string(name_of(g.kind)) + ": " + g.name) << "\" time=\"0\">\n";
      if (g.cannot_tell()) {  // never a pass: a failure of its own type
        ++f;
        cases << "      <failure message=\"" << xml_escape(failure_message(g)) << "\" type=\"cannot tell\">"
              << xml_escape(g.detail) << "</failure>\n";
      } else if (g.outcome == model::GateOutcome::Undecided) {
        ++k;
        cases << "      <skipped message=\"" << xml_escape(g.detail) << "\"/>\n";
      } else if (g.failed()) {
        ++f;
        cases << "      <failure message=\"" << xml_escape(failure_message(g)) << "\" type=\""
              << xml_escape(std::string(name_of(g.kind))) << "\">" << xml_escape(g.detail) << "</failure>\n";
      }
      cases << "    </testcase>\n";
    }
    if (s.error && !error_is_a_gate(s)) {  // exit 3 is the equivalence gate's failure, said once above
      ++t;
      ++e;
      cases << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\"run\" time=\"" << seconds(time)
            << "\">\n      <error message=\"" << xml_escape(s.error->message) << "\" type=\"exit " << s.error->exit_code
            << "\">" << xml_escape(s.error->stderr_tail.value_or(s.error->message)) << "</error>\n    </testcase>\n";
    }
    tests += t;
    failures += f;
    errors += e;
    total_time += time;
    suites << "  <testsuite name=\"" << xml_escape(name + " (" + profile + ")") << "\" id=\"" << id++
           << "\" package=\"perfgate\" tests=\"" << t << "\" failures=\"" << f << "\" errors=\"" << e << "\" skipped=\""
           << k << "\" time=\"" << seconds(time) << "\" timestamp=\"" << xml_escape(timestamp) << "\" hostname=\""
           << xml_escape(hostname) << "\">\n"
           << "    <properties>\n"
           << "      <property name=\"policy\" value=\"" << xml_escape(s.policy ? std::string(name_of(*s.policy)) : "")
           << "\"/>\n"
           << "      <property name=\"primary_metric\" value=\"" << xml_escape(s.primary_metric) << "\"/>\n"
           << "      <property name=\"commit\" value=\"" << xml_escape(results.run.commit) << "\"/>\n"
           << "    </properties>\n"
           << cases.str() << "  </testsuite>\n";
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"perfgate\" tests=\"" << tests << "\" failures=\"" << failures << "\" errors=\"" << errors
      << "\" time=\"" << seconds(total_time) << "\">\n"
      << suites.str() << "</testsuites>\n";
  return out.str();
}

}  // namespace perfgate::exports
