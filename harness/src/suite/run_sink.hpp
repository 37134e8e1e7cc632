// Where the suite layer says what it is doing: the live status (scenario, round, estimate),
// notes for the log, and each scenario as it finishes. The progress line and log
// (suite/progress.hpp) on a terminal or in a CI log; nothing in tests. Callers that pass nothing
// get silence.
#pragma once

#include <functional>
#include <string>

namespace perfgate::model {
struct ScenarioResult;
}

namespace perfgate::suite {

struct RunSink {
  std::function<void(const std::string&)> show;  // the live line, replaced by the next
  std::function<void()> clear;
  // A line for the log: `always` even when the user asked for quiet (a scripted run, a
  // baseline that compared nothing).
  std::function<void(const std::string& line, bool always)> log;
  // A scenario begins (a CI log opens a collapsible group for it).
  std::function<void(const std::string& name)> started;
  // A scenario finished: its entry of the results and its seconds.
  std::function<void(const model::ScenarioResult&, double seconds)> finished;
  // A step of a command that runs several plans (a bisect step, a lie) finished: its one line
  // for the log. Such a command keeps its plans' `started`/`finished` to itself.
  std::function<void(const std::string& line)> step;

  void update(const std::string& text) const {
    if (show) show(text);
  }
  void done() const {
    if (clear) clear();
  }
  void note(const std::string& line, bool always = false) const {
    if (log) log(line, always);
  }
  void scenario_started(const std::string& name) const {
    if (started) started(name);
  }
  void step_finished(const std::string& line) const {
    if (step) step(line);
  }
  // The same sink without the per-scenario events, for the plans inside one step.
  RunSink inner() const {
    RunSink s = *this;
    s.started = nullptr;
    s.finished = nullptr;
    return s;
  }
  void scenario_finished(const model::ScenarioResult& r, double seconds) const {
    if (finished) finished(r, seconds);
  }
};

}  // namespace perfgate::suite
