/*
 * Counts a process's heap allocations, for the per-frame allocation test
 * (Tests/EndToEnd/transport/test_allocations.py) and `make bench`: loaded with
 * LD_PRELOAD, it forwards malloc, calloc, realloc, posix_memalign,
 * aligned_alloc and memalign to the C library's own and counts the calls.
 * The count is read at any time by sending the process SIGUSR2, which
 * writes it (decimal, then a newline) to the file named by
 * FLOWLAYOUT_MALLOC_COUNT_FILE; nothing goes to stdout.
 *
 * Built by: cc -O2 -shared -fPIC -o malloc_count.so bench/malloc_count.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_long count;

void *malloc(size_t n) {
  atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
  return __libc_malloc(n);
}

void *calloc(size_t a, size_t b) {
  atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
  return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n) {
  atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
  return __libc_realloc(p, n);
}

void *memalign(size_t a, size_t n) {
  atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
  return __libc_memalign(a, n);
}

void *aligned_alloc(size_t a, size_t n) { return memalign(a, n); }

int posix_memalign(void **out, size_t a, size_t n) {
  void *p = memalign(a, n);
  if (!p) return 12; /* ENOMEM */
  *out = p;
  return 0;
}

/* Writes the count with write(2) only: safe in a signal handler. */
static void report(int sig) {
  (void)sig;
  const char *path = getenv("FLOWLAYOUT_MALLOC_COUNT_FILE");
  if (!path) return;
  char text[32];
  long v = atomic_load(&count);
  int n = 0;
  char digits[24];
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v > 0);
  for (int i = 0; i < n; i++) text[i] = digits[n - 1 - i];
  text[n] = '\n';
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  ssize_t ignored = write(fd, text, (size_t)n + 1);
  (void)ignored;
  close(fd);
}

__attribute__((constructor)) static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = report;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR2, &sa, NULL);
}
