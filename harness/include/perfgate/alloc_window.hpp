/* Marks the part of a program whose heap allocations perfgate counts (the LD_PRELOAD
 * interposer libperfgate_alloc.so; docs/scenario-contract.md, "Allocation counts"), so
 * setup and teardown are not counted. C and C++. Without the interposer both calls do
 * nothing: the functions are looked up at run time, so there is nothing to link.
 *
 *   perfgate_alloc_window_start();  // first call zeroes the counts; counting on
 *   ...the work...
 *   perfgate_alloc_window_stop();   // counting off; the figures are written now
 */
#ifndef PERFGATE_ALLOC_WINDOW_HPP
#define PERFGATE_ALLOC_WINDOW_HPP

#include <dlfcn.h>

typedef void (*perfgate_alloc_fn_)(void);

/* dlsym(RTLD_DEFAULT, ...): RTLD_DEFAULT is ((void*)0) in glibc, spelled out so C callers
 * need no _GNU_SOURCE. Looked up once, before the window opens, so the lookup is not counted. */
static inline perfgate_alloc_fn_ perfgate_alloc_lookup_(int stop) {
  static int looked = 0;
  static perfgate_alloc_fn_ start_fn = 0, stop_fn = 0;
  if (!looked) {
    start_fn = (perfgate_alloc_fn_)dlsym((void*)0, "perfgate_alloc_start");
    stop_fn = (perfgate_alloc_fn_)dlsym((void*)0, "perfgate_alloc_stop");
    looked = 1;
  }
  return stop ? stop_fn : start_fn;
}

static inline void perfgate_alloc_window_start(void) {
  perfgate_alloc_fn_ f = perfgate_alloc_lookup_(0);
  if (f) f();
}

static inline void perfgate_alloc_window_stop(void) {
  perfgate_alloc_fn_ f = perfgate_alloc_lookup_(1);
  if (f) f();
}

#endif
