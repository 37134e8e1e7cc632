/* libperfgate_sqlite.so: an LD_PRELOAD interposer that counts the SQL statements a server's
 * libsqlite3 executes, so perfgate can check the server's own count (X-Perfgate-Statements)
 * from outside (docs/parity.md, "Statements counted outside").
 *
 * One statement is one execution of a prepared statement, however many rows it returns: the
 * program's first sqlite3_step() of a statement that is not already running
 * (sqlite3_stmt_busy() false: fresh, reset, or run to completion), and each statement of an
 * sqlite3_exec() script. Steps libsqlite3 makes itself are not the program's statements and are
 * left out: Debian's library calls sqlite3_step through its own PLT (so they reach us) when it
 * reads a connection's schema or runs an exec script, which is counted at the exec. The count lives in a 16-byte file
 * named by $PERFGATE_SQLITE_COUNT_FILE, made by perfgate and mapped shared here: word 0 is set to 1 when this library
 * loads (so perfgate can tell "counted nothing" from "never loaded"), word 1 is the count, a relaxed atomic: exact from
 * any thread, readable by perfgate at any time.
 *
 * Blind to a program that links SQLite statically or opens it with dlopen(RTLD_DEEPBIND): its
 * statements are not seen, and the check reports the disagreement. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef int (*exec_callback)(void*, int, char**, char**);

static int (*next_step)(sqlite3_stmt*);
static int (*next_busy)(sqlite3_stmt*);
static int (*next_exec)(sqlite3*, const char*, exec_callback, void*, char**);
static int (*next_prepare)(sqlite3*, const char*, int, sqlite3_stmt**, const char**);
static int (*next_finalize)(sqlite3_stmt*);
static void* g_sqlite_base; /* where libsqlite3 is loaded: a step called from there is its own */
static uint64_t* g_words;   /* [0] loaded, [1] statements; NULL when no file was given */

__attribute__((constructor)) static void start(void) {
  next_step = (int (*)(sqlite3_stmt*))dlsym(RTLD_NEXT, "sqlite3_step");
  next_busy = (int (*)(sqlite3_stmt*))dlsym(RTLD_NEXT, "sqlite3_stmt_busy");
  next_exec = (int (*)(sqlite3*, const char*, exec_callback, void*, char**))dlsym(RTLD_NEXT, "sqlite3_exec");
  next_prepare =
      (int (*)(sqlite3*, const char*, int, sqlite3_stmt**, const char**))dlsym(RTLD_NEXT, "sqlite3_prepare_v2");
  next_finalize = (int (*)(sqlite3_stmt*))dlsym(RTLD_NEXT, "sqlite3_finalize");
  Dl_info in;
  if (next_step && dladdr((void*)next_step, &in)) g_sqlite_base = in.dli_fbase;
  const char* path = getenv("PERFGATE_SQLITE_COUNT_FILE");
  if (!path || !*path) return;
  const int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  void* p = mmap(NULL, 2 * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return;
  g_words = (uint64_t*)p;
  __atomic_store_n(&g_words[0], 1, __ATOMIC_RELAXED);
}

static void count(uint64_t n) {
  if (g_words) __atomic_fetch_add(&g_words[1], n, __ATOMIC_RELAXED);
}

static int called_by_sqlite(void* return_address) {
  Dl_info in;
  return g_sqlite_base && dladdr(return_address, &in) && in.dli_fbase == g_sqlite_base;
}

EXPORT int sqlite3_step(sqlite3_stmt* s) {
  if (g_words && s && next_busy && !next_busy(s) && !called_by_sqlite(__builtin_return_address(0))) count(1);
  return next_step(s);
}

/* Each statement of the script is prepared here to be counted, then the script runs as given.
 * A statement that cannot be prepared yet (it names a table an earlier one creates) counts
 * as one for the rest of the script: a floor, never a figure the program did not run. */
EXPORT int sqlite3_exec(sqlite3* db, const char* sql, exec_callback cb, void* arg, char** err) {
  const char* tail = sql;
  while (g_words && !called_by_sqlite(__builtin_return_address(0)) && next_prepare && tail && *tail) {
    sqlite3_stmt* s = NULL;
    const char* rest = NULL;
    if (next_prepare(db, tail, -1, &s, &rest) != 0) {
      count(1);
      break;
    }
    if (s) {
      count(1);
      next_finalize(s);
    }
    if (!rest || rest == tail) break;
    tail = rest;
  }
  return next_exec(db, sql, cb, arg, err);
}
