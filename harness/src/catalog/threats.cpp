#include "catalog/threats.hpp"

#include <algorithm>

#include "catalog/manifest.hpp"

namespace perfgate::catalog {

const std::vector<std::string>& threat_classes() {
  static const std::vector<std::string> classes = {
      "cache.key",        "cache.freshness", "cache.negative",  "cache.concurrency", "query.columns",
      "query.nulls",      "query.ties",      "query.last_page", "query.empty",       "protocol.fields",
      "protocol.headers", "protocol.status", "io.content",      "io.order",          "access.refusal",
      "report.self",      "callers.race",    "input.errors",    "work.deferred"};
  return classes;
}

const std::vector<std::string>& asked_classes() {
  static const std::vector<std::string> classes = {"cache.freshness", "access.refusal", "report.self",  "query.ties",
                                                   "callers.race",    "input.errors",   "work.deferred"};
  return classes;
}

namespace {

constexpr const char* kNotAskedYet = "not asked yet: ";

std::string lie_names(const Manifest& m) {
  std::string s;
  for (const auto& l : m.lies) s += (s.empty() ? "" : ", ") + l.name;
  return s.empty() ? "none" : s;
}

Threat read_threat(const FieldReader& tr, const Manifest& m) {
  tr.allow_only({"class", "threat", "request", "lie", "n/a"});
  Threat t;
  t.threat_class = tr.one_of("class", threat_classes());
  if (tr.has("n/a")) {
    t.not_applicable = tr.non_empty_string("n/a");
    for (const char* key : {"threat", "request", "lie"})
      if (tr.has(key)) tr.fail(key, "an n/a entry holds only its class and the reason it does not apply");
    return t;
  }
  t.threat = tr.non_empty_string("threat");
  t.request = tr.non_empty_string("request");
  t.lie = tr.string("lie", "");
  if (!t.lie.empty() && std::none_of(m.lies.begin(), m.lies.end(), [&](const Lie& l) { return l.name == t.lie; }))
    tr.fail("lie", "no lie named '" + t.lie + "' (declared: " + lie_names(m) + ")");
  return t;
}

}  // namespace

bool Threat::not_asked_yet() const { return applies() && request.rfind(kNotAskedYet, 0) == 0; }

std::vector<Threat> read_threats(const FieldReader& r, const Manifest& m) {
  std::vector<Threat> out;
  for (const FieldReader& tr : r.elements("threats")) out.push_back(read_threat(tr, m));
  return out;
}

std::vector<std::string> threat_findings(const Manifest& m) {
  const std::string where = m.file.string() + ": ";
  if (m.threats.empty()) return {where + "no threat list (`threats`): nothing says which shortcuts the lies cover"};
  std::vector<std::string> out;
  for (const auto& c : threat_classes())
    if (std::none_of(m.threats.begin(), m.threats.end(), [&](const Threat& t) { return t.threat_class == c; }))
      out.push_back(where + "class " + c + " not answered (a threat, or n/a with the reason)");
  for (std::size_t i = 0; i < m.threats.size(); ++i) {
    const Threat& t = m.threats[i];
    if (t.not_asked_yet() && t.lie.empty())
      out.push_back(where + "threats[" + std::to_string(i) + "] (" + t.threat_class +
                    ") is not asked by the workload yet: " + t.threat);
    else if (t.applies() && t.lie.empty())
      out.push_back(where + "threats[" + std::to_string(i) + "] (" + t.threat_class + ") has no lie: " + t.threat);
    else if (t.not_asked_yet())
      out.push_back(where + "threats[" + std::to_string(i) + "] (" + t.threat_class + ") names lie " + t.lie +
                    " but says the workload does not ask it yet");
  }
  for (const auto& l : m.lies)
    if (std::none_of(m.threats.begin(), m.threats.end(), [&](const Threat& t) { return t.lie == l.name; }))
      out.push_back(where + "lie " + l.name + " implements no listed threat");
  return out;
}

}  // namespace perfgate::catalog
