/* Marks the part of a program whose heap allocations perfgate counts (the LD_PRELOAD
 * interposer libperfgate_alloc.so; docs/scenario-contract.md, "Allocation counts"), so
 * setup and teardown are not counted. C and C++. Without the interposer both calls do
 * nothing: the functions are looked up at run time, so there is nothing to link.
 *
 *   perfgate_alloc_window_start();  // first call zeroes the counts; counting on
 *   ...the work...
 *   perfgate_alloc_window_stop();   // counting off; the figures are written now
 *   perfgate_alloc_window_allocs(); // the window's count so far (-1 without the interposer)
 */
#ifndef PERFGATE_ALLOC_WINDOW_HPP
#define PERFGATE_ALLOC_WINDOW_HPP

#include <dlfcn.h>

typedef struct {
  void (*start)(void);
  void (*stop)(void);
  unsigned long long (*allocs)(void);
} perfgate_alloc_api_;

/* dlsym(RTLD_DEFAULT, ...): RTLD_DEFAULT is ((void*)0) in glibc, spelled out so C callers
 * need no _GNU_SOURCE. Looked up once, before the window opens, so the lookup is not counted. */
static inline const perfgate_alloc_api_* perfgate_alloc_api_get_(void) {
  static int looked = 0;
  static perfgate_alloc_api_ api = {0, 0, 0};
  if (!looked) {
    api.start = (void (*)(void))dlsym((void*)0, "perfgate_alloc_start");
    api.stop = (void (*)(void))dlsym((void*)0, "perfgate_alloc_stop");
    api.allocs = (unsigned long long (*)(void))dlsym((void*)0, "perfgate_alloc_allocs");
    looked = 1;
  }
  return &api;
}

static inline void perfgate_alloc_window_start(void) {
  const perfgate_alloc_api_* api = perfgate_alloc_api_get_();
  if (api->start) api->start();
}

static inline void perfgate_alloc_window_stop(void) {
  const perfgate_alloc_api_* api = perfgate_alloc_api_get_();
  if (api->stop) api->stop();
}

/* Allocations counted in the window so far (start to now, across start/stop pairs), or -1
 * when the interposer is not loaded (a timed run): a program reads it between two parts of its
 * work for per-part figures (allocations per file row, per folder row) and reports them only
 * when it is not -1. */
static inline long long perfgate_alloc_window_allocs(void) {
  const perfgate_alloc_api_* api = perfgate_alloc_api_get_();
  return api->allocs ? (long long)api->allocs() : -1;
}

#endif
