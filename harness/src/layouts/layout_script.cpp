#include "layouts/layout_script.hpp"

#include <nlohmann/json.hpp>
#include <string>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfgate::layouts {

namespace {

using nlohmann::json;

// Applies layout `layout`'s offset to every VALUES object under `node` that has one; `path`
// names the field in messages.
void apply(json& node, const std::string& path, int layout, int layouts, const std::string& file,
           std::uint64_t& serial) {
  if (!node.is_object()) return;
  if (node.contains("median") && node.contains("layouts")) {
    const json& offsets = node["layouts"];
    const std::string field = file + ": " + path + ".layouts";
    if (!offsets.is_array() || static_cast<int>(offsets.size()) < layouts)
      throw UsageError(field + ": must be a list of " + std::to_string(layouts) +
                       " speed offsets or more (one per layout: 0.03 is 3% slower)");
    for (const auto& o : offsets)
      if (!o.is_number() || o.get<double>() <= -1) throw UsageError(field + ": every offset must be a number above -1");
    if (!node["median"].is_number()) throw UsageError(file + ": " + path + ".median: must be a number");
    node["median"] = node["median"].get<double>() * (1 + offsets[static_cast<std::size_t>(layout - 1)].get<double>());
    node.erase("layouts");
    // Each layout's noise of its own: the given seed (or this field's place) and the layout.
    const std::uint64_t base =
        node.contains("seed") && node["seed"].is_number_unsigned() ? node["seed"].get<std::uint64_t>() : serial * 7919;
    node["seed"] = base * 1000003 + static_cast<std::uint64_t>(layout);
    ++serial;
    return;
  }
  for (auto& [key, child] : node.items())
    apply(child, path.empty() ? key : path + "." + key, layout, layouts, file, serial);
}

}  // namespace

std::filesystem::path script_for_layout(const std::filesystem::path& script, int layout, int layouts,
                                        const std::filesystem::path& dir) {
  json doc;
  try {
    doc = json::parse(read_file(script));
  } catch (const json::parse_error& e) {
    throw UsageError("--debug-samples " + script.string() + ": not JSON: " + e.what());
  }
  std::uint64_t serial = 1;
  apply(doc, "", layout, layouts, script.string(), serial);
  const auto out = dir / ("layout-" + std::to_string(layout) + ".script.json");
  write_file_atomic(out, doc.dump());
  return out;
}

}  // namespace perfgate::layouts
