#include "parity/json_diff.hpp"

namespace perfgate::parity {

VolatileKeys::VolatileKeys(const std::vector<std::string>& keys) {
  for (const auto& k : keys) (k.find_first_of(".[") == std::string::npos ? names : paths).insert(k);
}

bool VolatileKeys::skips(const std::string& key, const std::string& path) const {
  return names.count(key) || paths.count(path);
}

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

namespace {

std::string shown(const json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

struct Walker {
  const VolatileKeys& keys;
  const Sides& sides;
  JsonDiff out;
  std::string on_a() const { return " on " + sides.a; }
  std::string on_b() const { return " on " + sides.b; }

  void differ(const std::string& path, const std::string& what) {
    const std::string at = path.empty() ? "(body)" : path;
    if (out.fields[at]++ == 0) out.example[at] = what;
  }

  void arrays(const json& a, const json& b, const std::string& path) {
    if (a.size() != b.size()) {
      differ(path, "length " + std::to_string(a.size()) + on_a() + ", " + std::to_string(b.size()) + on_b());
      if (a.empty() || b.empty())
        out.empty_vs_items.push_back((path.empty() ? "(body)" : path) + ": " +
                                     (a.empty()
                                          ? "empty" + on_a() + ", " + std::to_string(b.size()) + " items" + on_b()
                                          : "empty" + on_b() + ", " + std::to_string(a.size()) + " items" + on_a()));
    }
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) walk(a[i], b[i], path + "[]");
  }

  void objects(const json& a, const json& b, const std::string& path) {
    for (const auto& [k, va] : a.items()) {
      const std::string p = child_path(path, k);
      if (keys.skips(k, p)) continue;
      auto it = b.find(k);
      if (it == b.end())
        differ(p, "present" + on_a() + " (" + shown(va) + "), absent" + on_b());
      else
        walk(va, *it, p);
    }
    for (const auto& [k, vb] : b.items()) {
      const std::string p = child_path(path, k);
      if (!keys.skips(k, p) && !a.contains(k))
        differ(p, "absent" + on_a() + ", present" + on_b() + " (" + shown(vb) + ")");
    }
  }

  void walk(const json& a, const json& b, const std::string& path) {
    if (a.is_object() && b.is_object()) return objects(a, b, path);
    if (a.is_array() && b.is_array()) return arrays(a, b, path);
    if (a.is_structured() || b.is_structured())
      return differ(path, "a " + std::string(a.type_name()) + on_a() + ", a " + b.type_name() + on_b());
    ++out.leaves;
    // json's == compares numbers by value across integer and floating types (1 == 1.0).
    if (!(a == b)) differ(path, shown(a) + on_a() + ", " + shown(b) + on_b());
  }
};

void collect(const json& v, const std::string& path, std::set<std::string>& out) {
  if (v.is_object()) {
    for (const auto& [k, c] : v.items()) collect(c, child_path(path, k), out);
  } else if (v.is_array()) {
    if (!v.empty()) out.insert(path + "[]");
    for (const auto& c : v) collect(c, path + "[]", out);
  } else {
    out.insert(path.empty() ? "(body)" : path);
  }
}

}  // namespace

JsonDiff diff_json(const json& a, const json& b, const VolatileKeys& keys, const Sides& sides) {
  Walker w{keys, sides, {}};
  w.walk(a, b, "");
  return std::move(w.out);
}

std::set<std::string> key_paths(const json& body) {
  std::set<std::string> out;
  collect(body, "", out);
  return out;
}

}  // namespace perfgate::parity
