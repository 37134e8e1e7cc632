#include "plan/hyperfine_pairs.hpp"

#include <filesystem>
#include <map>

#include "common/errors.hpp"
#include "plan/ab_parameters.hpp"

namespace perfgate::plan {

namespace {

// A per-command option: given once (every command) or once per command.
std::string per_command(const std::vector<std::string>& given, std::size_t i, std::size_t commands, const char* flag) {
  if (given.empty()) return "";
  if (given.size() == 1) return given[0];
  if (given.size() != commands)
    throw UsageError(std::string(flag) + " is given " + std::to_string(given.size()) +
                     " times: give it once for every command or once per command (" + std::to_string(commands) +
                     " commands, the reference included)");
  return given[i];
}

// Three commands or more, or an AFTER the user named (-n): each pair is named by its AFTER as typed
// (or --command-name), so a table, plot or CI line says which command it is; a --name of the user's
// own goes first.
std::string named_by(const std::string& name, const std::string& after_label) {
  return name == "ab" ? after_label : name + ": " + after_label;
}

// Commands typed alike are results of their own, as in hyperfine: the scenario name, which
// results, tables and baseline keys go by, gets its place among the equal names ("X (2)").
std::vector<AbPair> number_equal_names(std::vector<AbPair> pairs) {
  std::map<std::string, int> count, seen;
  for (const auto& p : pairs) ++count[p.name];
  for (auto& p : pairs)
    if (const std::string name = p.name; count[name] > 1) p.name = name + " (" + std::to_string(++seen[name]) + ")";
  return pairs;
}

}  // namespace

std::vector<AbPair> hyperfine_pairs(const HyperfineCommands& f, const std::string& before, const std::string& after,
                                    const std::string& name,
                                    const std::function<std::vector<std::string>(const std::string&)>& words) {
  std::vector<std::string> commands, labels;
  if (!before.empty() || !after.empty()) {
    if (before.empty() || after.empty())
      throw UsageError(
          "ab: --before and --after go together (or give the commands as arguments: perfgate ab CMD1 CMD2)");
    if (!f.commands.empty() || !f.reference.empty())
      throw UsageError("ab: either --before/--after or commands as arguments, not both");
    commands = {before, after};
    labels = f.names;
  } else {
    if (!f.reference.empty()) {
      commands.push_back(f.reference);
      labels.push_back(f.reference_name);
      if (f.names.size() > f.commands.size())
        throw UsageError("--command-name is given " + std::to_string(f.names.size()) + " times for " +
                         std::to_string(f.commands.size()) + " commands (--reference-name names the reference)");
    } else if (!f.reference_name.empty()) {
      throw UsageError("--reference-name names the --reference command: give --reference CMD");
    }
    commands.insert(commands.end(), f.commands.begin(), f.commands.end());
    labels.insert(labels.end(), f.names.begin(), f.names.end());
    if (commands.size() < 2 && f.scan.empty() && f.lists.empty())
      throw UsageError(
          "ab: two commands at least: --before CMD --after CMD, or perfgate ab CMD1 CMD2 … (the first, or --reference "
          "CMD, is what the others are compared with), or one command with -P or -L");
  }
  if (labels.size() > commands.size())
    throw UsageError("--command-name is given " + std::to_string(labels.size()) + " times for " +
                     std::to_string(commands.size()) + " commands");
  labels.resize(commands.size());
  if (f.show_output && !f.output.empty()) throw UsageError("--show-output and --output: choose one");

  std::vector<Parameter> parameters;
  if (!f.scan.empty()) parameters.push_back(parameter_scan(f.scan[0], f.scan[1], f.scan[2], f.step));
  if (!f.step.empty() && f.scan.empty()) throw UsageError("--parameter-step-size needs --parameter-scan");
  if (!f.scan.empty() && !f.lists.empty()) throw UsageError("--parameter-scan and --parameter-list: choose one");
  for (std::size_t i = 0; i + 1 < f.lists.size(); i += 2)
    parameters.push_back(parameter_list(f.lists[i], f.lists[i + 1]));
  const auto bindings = parameter_combinations(parameters);

  if (!f.input.empty() && f.input != "null" && !std::filesystem::is_regular_file(f.input))
    throw UsageError("--input " + f.input + ": no such file");
  const std::size_t n = commands.size();
  auto side = [&](std::size_t i, const Binding& b) {
    AbSideOptions s;
    const std::string output = f.show_output ? "inherit" : per_command(f.output, i, n, "--output");
    s.sampling.output = catalog::parse_stdout_target(output.empty() ? "null" : output);
    if (!f.input.empty() && f.input != "null") s.sampling.input = std::filesystem::absolute(f.input);
    s.sampling.prepare = substitute(per_command(f.prepare, i, n, "--prepare"), b);
    s.sampling.conclude = substitute(per_command(f.conclude, i, n, "--conclude"), b);
    s.sampling.setup = substitute(f.setup, b);
    s.sampling.cleanup = substitute(f.cleanup, b);
    if (f.ignore_failure) catalog::parse_ignore_failure(*f.ignore_failure, s.sampling);
    s.label = substitute(labels[i].empty() ? commands[i] : labels[i], b);
    for (const auto& [var, value] : b) s.sampling.parameters[var] = value;
    return s;
  };
  auto params_of = [&](AbPair& p, const Binding& b) {
    for (std::size_t k = 0; k < b.size(); ++k) {
      const auto& [var, value] = b[k];
      p.params[var] = parameters[k].numeric ? json::parse(value) : json(value);
    }
  };
  std::vector<AbPair> pairs;
  // One command and a parameter, as hyperfine's scans mostly are: the first value is BEFORE of
  // every pair, each other value an AFTER.
  if (n == 1) {
    if (bindings.size() < 2)
      throw UsageError("ab: one command needs a parameter of two values at least (-P or -L) to compare");
    for (std::size_t k = 1; k < bindings.size(); ++k) {
      AbPair p;
      p.name = name + "[" + describe(bindings[k]) + "]";
      p.before_argv = words(substitute(commands[0], bindings[0]));
      p.after_argv = words(substitute(commands[0], bindings[k]));
      p.before = side(0, bindings[0]);
      p.after = side(0, bindings[k]);
      params_of(p, bindings[k]);
      pairs.push_back(std::move(p));
    }
    return number_equal_names(std::move(pairs));
  }
  for (const auto& b : bindings)
    for (std::size_t i = 1; i < n; ++i) {
      AbPair p;
      // Two commands are "ab" unless the AFTER has a name of the user's (-n), which the gate table then shows.
      const bool named = n > 2 || (i < labels.size() && !labels[i].empty());
      p.name = (named ? named_by(name, side(i, b).label) : name) + (b.empty() ? "" : "[" + describe(b) + "]");
      p.before_argv = words(substitute(commands[0], b));
      p.after_argv = words(substitute(commands[i], b));
      p.before = side(0, b);
      p.after = side(i, b);
      params_of(p, b);
      pairs.push_back(std::move(p));
    }
  return number_equal_names(std::move(pairs));
}

}  // namespace perfgate::plan
