#include "catalog/manifest.hpp"

#include <regex>

#include "catalog/service_sections.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfgate::catalog {
namespace {

// Reads fields of one JSON object and names the exact field when one is wrong.
class Reader {
 public:
  Reader(const json& obj, std::string file, std::string path)
      : obj_(obj), file_(std::move(file)), path_(std::move(path)) {
    if (!obj_.is_object()) fail("", "must be an object");
  }
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    std::string where = path_.empty() ? field : field.empty() ? path_ : path_ + "." + field;
    throw UsageError(file_ + ": " + (where.empty() ? "" : where + ": ") + what);
  }
  bool has(const std::string& f) const { return obj_.contains(f) && !obj_.at(f).is_null(); }
  std::string str(const std::string& f) const {
    if (!has(f)) fail(f, "missing (a string)");
    if (!obj_.at(f).is_string()) fail(f, "must be a string");
    return obj_.at(f).get<std::string>();
  }
  std::string str(const std::string& f, const std::string& fallback) const { return has(f) ? str(f) : fallback; }
  double num(const std::string& f) const {
    if (!obj_.at(f).is_number()) fail(f, "must be a number");
    return obj_.at(f).get<double>();
  }
  int integer(const std::string& f) const {
    if (!obj_.at(f).is_number_integer() || obj_.at(f).get<long long>() < 0) fail(f, "must be a non-negative integer");
    return obj_.at(f).get<int>();
  }
  std::optional<int> opt_int(const std::string& f) const {
    return has(f) ? std::optional<int>(integer(f)) : std::nullopt;
  }
  std::optional<double> opt_num(const std::string& f) const {
    return has(f) ? std::optional<double>(num(f)) : std::nullopt;
  }
  std::vector<std::string> strings(const std::string& f) const {
    std::vector<std::string> out;
    if (!has(f)) return out;
    if (!obj_.at(f).is_array()) fail(f, "must be an array of strings");
    for (const auto& v : obj_.at(f)) {
      if (!v.is_string()) fail(f, "must be an array of strings");
      out.push_back(v.get<std::string>());
    }
    return out;
  }
  const json& array(const std::string& f, bool required) const {
    static const json empty = json::array();
    if (!has(f)) {
      if (required) fail(f, "missing (an array)");
      return empty;
    }
    if (!obj_.at(f).is_array()) fail(f, "must be an array");
    return obj_.at(f);
  }
  const json& object(const std::string& f, bool required) const {
    static const json empty = json::object();
    if (!has(f)) {
      if (required) fail(f, "missing (an object)");
      return empty;
    }
    if (!obj_.at(f).is_object()) fail(f, "must be an object");
    return obj_.at(f);
  }
  std::string sub(const std::string& f) const { return path_.empty() ? f : path_ + "." + f; }
  const std::string& file() const { return file_; }

 private:
  const json& obj_;
  std::string file_, path_;
};

void one_of(const Reader& r, const std::string& field, const std::string& value,
            std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  r.fail(field, "'" + value + "' is not one of " + list);
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
  Reader r(doc, file.string(), "");
  Manifest m;
  m.file = file;
  m.dir = file.parent_path();
  m.name = r.str("name");
  if (!std::regex_match(m.name, std::regex("[A-Za-z0-9_]+")))
    r.fail("name", "'" + m.name + "' must be letters, digits and _");
  m.title = r.str("title", m.name);
  m.source = r.str("source", "");
  m.summary = r.str("summary", "");
  m.kind = r.str("kind", "batch");
  one_of(r, "kind", m.kind, {"batch", "service", "gbench"});
  m.program = r.str("program");
  const json& fixture = r.object("fixture", false);
  if (!fixture.empty()) {
    Reader fr(fixture, r.file(), "fixture");
    m.fixture_kind = fr.str("kind");
    one_of(fr, "kind", m.fixture_kind, {"none", "files", "sqlite", "postgres"});
    if (fr.has("version")) m.fixture_version = fr.integer("version");
  }
  m.policy = r.str("policy", "improve");
  one_of(r, "policy", m.policy, {"improve", "no-regress"});
  m.primary_metric = r.str("primary_metric");
  if (r.has("guard")) {
    Reader gr(r.object("guard", false), r.file(), "guard");
    m.guard.metric = gr.str("metric", m.guard.metric);
    if (gr.has("band")) m.guard.band = gr.num("band");
    if (m.guard.band < 0 || m.guard.band >= 1) gr.fail("band", "must be a fraction in [0, 1)");
  }
  for (const auto& [what, on] : r.object("measure", false).items()) {
    if (what != "allocs" && what != "instructions") r.fail("measure." + what, "unknown measure (allocs, instructions)");
    if (!on.is_boolean()) r.fail("measure." + what, "must be true or false");
    if (on.get<bool>()) m.measure.push_back(what);
  }
  if (r.has("cpus")) {
    const json& c = doc.at("cpus");
    if (c.is_string() && c.get<std::string>() == "all")
      m.cpus = "all";
    else if (c.is_number_integer() && c.get<int>() >= 1)
      m.cpus = std::to_string(c.get<int>());
    else
      r.fail("cpus", "must be a positive integer or \"all\"");
  }

  const json& variants = r.array("variants", true);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    Reader vr(variants[i], r.file(), "variants[" + std::to_string(i) + "]");
    Variant v;
    v.name = vr.str("name");
    v.label = vr.str("label", "");
    v.args = vr.strings("args");
    if (variants[i].contains("compare_to")) {
      // A variant compared to itself is a reference, like null.
      if (!variants[i]["compare_to"].is_null() && vr.str("compare_to") != v.name) v.compare_to = vr.str("compare_to");
    } else if (v.name != "before") {
      v.compare_to = "before";
    }
    v.sweep = variants[i].value("sweep", json());
    v.workload = vr.str("workload", "");
    v.profiles = vr.strings("profiles");
    v.equivalence = vr.str("equivalence", "");
    for (const auto& other : m.variants)
      if (other.name == v.name) vr.fail("name", "duplicate variant '" + v.name + "'");
    m.variants.push_back(std::move(v));
  }
  auto has_variant = [&](const std::string& n) {
    return std::any_of(m.variants.begin(), m.variants.end(), [&](const Variant& v) { return v.name == n; });
  };
  if (!has_variant("before")) r.fail("variants", "needs a variant named 'before'");
  if (!has_variant("after")) r.fail("variants", "needs a variant named 'after'");
  for (std::size_t i = 0; i < m.variants.size(); ++i)
    if (m.variants[i].compare_to && !has_variant(*m.variants[i].compare_to))
      r.fail("variants[" + std::to_string(i) + "].compare_to", "no variant named '" + *m.variants[i].compare_to + "'");
  // before and after first: they are the gated pair and lead every table.
  std::stable_sort(m.variants.begin(), m.variants.end(), [](const Variant& a, const Variant& b) {
    auto rank = [](const Variant& v) { return v.name == "before" ? 0 : v.name == "after" ? 1 : 2; };
    return rank(a) < rank(b);
  });

  const json& claims = r.array("claims", false);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    Reader cr(claims[i], r.file(), "claims[" + std::to_string(i) + "]");
    Claim c;
    c.metric = cr.str("metric");
    if (!cr.has("factor")) cr.fail("factor", "missing (a number >= 1)");
    c.factor = cr.num("factor");
    if (c.factor < 1) cr.fail("factor", "must be >= 1");
    c.profiles = cr.strings("profiles");
    c.text = cr.str("text", "after at least " + std::to_string(c.factor).substr(0, 4) + "x better on " + c.metric);
    m.claims.push_back(std::move(c));
  }
  m.anchors = r.array("anchors", false);
  const json& lies = r.array("lies", false);
  for (std::size_t i = 0; i < lies.size(); ++i) {
    Reader lr(lies[i], r.file(), "lies[" + std::to_string(i) + "]");
    for (const auto& [key, _] : lies[i].items())
      if (key != "name" && key != "args" && key != "what" && key != "caught_by")
        lr.fail(key, "unknown key (a lie has name, args, what, caught_by)");
    Lie l;
    l.name = lr.str("name");
    if (!std::regex_match(l.name, std::regex("[A-Za-z0-9_-]+")))
      lr.fail("name", "'" + l.name + "' must be letters, digits, _ and -");
    if (!lies[i].contains("args")) lr.fail("args", "missing (an array of strings appended to after's args)");
    l.args = lr.strings("args");
    if (l.args.empty()) lr.fail("args", "must not be empty (how the program is told to lie)");
    l.what = lr.str("what");
    l.caught_by = lr.str("caught_by");
    if (l.caught_by != "equivalence" && (l.exact_metric().empty() || l.caught_by.rfind("exact:", 0) != 0))
      lr.fail("caught_by", "'" + l.caught_by + "' is not \"equivalence\" or \"exact:<metric>\"");
    for (const auto& other : m.lies)
      if (other.name == l.name) lr.fail("name", "duplicate lie '" + l.name + "'");
    m.lies.push_back(std::move(l));
  }

  const json& profiles = r.object("profiles", true);
  if (profiles.empty()) r.fail("profiles", "needs at least one profile (quick, full)");
  for (const auto& [pname, pval] : profiles.items()) {
    Reader pr(pval, r.file(), "profiles." + pname);
    Profile p;
    p.params = pr.object("params", false);
    p.load = pr.object("load", false);
    p.min_rounds = pr.opt_int("min_rounds");
    p.max_rounds = pr.opt_int("max_rounds");
    p.warmup = pr.opt_int("warmup");
    p.max_time_s = pr.opt_num("max_time_s");
    p.timeout_s = pr.opt_num("timeout_s");
    m.profiles[pname] = std::move(p);
  }
  m.service = r.object("service", false);
  m.workloads = r.object("workloads", false);
  check_service_sections(m, r.file());
  if (m.kind == "service")
    for (std::size_t i = 0; i < m.variants.size(); ++i)
      if (!m.variants[i].workload.empty() && !m.workloads.contains(m.variants[i].workload))
        r.fail("variants[" + std::to_string(i) + "].workload", "no workload named '" + m.variants[i].workload + "'");
  return m;
}

Manifest load_manifest(const fs::path& file) {
  std::string text = read_file(file);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw UsageError(file.string() + ": not valid JSON: " + e.what());
  }
  return parse_manifest(doc, file);
}

}  // namespace perfgate::catalog
