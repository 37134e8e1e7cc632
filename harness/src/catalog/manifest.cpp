#include "catalog/manifest.hpp"

#include <regex>

#include "catalog/service_sections.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/json_fields.hpp"

namespace perfgate::catalog {
namespace {

const std::vector<std::string> kMeasures = {"allocs", "instructions"};

void read_measure(const FieldReader& r, Manifest& m) {
  const FieldReader measure = r.optional_child("measure");
  measure.allow_only(kMeasures);
  for (const auto& what : kMeasures)
    if (measure.optional_boolean(what).value_or(false)) m.measure.push_back(what);
}

void read_cpus(const FieldReader& r, Manifest& m) {
  if (!r.has("cpus")) return;
  const json& c = r.object().at("cpus");
  if (c.is_string() && c.get<std::string>() == "all")
    m.cpus = "all";
  else if (c.is_number_integer() && c.get<int>() >= 1)
    m.cpus = std::to_string(c.get<int>());
  else
    r.fail("cpus", "must be a positive integer or \"all\"");
}

Variant read_variant(const FieldReader& vr) {
  Variant v;
  v.name = vr.string("name");
  v.label = vr.string("label", "");
  v.args = vr.strings("args");
  if (vr.object().contains("compare_to")) {
    // A variant compared to itself is a reference, like null.
    const std::string to = vr.string("compare_to", v.name);
    if (to != v.name) v.compare_to = to;
  } else if (v.name != "before") {
    v.compare_to = "before";
  }
  v.sweep = vr.object().value("sweep", json());
  v.workload = vr.string("workload", "");
  v.profiles = vr.strings("profiles");
  v.equivalence = vr.string("equivalence", "");
  return v;
}

// Appends `item`, read by `r`, refusing a second of its name: variants and lies are named on the command line.
template <typename Named>
void add_named(std::vector<Named>& list, Named item, const FieldReader& r, const std::string& what) {
  for (const auto& other : list)
    if (other.name == item.name) r.fail("name", "duplicate " + what + " '" + item.name + "'");
  list.push_back(std::move(item));
}

void read_variants(const FieldReader& r, Manifest& m) {
  r.array("variants");  // required, unlike the other arrays
  for (const FieldReader& vr : r.elements("variants")) add_named(m.variants, read_variant(vr), vr, "variant");
  auto has_variant = [&](const std::string& n) {
    return std::any_of(m.variants.begin(), m.variants.end(), [&](const Variant& v) { return v.name == n; });
  };
  if (!has_variant("before")) r.fail("variants", "needs a variant named 'before'");
  if (!has_variant("after")) r.fail("variants", "needs a variant named 'after'");
  for (std::size_t i = 0; i < m.variants.size(); ++i)
    if (m.variants[i].compare_to && !has_variant(*m.variants[i].compare_to))
      r.fail(FieldReader::index("variants", i) + ".compare_to", "no variant named '" + *m.variants[i].compare_to + "'");
  // before and after first: they are the gated pair and lead every table.
  std::stable_sort(m.variants.begin(), m.variants.end(), [](const Variant& a, const Variant& b) {
    auto rank = [](const Variant& v) { return v.name == "before" ? 0 : v.name == "after" ? 1 : 2; };
    return rank(a) < rank(b);
  });
}

Claim read_claim(const FieldReader& cr) {
  Claim c;
  c.metric = cr.string("metric");
  cr.required("factor", "a number >= 1");
  c.factor = cr.number("factor");
  if (c.factor < 1) cr.fail("factor", "must be >= 1");
  c.profiles = cr.strings("profiles");
  c.text = cr.string("text", "after at least " + std::to_string(c.factor).substr(0, 4) + "x better on " + c.metric);
  return c;
}

SelfReport read_self_report(const FieldReader& sr) {
  sr.allow_only({"metrics", "outside", "check", "scale", "scale_param", "slack", "text"});
  SelfReport s;
  s.metrics = sr.non_empty_strings("metrics", "the program's own figures, summed");
  s.outside = sr.non_empty_string("outside");
  s.check = sr.enum_of<SelfCheck>("check", SelfCheck::Saving);
  s.scale = sr.optional_number("scale").value_or(s.scale);
  if (!(s.scale > 0)) sr.fail("scale", "must be > 0");
  s.scale_param = sr.string("scale_param", "");
  s.slack = sr.optional_number("slack").value_or(s.check == SelfCheck::Saving ? s.slack : 0.0);
  if (s.slack < 0 || s.slack >= 1) sr.fail("slack", "must be a fraction in [0, 1)");
  s.text = sr.string("text", "");
  return s;
}

Lie read_lie(const FieldReader& lr) {
  lr.allow_only({"name", "args", "what", "caught_by"});
  Lie l;
  l.name = lr.string("name");
  if (!std::regex_match(l.name, std::regex("[A-Za-z0-9_-]+")))
    lr.fail("name", "'" + l.name + "' must be letters, digits, _ and -");
  // Absent: the SDK's own spelling, so a lie's name is written once.
  l.args = lr.has("args")
               ? lr.non_empty_strings("args", "strings appended to after's args (how the program is told to lie)")
               : std::vector<std::string>{"--lie", l.name};
  l.what = lr.string("what");
  const std::string caught_by = lr.string("caught_by");
  const std::optional<CaughtBy> parsed = CaughtBy::parse(caught_by);
  if (!parsed) lr.fail("caught_by", "'" + caught_by + "' is not \"equivalence\" or \"exact:<metric>\"");
  l.caught_by = *parsed;
  return l;
}

Profile read_profile(const FieldReader& pr) {
  Profile p;
  p.params = pr.optional_child("params").object();
  p.load = pr.optional_child("load").object();
  p.min_rounds = pr.optional_integer("min_rounds", 0);
  p.max_rounds = pr.optional_integer("max_rounds", 0);
  p.warmup = pr.optional_integer("warmup", 0);
  p.max_time_s = pr.optional_number("max_time_s");
  p.timeout_s = pr.optional_number("timeout_s");
  return p;
}

void read_profiles(const FieldReader& r, Manifest& m) {
  const FieldReader profiles = r.child("profiles");
  if (profiles.keys().empty()) r.fail("profiles", "needs at least one profile (quick, full)");
  for (const auto& name : profiles.keys()) m.profiles[name] = read_profile(profiles.child(name));
}

}  // namespace

bool Variant::in_profile(const std::string& p) const {
  return profiles.empty() || std::find(profiles.begin(), profiles.end(), p) != profiles.end();
}

const Variant& Manifest::variant(const std::string& n) const {
  for (const auto& v : variants)
    if (v.name == n) return v;
  throw UsageError(file.string() + ": variants: no variant named '" + n + "'");
}

std::vector<std::string> Manifest::profile_names() const {
  std::vector<std::string> out;
  for (const auto& [k, _] : profiles) out.push_back(k);
  return out;
}

Manifest parse_manifest(const json& doc, const fs::path& file) {
  const FieldReader r(doc, file.string());
  Manifest m;
  m.file = file;
  m.dir = file.parent_path();
  m.name = r.string("name");
  if (!std::regex_match(m.name, std::regex("[A-Za-z0-9_]+")))
    r.fail("name", "'" + m.name + "' must be letters, digits and _");
  m.title = r.string("title", m.name);
  m.source = r.string("source", "");
  m.summary = r.string("summary", "");
  m.kind = r.enum_of("kind", m.kind, manifest_kinds());
  m.program = r.string("program");
  const FieldReader fixture = r.optional_child("fixture");
  if (!fixture.object().empty()) {
    m.fixture_kind = fixture.enum_of<FixtureKind>("kind");
    m.fixture_version = fixture.optional_integer("version", 0).value_or(m.fixture_version);
  }
  m.policy = r.enum_of("policy", m.policy);
  m.primary_metric = r.string("primary_metric");
  const FieldReader guard = r.optional_child("guard");
  m.guard.metric = guard.string("metric", m.guard.metric);
  m.guard.band = guard.optional_number("band").value_or(m.guard.band);
  if (m.guard.band < 0 || m.guard.band >= 1) guard.fail("band", "must be a fraction in [0, 1)");
  read_measure(r, m);
  read_cpus(r, m);
  read_variants(r, m);
  for (const FieldReader& cr : r.elements("claims")) m.claims.push_back(read_claim(cr));
  for (const FieldReader& sr : r.elements("self_reported")) m.self_reported.push_back(read_self_report(sr));
  m.work_counts = r.strings("work_counts", "metric names");
  m.anchors = r.optional_array("anchors");
  for (const FieldReader& lr : r.elements("lies")) add_named(m.lies, read_lie(lr), lr, "lie");
  m.threats = read_threats(r, m);
  read_profiles(r, m);
  for (std::size_t i = 0; i < m.self_reported.size(); ++i)
    for (const auto& [profile, p] : m.profiles)
      if (const auto& param = m.self_reported[i].scale_param;
          !param.empty() && !(p.params.contains(param) && p.params[param].is_number() && p.params[param] > 0))
        r.fail(FieldReader::index("self_reported", i) + ".scale_param",
               "profile '" + profile + "' has no positive number param '" + param + "'");
  m.service = r.optional_child("service").object();
  m.workloads = r.optional_child("workloads").object();
  check_service_sections(m, r.file());
  if (m.kind == ScenarioKind::Service)
    for (std::size_t i = 0; i < m.variants.size(); ++i)
      if (!m.variants[i].workload.empty() && !m.workloads.contains(m.variants[i].workload))
        r.fail(FieldReader::index("variants", i) + ".workload", "no workload named '" + m.variants[i].workload + "'");
  return m;
}

Manifest load_manifest(const fs::path& file) {
  const json doc =
      parse_document(read_file(file), file.string(), "a manifest is described in docs/scenario-contract.md");
  return parse_manifest(doc, file);
}

}  // namespace perfgate::catalog
