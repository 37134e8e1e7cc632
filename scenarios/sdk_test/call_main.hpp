// scenario_main called in process, its stdout and stderr captured: how the SDK tests run a program.
#pragma once

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "perfgate/scenario_main.hpp"

namespace sdk_test {

struct Outcome {
  int code;
  std::string out, err;
};

inline Outcome call(const perfgate::ScenarioProgram& p, std::vector<std::string> args) {
  std::vector<char*> argv;
  std::string program = "prog";
  argv.push_back(program.data());
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = perfgate::scenario_main(static_cast<int>(argv.size()), argv.data(), p);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

}  // namespace sdk_test
