// The windows a program marks around the part its own figures time (perfgate/outside_window.hpp):
// a socket pair per sample; each mark is stamped with our monotonic clock and the sample
// cgroup's CPU before it is answered, so the program cannot go on until we have read both.
// What a stopwatch of the program's says can then be held to what we saw of the same part.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "measure/cgroup.hpp"

namespace perfgate::run {

struct WindowTotals {
  double wall_ms = 0;
  std::optional<double> cpu_ms;  // none without a cgroup CPU controller
  int opened = 0;
};

class WindowMarks {
 public:
  WindowMarks();  // throws RunError when no socket pair can be made
  ~WindowMarks();
  WindowMarks(const WindowMarks&) = delete;
  WindowMarks& operator=(const WindowMarks&) = delete;

  int child_fd() const { return child_; }  // the child's end: PERFGATE_WINDOW_FD
  int fd() const { return ours_; }         // ours, to poll
  void close_child_end();                  // after the child is started

  // Reads every mark waiting, stamps and answers each. A malformed or unbalanced mark is
  // remembered and thrown by totals(), so the program is never left waiting for an answer.
  void serve(const measure::SampleCgroup& cgroup);
  // Each window's sums once the program has exited; RunError naming the window when one was
  // left open, closed without opening, opened twice or badly named.
  std::map<std::string, WindowTotals> totals() const;

 private:
  struct Open {
    double at_ms;
    std::optional<double> cpu_ms;
  };
  int ours_ = -1, child_ = -1;
  std::map<std::string, Open> open_;
  std::map<std::string, WindowTotals> totals_;
  std::string error_;
};

}  // namespace perfgate::run
