/* Marks the part of a program that its own figure times (docs/scenario-contract.md, "Outside
 * windows"), so perfgate reads its own clock and the sample cgroup's CPU where that part begins
 * and ends: a stopwatch of the program's can then be held to perfgate's figure of the same part
 * (`self_reported` with outside NAME_window_wall_ms or NAME_window_cpu_ms). C and C++.
 *
 *   perfgate_window_begin("walk");  // blocks until perfgate has read its clock
 *   ...the timed part...
 *   perfgate_window_end("walk");    // returns once perfgate has read its clock again
 *
 * Each mark waits for perfgate's answer, so perfgate's reading lies before the part begins and
 * after it ends: its window holds the part and two hand-overs (tens of microseconds), never less.
 * A window opened several times is summed. Without perfgate (PERFGATE_WINDOW_FD unset, the
 * program run by hand) both calls do nothing. */
#ifndef PERFGATE_OUTSIDE_WINDOW_HPP
#define PERFGATE_OUTSIDE_WINDOW_HPP

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

static inline int perfgate_window_fd_(void) {
  static int fd = -2;
  if (fd == -2) {
    const char* v = getenv("PERFGATE_WINDOW_FD");
    fd = v && *v ? atoi(v) : -1;
  }
  return fd;
}

/* One mark: "b NAME" or "e NAME", one datagram, answered by one byte. */
static inline void perfgate_window_mark_(char kind, const char* name) {
  const int fd = perfgate_window_fd_();
  if (fd < 0) return;
  char msg[128];
  size_t n = strlen(name);
  if (n > sizeof msg - 3) n = sizeof msg - 3;
  msg[0] = kind;
  msg[1] = ' ';
  memcpy(msg + 2, name, n);
  if (send(fd, msg, n + 2, MSG_NOSIGNAL) < 0) return;
  char ack;
  while (recv(fd, &ack, 1, 0) < 0 && errno == EINTR) {
  }
}

static inline void perfgate_window_begin(const char* name) { perfgate_window_mark_('b', name); }
static inline void perfgate_window_end(const char* name) { perfgate_window_mark_('e', name); }

#ifdef __cplusplus
namespace perfgate {
/* The window NAME, open for this object's life. */
class OutsideWindow {
 public:
  explicit OutsideWindow(const char* name) : name_(name) { perfgate_window_begin(name_); }
  ~OutsideWindow() { perfgate_window_end(name_); }
  OutsideWindow(const OutsideWindow&) = delete;
  OutsideWindow& operator=(const OutsideWindow&) = delete;

 private:
  const char* name_;
};
}  // namespace perfgate
#endif

#endif
