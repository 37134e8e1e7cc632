#include "plan/shard.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"

namespace perfgate::plan {

Shard parse_shard(const std::string& text) {
  auto bad = [&] { return UsageError("--shard: '" + text + "' must be i/n with 1 <= i <= n, e.g. 1/4"); };
  auto slash = text.find('/');
  if (slash == std::string::npos) throw bad();
  Shard s;
  try {
    std::size_t used = 0;
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw bad();
    const std::string rest = text.substr(slash + 1);
    s.count = std::stoi(rest, &used);
    if (used != rest.size()) throw bad();
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception&) {
    throw bad();
  }
  if (s.count < 1 || s.index < 1 || s.index > s.count) throw bad();
  return s;
}

std::vector<std::string> shard_names(std::vector<std::string> names, const Shard& s) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::vector<std::string> out;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (static_cast<int>(k % static_cast<std::size_t>(s.count)) == s.index - 1) out.push_back(names[k]);
  return out;
}

ShardSelection select_shard(const std::vector<catalog::Manifest>& catalog, std::vector<std::string> chosen,
                            const std::string& text) {
  const Shard shard = parse_shard(text);
  if (chosen.empty())
    for (const auto& m : catalog) chosen.push_back(m.name);
  for (const auto& n : chosen) catalog::find_scenario(catalog, n);
  ShardSelection out;
  out.names = shard_names(chosen, shard);
  out.all = shard_names(chosen, {1, 1});
  out.count = shard.count;
  out.info = {shard.index, shard.count, static_cast<int>(out.all.size()), out.names};
  return out;
}

}  // namespace perfgate::plan
