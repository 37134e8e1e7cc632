/* libperfgate_alloc.so: an LD_PRELOAD interposer that counts heap allocations from outside a
 * program (docs/scenario-contract.md, "Allocation counts"). It forwards to glibc's own
 * __libc_* entry points rather than dlsym(RTLD_NEXT), because dlsym may itself allocate and
 * would recurse into us before we know where malloc is.
 *
 * Counting is on from the constructor to exit, or, once the program calls
 * perfgate_alloc_start(), only between start and stop calls (perfgate/alloc_window.hpp).
 * The figures go to "$PERFGATE_ALLOC_OUT.<pid>" as one JSON line, at stop and at exit; never
 * to the program's stdout. Counters are relaxed atomics: exact totals from any thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void __libc_free(void*);
extern void* __libc_memalign(size_t, size_t);
extern void* __libc_valloc(size_t);
extern void* __libc_pvalloc(size_t);

#define EXPORT __attribute__((visibility("default")))

static atomic_int g_on = 1;       /* counting now */
static atomic_int g_windowed = 0; /* the program marked a window */
static atomic_llong g_live = 0;   /* live heap (usable bytes), always tracked */
static atomic_llong g_base = 0;   /* live heap when counting started */
static atomic_llong g_peak = 0;   /* peak of live - base while counting */
static atomic_llong g_live_at_stop = 0;
static atomic_ullong g_allocs = 0, g_bytes = 0, g_frees = 0;
/* Allocations of 1 MiB or more: one per big buffer (an Argon2id memory block, an image), a count
 * of work units a program cannot relay differently from outside. */
static atomic_ullong g_large = 0;
#define LARGE_ALLOC ((size_t)1 << 20)
static char g_out[4096]; /* PERFGATE_ALLOC_OUT, read once */

static void on_alloc(void* p, size_t requested) {
  if (!p) return;
  const long long size = (long long)malloc_usable_size(p);
  const long long now = atomic_fetch_add_explicit(&g_live, size, memory_order_relaxed) + size;
  if (!atomic_load_explicit(&g_on, memory_order_relaxed)) return;
  atomic_fetch_add_explicit(&g_allocs, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&g_bytes, requested, memory_order_relaxed);
  if (requested >= LARGE_ALLOC) atomic_fetch_add_explicit(&g_large, 1, memory_order_relaxed);
  const long long above = now - atomic_load_explicit(&g_base, memory_order_relaxed);
  long long peak = atomic_load_explicit(&g_peak, memory_order_relaxed);
  while (above > peak &&
         !atomic_compare_exchange_weak_explicit(&g_peak, &peak, above, memory_order_relaxed, memory_order_relaxed)) {
  }
}

static void on_free(void* p) {
  if (!p) return;
  atomic_fetch_sub_explicit(&g_live, (long long)malloc_usable_size(p), memory_order_relaxed);
  if (atomic_load_explicit(&g_on, memory_order_relaxed)) atomic_fetch_add_explicit(&g_frees, 1, memory_order_relaxed);
}

EXPORT void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  on_alloc(p, n);
  return p;
}

EXPORT void* calloc(size_t count, size_t size) {
  void* p = __libc_calloc(count, size);
  on_alloc(p, count * size);
  return p;
}

EXPORT void* realloc(void* old, size_t n) {
  /* The old block's size must be read before glibc may free it. */
  const long long old_size = old ? (long long)malloc_usable_size(old) : 0;
  void* p = __libc_realloc(old, n);
  if (old && (p || n == 0)) {
    atomic_fetch_sub_explicit(&g_live, old_size, memory_order_relaxed);
    if (!p && atomic_load_explicit(&g_on, memory_order_relaxed))
      atomic_fetch_add_explicit(&g_frees, 1, memory_order_relaxed);
  }
  on_alloc(p, n);
  return p;
}

EXPORT void free(void* p) {
  on_free(p);
  __libc_free(p);
}

EXPORT void* memalign(size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  on_alloc(p, n);
  return p;
}

EXPORT void* aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }

EXPORT int posix_memalign(void** out, size_t alignment, size_t n) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = memalign(alignment, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

EXPORT void* valloc(size_t n) {
  void* p = __libc_valloc(n);
  on_alloc(p, n);
  return p;
}

EXPORT void* pvalloc(size_t n) {
  void* p = __libc_pvalloc(n);
  on_alloc(p, n);
  return p;
}

/* complete = 0: written at start, so a process that ends without running destructors (_exit,
 * as dash does) leaves a file the harness knows to leave out. */
static void write_figures(int complete) {
  if (!g_out[0]) return;
  char path[4200], line[512];
  snprintf(path, sizeof path, "%s.%ld", g_out, (long)getpid());
  const int on = atomic_load(&g_on);
  const long long live = on ? atomic_load(&g_live) - atomic_load(&g_base) : atomic_load(&g_live_at_stop);
  const int len =
      snprintf(line, sizeof line,
               "{\"allocs\":%llu,\"large_allocs\":%llu,\"alloc_bytes\":%llu,\"frees\":%llu,\"peak_heap_bytes\":%lld,"
               "\"live_heap_bytes\":%lld,\"window\":%s,\"complete\":%s}\n",
               atomic_load(&g_allocs), atomic_load(&g_large), atomic_load(&g_bytes), atomic_load(&g_frees),
               atomic_load(&g_peak), live, atomic_load(&g_windowed) ? "true" : "false", complete ? "true" : "false");
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t done = write(fd, line, (size_t)len);
  (void)done;
  close(fd);
}

static void zero_counters(void) {
  atomic_store(&g_allocs, 0);
  atomic_store(&g_large, 0);
  atomic_store(&g_bytes, 0);
  atomic_store(&g_frees, 0);
  atomic_store(&g_peak, 0);
  atomic_store(&g_base, atomic_load(&g_live));
}

EXPORT void perfgate_alloc_start(void) {
  if (!atomic_exchange(&g_windowed, 1)) zero_counters();
  atomic_store(&g_on, 1);
}

EXPORT void perfgate_alloc_stop(void) {
  if (!atomic_exchange(&g_on, 0)) return;
  atomic_store(&g_live_at_stop, atomic_load(&g_live) - atomic_load(&g_base));
  write_figures(1);
}

/* The window's allocations so far, for a program that divides them itself (per kind of row:
 * perfgate/alloc_window.hpp, perfgate_alloc_window_allocs). */
EXPORT unsigned long long perfgate_alloc_allocs(void) { return atomic_load(&g_allocs); }

/* A forked child that does not exec would otherwise report its parent's counts again. */
static void after_fork_in_child(void) {
  zero_counters();
  atomic_store(&g_windowed, 0);
  atomic_store(&g_on, 1);
}

__attribute__((constructor)) static void start_counting(void) {
  const char* out = getenv("PERFGATE_ALLOC_OUT");
  if (out && strlen(out) < sizeof g_out) strcpy(g_out, out);
  pthread_atfork(NULL, NULL, after_fork_in_child);
  zero_counters();
  write_figures(0);
}

__attribute__((destructor)) static void report_at_exit(void) { write_figures(1); }
