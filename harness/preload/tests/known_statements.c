/* Runs a known number of SQL statements on an in-memory database, so the statement counter
 * (libperfgate_sqlite.so) can be checked to count exactly that: 7 statements.
 *   sqlite3_exec of CREATE TABLE:       1
 *   sqlite3_exec, a script of 2:        2 (INSERT, INSERT)
 *   one prepared SELECT, run 3 times:   3 (each run stepped over its rows, then reset)
 *   sqlite3_exec of DELETE:             1
 * A step of a statement already running (its next row) is not a new statement, and SQLite's
 * own reads of the schema are not the program's. */
#include <sqlite3.h>
#include <stdio.h>

int main(void) {
  sqlite3* db = NULL;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
  if (sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL) != SQLITE_OK) return 1;
  if (sqlite3_exec(db, "INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);", NULL, NULL, NULL) != SQLITE_OK) return 1;
  sqlite3_stmt* s = NULL;
  if (sqlite3_prepare_v2(db, "SELECT x FROM t ORDER BY x", -1, &s, NULL) != SQLITE_OK) return 1;
  long rows = 0;
  for (int run = 0; run < 3; ++run) {
    while (sqlite3_step(s) == SQLITE_ROW) ++rows;
    sqlite3_reset(s);
  }
  sqlite3_finalize(s);
  if (sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL) != SQLITE_OK) return 1;
  sqlite3_close(db);
  printf("%ld rows\n", rows);
  return 0;
}
