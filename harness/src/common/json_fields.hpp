// The one reader of the fields of a JSON document perfgate reads strictly: a scenario manifest,
// baseline.json, a batch plan, a --debug-samples script, the shape of a results file. Every
// problem is a UsageError (exit 2) shaped "FILE: path.field: problem", e.g. "s.json:
// variants[2].name: missing (a string)", so a person can find the field and whoever adds one has
// a single idiom to follow. (The results codec reads leniently after the shape is checked:
// store/codec_fields.hpp.)
//
// A field that is null reads as absent for the typed readers (string, number, child, ...): JSON
// writers spell "not given" both ways. `kinds` is the exception: there null is a kind of its own,
// allowed only where the rule says kNull.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/enum_names.hpp"

namespace perfgate {

// JSON kinds, or-ed together for a field that may be one of several (kNumber | kNull).
enum JsonKind : unsigned { kString = 1, kNumber = 2, kInteger = 4, kBool = 8, kObject = 16, kArray = 32, kNull = 64 };

// One field of FieldReader::kinds: its key, the kinds it may be, whether it must be there.
struct KindRule {
  const char* key;
  unsigned kinds;
  bool required = false;
};

// How far a number may go.
enum class Sign { kAny, kNonNegative, kPositive };

// Parses a whole document; "FILE: not valid JSON (ABOUT): where and why" when it is not JSON.
nlohmann::json parse_document(const std::string& text, const std::string& file, const std::string& about);

// Reads the fields of one JSON object, named `path` in messages ("" for the top level).
class FieldReader {
 public:
  FieldReader(const nlohmann::json& object, std::string file, std::string path = "");
  FieldReader(const nlohmann::json&& object, std::string file, std::string path = "") = delete;  // would dangle

  const nlohmann::json& object() const { return object_; }
  const std::string& file() const { return file_; }
  std::string path_of(const std::string& field) const;
  static std::string index(const std::string& key, std::size_t i) { return key + "[" + std::to_string(i) + "]"; }

  // `field` is relative to this object ("name", "ci[1]"); the one-argument form names the object.
  [[noreturn]] void fail(const std::string& field, const std::string& problem) const;
  [[noreturn]] void fail(const std::string& problem) const;

  bool has(const std::string& key) const;  // there and not null
  // The value, or "missing (WHAT)": for a check of the caller's own.
  const nlohmann::json& required(const std::string& key, const std::string& what) const;
  std::vector<std::string> keys() const;
  // "unknown key (known: a, b)" for the first key not in `known`.
  void allow_only(const std::vector<std::string>& known) const;

  std::string string(const std::string& key) const;
  std::string string(const std::string& key, const std::string& fallback) const;
  std::string non_empty_string(const std::string& key) const;
  std::string non_empty_string(const std::string& key, const std::string& fallback) const;
  // "'x' is not one of a, b" (and "must be one of a, b" when it is not a string).
  std::string one_of(const std::string& key, const std::vector<std::string>& allowed) const;
  std::string one_of(const std::string& key, const std::vector<std::string>& allowed,
                     const std::string& fallback) const;
  // An enum written by its name (perfgate/enum_names.hpp), as one_of above; `allowed` narrows
  // the names this document may use (default: every one).
  template <typename E>
  E enum_of(const std::string& key, const std::vector<E>& allowed = all_values<E>()) const {
    std::vector<std::string> words;
    for (E value : allowed) words.emplace_back(name_of(value));
    return *from_name<E>(one_of(key, words));
  }
  template <typename E>
  E enum_of(const std::string& key, E fallback, const std::vector<E>& allowed = all_values<E>()) const {
    return has(key) ? enum_of<E>(key, allowed) : fallback;
  }
  // Absent: none. `noun` says what the strings are in "must be an array of NOUN".
  std::vector<std::string> strings(const std::string& key, const std::string& noun = "strings") const;
  std::vector<std::string> non_empty_strings(const std::string& key, const std::string& noun = "strings") const;
  std::optional<bool> optional_boolean(const std::string& key) const;

  // Finite numbers only (a document built in code may hold NaN; parse_document refuses 1e999).
  double number(const std::string& key, Sign sign = Sign::kAny) const;
  std::optional<double> optional_number(const std::string& key, Sign sign = Sign::kAny) const;
  // "must be an integer >= MIN"; an integer beyond Int is refused, not wrapped.
  template <typename Int = int>
  Int integer(const std::string& key, Int min) const {
    return integer_value(key, static_cast<long long>(min), std::numeric_limits<Int>::max()).template get<Int>();
  }
  template <typename Int = int>
  std::optional<Int> optional_integer(const std::string& key, Int min) const {
    return has(key) ? std::optional<Int>(integer<Int>(key, min)) : std::nullopt;
  }
  // [lo, hi]: two finite numbers, lo <= hi, and lo within `sign`.
  std::array<double, 2> interval(const std::string& key, Sign sign = Sign::kAny) const;

  const nlohmann::json& array(const std::string& key) const;
  const nlohmann::json& optional_array(const std::string& key) const;  // absent: an empty array
  const nlohmann::json& non_empty_array(const std::string& key, const std::string& noun) const;
  FieldReader child(const std::string& key) const;
  FieldReader optional_child(const std::string& key) const;  // absent: an empty object
  // Each element of array `key` (absent: none), which must be an object, named "key[i]".
  std::vector<FieldReader> elements(const std::string& key) const;

  // The type check of a document perfgate wrote: "not a number or null (it is string)".
  void kinds(std::initializer_list<KindRule> rules) const;
  void kind_at(const std::string& field, const nlohmann::json& value, unsigned kinds) const;

 private:
  // The value of a field that must be there and pass `ok`, else "missing (WHAT)" or "must be WHAT".
  const nlohmann::json& value_of(const std::string& key, const std::string& what,
                                 const std::function<bool(const nlohmann::json&)>& ok) const;
  const nlohmann::json& integer_value(const std::string& key, long long min, unsigned long long max) const;

  const nlohmann::json& object_;
  std::string file_, path_;
};

}  // namespace perfgate
