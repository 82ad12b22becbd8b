/* journal-fault.so: a disk that fills up or turns read-only under the
 * journal, for tests of "journal first" (LD_PRELOAD'ed into tablero-cli).
 *
 * Every file created under the folder TABLERO_FAULT_DIR is one write
 * attempt, counted from 1.  Attempts TABLERO_FAULT_FROM (default 1) to
 * TABLERO_FAULT_FROM + TABLERO_FAULT_COUNT - 1 (default: all after it) fail
 * as TABLERO_FAULT says:
 *   full       the file is made, every write to it fails with ENOSPC
 *   read-only  the file is not made: EROFS
 *   slow       every write to it takes 200 ms more and succeeds (a slow
 *              disk: tests/tools/resume-loop.sh kills during a write)
 * Nothing else is touched, so a real program runs as it would on a disk
 * that fills up and is freed again.
 */
#define _GNU_SOURCE
/* both open and open64 are wrapped: neither may be renamed to the other */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FDS 1024

enum { FD_PLAIN, FD_FULL, FD_SLOW };
static unsigned char fault_of[MAX_FDS];
static long attempts;

/* Whether a file created at `path` is an attempt that fails now. */
static bool
fails (const char *path)
{
  const char *dir = getenv ("TABLERO_FAULT_DIR");
  size_t n = dir != NULL ? strlen (dir) : 0;
  if (n == 0 || path == NULL || strncmp (path, dir, n) != 0 || path[n] != '/')
    return false;
  attempts++;
  const char *from_s = getenv ("TABLERO_FAULT_FROM"), *count_s = getenv ("TABLERO_FAULT_COUNT");
  long from = from_s != NULL ? atol (from_s) : 1;
  long count = count_s != NULL ? atol (count_s) : -1;
  return attempts >= from && (count < 0 || attempts < from + count);
}

static bool
mode_is (const char *name)
{
  const char *mode = getenv ("TABLERO_FAULT");
  return mode != NULL && strcmp (mode, name) == 0;
}

static int
opened (const char *path, int flags, mode_t mode, int (*real) (const char *, int, ...))
{
  bool fault = (flags & O_CREAT) != 0 && fails (path);
  if (fault && mode_is ("read-only"))
    {
      errno = EROFS;
      return -1;
    }
  int fd = real (path, flags, mode);
  if (fd >= 0 && fd < MAX_FDS)
    fault_of[fd] = !fault ? FD_PLAIN : mode_is ("slow") ? FD_SLOW : FD_FULL;
  return fd;
}

#define OPEN_WRAPPER(name)                                                                         \
  int name (const char *path, int flags, ...)                                                      \
  {                                                                                                \
    static int (*real) (const char *, int, ...);                                                   \
    if (real == NULL)                                                                              \
      real = (int (*) (const char *, int, ...)) dlsym (RTLD_NEXT, #name);                          \
    mode_t mode = 0;                                                                               \
    if (flags & (O_CREAT | O_TMPFILE))                                                             \
      {                                                                                            \
        va_list ap;                                                                                \
        va_start (ap, flags);                                                                      \
        mode = va_arg (ap, mode_t);                                                                \
        va_end (ap);                                                                               \
      }                                                                                            \
    return opened (path, flags, mode, real);                                                       \
  }

OPEN_WRAPPER (open)
OPEN_WRAPPER (open64)

ssize_t
write (int fd, const void *buf, size_t n)
{
  static ssize_t (*real) (int, const void *, size_t);
  if (real == NULL)
    real = (ssize_t (*) (int, const void *, size_t)) dlsym (RTLD_NEXT, "write");
  if (fd >= 0 && fd < MAX_FDS && fault_of[fd] == FD_FULL && n > 0)
    {
      errno = ENOSPC;
      return -1;
    }
  if (fd >= 0 && fd < MAX_FDS && fault_of[fd] == FD_SLOW)
    usleep (200000);
  return real (fd, buf, n);
}

int
close (int fd)
{
  static int (*real) (int);
  if (real == NULL)
    real = (int (*) (int)) dlsym (RTLD_NEXT, "close");
  if (fd >= 0 && fd < MAX_FDS)
    fault_of[fd] = FD_PLAIN;
  return real (fd);
}
