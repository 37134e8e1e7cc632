#include "catalog/new_scenario.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfgate::catalog {
namespace {

using json = nlohmann::json;
using Keys = std::vector<std::pair<std::string, std::string>>;  // __KEY__ → text, replaced in order

// The name is a folder, a program, CMake targets and a C++ namespace at once.
void check_name(const std::string& name) {
  static const std::set<std::string> keywords = {
      "alignas",  "alignof",   "and",      "asm",       "auto",      "bool",      "break",     "case",     "catch",
      "char",     "class",     "concept",  "const",     "consteval", "constexpr", "constinit", "continue", "co_await",
      "co_yield", "co_return", "decltype", "default",   "delete",    "do",        "double",    "else",     "enum",
      "explicit", "export",    "extern",   "false",     "float",     "for",       "friend",    "goto",     "if",
      "inline",   "int",       "long",     "mutable",   "namespace", "new",       "noexcept",  "not",      "nullptr",
      "operator", "or",        "private",  "protected", "public",    "register",  "requires",  "return",   "short",
      "signed",   "sizeof",    "static",   "struct",    "switch",    "template",  "this",      "throw",    "true",
      "try",      "typedef",   "typeid",   "typename",  "union",     "unsigned",  "using",     "virtual",  "void",
      "volatile", "while",     "xor",      "std",       "perfgate"};
  if (!std::regex_match(name, std::regex("[A-Za-z][A-Za-z0-9_]{0,63}")) || name.find("__") != std::string::npos ||
      keywords.count(name))
    throw UsageError("bad scenario name '" + name +
                     "': letters, digits and single _, starting with a letter, at most 64, not a C++ keyword, std or "
                     "perfgate (it names the folder, the program, CMake targets and a C++ namespace)");
}

// A perfgate source tree holds cmake/PerfgateScenario.cmake and its catalog, scenarios/.
std::optional<fs::path> tree_above(fs::path dir) {
  for (dir = fs::weakly_canonical(dir);; dir = dir.parent_path()) {
    if (fs::exists(dir / "cmake" / "PerfgateScenario.cmake") && fs::exists(dir / "scenarios" / "CMakeLists.txt"))
      return dir;
    if (dir == dir.parent_path()) return std::nullopt;
  }
}

struct Place {
  fs::path catalog;
  bool in_tree = false;
};

Place place_for(const std::string& out) {
  if (out.empty()) {
    const auto root = tree_above(fs::current_path());
    if (!root)
      throw UsageError("no perfgate source tree here (cmake/PerfgateScenario.cmake and scenarios/, from " +
                       fs::current_path().string() + " up): give --out DIR");
    return {*root / "scenarios", true};
  }
  const fs::path dir = fs::weakly_canonical(fs::absolute(out));
  if (fs::exists(dir) && !fs::is_directory(dir)) throw UsageError("--out " + out + ": not a directory");
  const auto root = fs::exists(dir) ? tree_above(dir) : std::nullopt;
  return {dir, root && fs::equivalent(dir, *root / "scenarios")};
}

std::string fill(std::string text, const Keys& keys) {
  for (const auto& [key, value] : keys)
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  return text;
}

// The files of the template, as (where they go in the folder, the template file).
std::vector<std::pair<fs::path, fs::path>> files_of(const fs::path& templates, const std::string& kind,
                                                    const fs::path& cmake) {
  std::vector<std::pair<fs::path, fs::path>> out = {{"CMakeLists.txt", templates / cmake}};
  for (const auto& part : {templates / "common", templates / kind})
    for (const auto& e : fs::recursive_directory_iterator(part))
      if (e.is_regular_file()) out.push_back({fs::relative(e.path(), part), e.path()});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void new_scenario(const std::string& name, const std::string& kind, const std::string& out) {
  check_name(name);
  const Place place = place_for(out);
  const fs::path folder = place.catalog / name;
  if (fs::exists(fs::symlink_status(folder)))
    throw UsageError(folder.string() + " already exists: perfgate new writes a new folder only");
  const fs::path templates = catalog::share_dir() / "templates" / "scenario";
  const auto spec = try_read_file(templates / "template.json");
  if (!spec) throw RunError("the scenario templates are missing: " + templates.string() + " (a broken install?)");
  const json t = json::parse(*spec);
  const json& flavour = t.at("flavours").at(place.in_tree ? "in-tree" : "standalone");
  Keys keys;
  for (const json* part : {&t.at("kinds").at(kind), &flavour})
    for (const auto& [key, value] : part->items()) keys.push_back({"__" + key + "__", value.get<std::string>()});
  const fs::path prefix = catalog::executable_dir().parent_path();  // this perfgate's install (or build) tree
  keys.insert(keys.end(), {{"__PREFIX__", prefix.string()}, {"__KIND__", kind}, {"__NAME__", name}});

  // Written beside the catalog's folders and renamed into place: never a half-written scenario.
  fs::create_directories(place.catalog);
  const fs::path staging = place.catalog / ("." + name + ".new-" + std::to_string(::getpid()));
  try {
    for (const auto& [to, from] : files_of(templates, kind, flavour.at("CMAKE").get<std::string>()))
      write_file_atomic(staging / to, fill(read_file(from), keys));
    catalog::load_manifest(staging / "scenario.json");  // the template's own check: it must load
    fs::rename(staging, folder);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    throw;
  }
  std::cout << "wrote " << folder.string() << " (" << kind << ", "
            << (place.in_tree ? "built by the tree's CMake" : "standalone: against the SDK in " + prefix.string())
            << "); scenario.json's `threats` is its threat list to revisit (README.md says how). Next, in "
            << (place.in_tree ? place.catalog.parent_path() : folder).string() << ":\n";
  std::istringstream how(fill(flavour.at("HOW_TO_RUN").get<std::string>(), keys));
  for (std::string line; std::getline(how, line);)
    if (line.rfind("    ", 0) == 0) std::cout << line << "\n";
}

std::vector<std::string> kind_names() {
  std::vector<std::string> out;
  for (const catalog::ScenarioKind k : catalog::manifest_kinds()) out.emplace_back(name_of(k));
  return out;
}

}  // namespace perfgate::catalog
