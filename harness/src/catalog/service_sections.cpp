#include "catalog/service_sections.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "common/errors.hpp"

namespace perfgate::catalog {

namespace {

// One key's check: empty string when the value is fine, else what it must be.
using Check = std::function<std::string(const json&)>;

Check positive_number() {
  return [](const json& v) { return v.is_number() && v.get<double>() > 0 ? "" : "must be a number > 0"; };
}
Check non_negative_number() {
  return [](const json& v) { return v.is_number() && v.get<double>() >= 0 ? "" : "must be a number >= 0"; };
}
Check positive_integer() {
  return [](const json& v) { return v.is_number_integer() && v.get<long long>() > 0 ? "" : "must be an integer >= 1"; };
}
Check string() {
  return [](const json& v) { return v.is_string() ? "" : "must be a string"; };
}
Check boolean() {
  return [](const json& v) { return v.is_boolean() ? "" : "must be true or false"; };
}
Check one_of(std::vector<std::string> allowed) {
  return [allowed](const json& v) {
    std::string list;
    for (const auto& a : allowed) {
      if (v.is_string() && v.get<std::string>() == a) return std::string();
      list += (list.empty() ? "" : ", ") + a;
    }
    return "must be one of " + list;
  };
}

using Table = std::map<std::string, Check>;

void check_object(const json& obj, const std::string& file, const std::string& at, const Table& table) {
  if (!obj.is_object()) throw UsageError(file + ": " + at + ": must be an object");
  for (const auto& [key, value] : obj.items()) {
    auto it = table.find(key);
    if (it == table.end()) {
      std::string known;
      for (const auto& [k, _] : table) known += (known.empty() ? "" : ", ") + k;
      throw UsageError(file + ": " + at + "." + key + ": unknown key (known: " + known + ")");
    }
    if (auto problem = it->second(value); !problem.empty())
      throw UsageError(file + ": " + at + "." + key + ": " + problem);
  }
}

const Table& gbench_keys() {
  static const Table t = {{"program", string()}, {"args", [](const json& v) {
                                                    bool ok = v.is_array();
                                                    for (const auto& a : ok ? v : json::array())
                                                      ok = ok && a.is_string();
                                                    return ok ? "" : "must be an array of strings";
                                                  }}};
  return t;
}

// A list of distinct phase names (letters, digits, `_`); `startup` is the harness's own phase.
Check phase_names(bool may_be_empty) {
  return [may_be_empty](const json& v) -> std::string {
    if (!v.is_array() || (!may_be_empty && v.empty()))
      return may_be_empty ? "must be an array of phase names" : "must be a non-empty array of phase names";
    std::vector<std::string> seen;
    for (const auto& p : v) {
      if (!p.is_string() || p.get<std::string>().empty() ||
          p.get<std::string>().find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
              std::string::npos)
        return "must hold names of letters, digits and _ (got " + p.dump() + ")";
      if (p == "startup") return "\"startup\" is the harness's own phase (server start to its listen line)";
      if (std::find(seen.begin(), seen.end(), p.get<std::string>()) != seen.end())
        return "names " + p.dump() + " twice";
      seen.push_back(p);
    }
    return "";
  };
}

// `service.load_client`: the scenario's own load program, run once per phase.
const Table& load_client_keys() {
  static const Table t = {{"phases", phase_names(false)},           // in order, after the server listens
                          {"agreement", phase_names(true)},         // phases whose digest is gated across variants
                          {"program", string()},                    // default: the scenario's program
                          {"rss_interval_ms", positive_integer()},  // how often the server's RSS is polled
                          {"timeout_s", positive_number()}};        // per phase; default the profile's timeout_s
  return t;
}

std::string check_load_client(const json& v, const std::string& file) {
  check_object(v, file, "service.load_client", load_client_keys());
  if (!v.contains("phases")) return "needs \"phases\"";
  for (const auto& a : v.value("agreement", json::array()))
    if (std::find(v["phases"].begin(), v["phases"].end(), a) == v["phases"].end())
      return "agreement names " + a.dump() + ", which is not one of its phases";
  return "";
}

// `service.parity`: the agreement pass, statement gates and capacity of a parity scenario
// (docs/scenario-contract.md, "Parity scenarios"; parity/bundled.hpp).
const Table& parity_keys() {
  static const Table t = {
      {"requests", string()},  // the request set, relative to the fixture (default requests.txt)
      {"volatile",
       [](const json& v) {
         bool ok = v.is_array();
         for (const auto& k : ok ? v : json::array()) ok = ok && k.is_string();
         return ok ? "" : "must be an array of key names or folded paths";
       }},
      {"noise", one_of({"answer", "instance"})},  // second answers of one server, or a second server
      {"statement_limits",
       [](const json& v) -> std::string {
         if (!v.is_object() || v.empty()) return "must map routes (\"/Artists\") to integers >= 0";
         for (const auto& [route, limit] : v.items())
           if (route.empty() || route.front() != '/' || !limit.is_number_integer() || limit.get<long long>() < 0)
             return "must map routes (\"/Artists\") to integers >= 0";
         return "";
       }},
      {"step_s", positive_number()},             // each concurrency step and offered rate of the capacity measures
      {"max_concurrency", positive_integer()}};  // the sweep 1, 2, 4 ... up to this
  return t;
}

Table service_keys(const std::string& file) {
  return {
      {"ready_timeout_s", positive_number()},  // how long the server may take to print {"listen": ...}
      {"stats_path", string()},                // GET path of the server's JSON counters
      {"gbench",
       [file](const json& v) {
         check_object(v, file, "service.gbench", gbench_keys());
         return std::string(v.contains("program") ? "" : "needs \"program\"");
       }},
      {"load_cpus", positive_integer()},  // declared by asset_cache; the sampler uses the CPUs the server does not
      {"parity",
       [file](const json& v) { return check_object(v, file, "service.parity", parity_keys()), std::string(); }},
      {"equivalence", string()},  // declared by asset_cache; responses are compared by the response gate
      {"load_client", [file](const json& v) { return check_load_client(v, file); }},  // phased load (imap_select)
  };
}

const Table& workload_keys() {
  static const Table t = {
      {"urls", string()},
      {"mix", one_of({"uniform", "hot", "zipf", "cycle", "file"})},
      {"hot_count", positive_integer()},
      {"hot_fraction",
       [](const json& v) {
         return v.is_number() && v.get<double>() > 0 && v.get<double>() <= 1 ? "" : "must be a number in (0, 1]";
       }},
      {"zipf_s", positive_number()}};
  return t;
}

const Table& load_keys() {
  static const Table t = {{"duration_s", positive_number()},   {"warmup_s", non_negative_number()},
                          {"connections", positive_integer()}, {"timeout_s", positive_number()},
                          {"accept_gzip", boolean()},          {"rate_rps", non_negative_number()}};
  return t;
}

}  // namespace

void check_service_sections(const Manifest& m, const std::string& file) {
  check_object(m.service, file, "service", service_keys(file));
  for (const auto& [name, w] : m.workloads.items()) {
    check_object(w, file, "workloads." + name, workload_keys());
    if (!w.contains("urls")) throw UsageError(file + ": workloads." + name + ".urls: missing (a URL list file)");
  }
  for (const auto& [name, p] : m.profiles) check_object(p.load, file, "profiles." + name + ".load", load_keys());
}

}  // namespace perfgate::catalog
