// hyperfine's parameters for `perfgate ab`: `{VAR}` in the commands (and in the commands around
// them and their names) replaced by each value of --parameter-scan or --parameter-list. Each
// combination of values is one pair of the family.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace perfgate::plan {

struct Parameter {
  std::string name;
  std::vector<std::string> values;  // as they are substituted, in order
  bool numeric = false;             // a scan: the values are numbers (the results keep them as such)
};

// --parameter-scan VAR MIN MAX [-D STEP]: MIN, MIN+STEP, … up to MAX, in exact decimal steps
// (STEP 1 unless given), printed with as many decimals as MIN, MAX and STEP have. Throws
// UsageError on a malformed number, an empty range, a step of 0 or more than 100,000 values.
Parameter parameter_scan(const std::string& name, const std::string& min, const std::string& max,
                         const std::string& step);

// --parameter-list VAR VALUES: comma-separated; `\,` is a comma inside a value.
Parameter parameter_list(const std::string& name, const std::string& values);

using Binding = std::vector<std::pair<std::string, std::string>>;  // name → value

// Every combination of the parameters' values, the last parameter varying fastest. One empty
// binding when there are no parameters. Throws UsageError on a name given twice.
std::vector<Binding> parameter_combinations(const std::vector<Parameter>& parameters);

// `text` with every {NAME} of the binding replaced by its value.
std::string substitute(std::string text, const Binding& binding);

// "threads=4,size=10": how a binding names its pair.
std::string describe(const Binding& binding);

}  // namespace perfgate::plan
