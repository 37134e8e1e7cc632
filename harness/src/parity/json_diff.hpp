// Two JSON answers compared the way a reader of an API compares them: object key order
// ignored, array order kept, and every difference named by its field path with array indices
// folded (`Items[].People[].Role`), so a thousand differing rows read as one field.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace perfgate::parity {

using json = nlohmann::json;

// Keys whose values are expected to differ (ids minted per process, clocks). An entry with a
// '.' or '[' is a folded path (`Items[].Etag`); a bare name matches that key anywhere.
struct VolatileKeys {
  std::set<std::string> names, paths;
  explicit VolatileKeys(const std::vector<std::string>& keys = {});
  bool skips(const std::string& key, const std::string& path) const;
};

// What the two sides are called in the texts a difference is told with: "A"/"B" for
// `perfgate parity`, "before"/"after" for a scenario's own variants.
struct Sides {
  std::string a = "A", b = "B";
};

struct JsonDiff {
  std::uint64_t leaves = 0;                     // scalar pairs compared (both sides had them)
  std::map<std::string, std::uint64_t> fields;  // folded path -> differences found there
  std::map<std::string, std::string> example;   // folded path -> the first difference, as text
  std::vector<std::string> empty_vs_items;      // "Items[].People: empty on A, 3 items on B"
  bool same() const { return fields.empty(); }
};

// The folded path of `key` under `parent` ("" is the body itself).
std::string child_path(const std::string& parent, const std::string& key);

JsonDiff diff_json(const json& a, const json& b, const VolatileKeys& keys = VolatileKeys{}, const Sides& sides = {});

// Every folded path a body holds a scalar at, and every non-empty array as "path[]": what a
// body is made of, without its values (the hollow-body fingerprint hashes this).
std::set<std::string> key_paths(const json& body);

}  // namespace perfgate::parity
