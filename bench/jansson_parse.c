/*
 * How long jansson itself takes to parse a message (issue #28): the
 * daemon's large requests are judged against it.
 *
 *   jansson_parse FILE [RUNS]   one JSON text, parsed RUNS times (default
 *                               1); prints the fastest parse in ms.
 *   jansson_parse --frames FILE a stream of LSP frames (Content-Length
 *                               headers), each body parsed once, in order,
 *                               in this one process; prints the sum in ms.
 *
 * Both parse with json_loadb and the daemon's flags (JSON_REJECT_DUPLICATES
 * | JSON_DECODE_ANY), the tree freed between parses and outside the timing.
 * make bench parses a single message once: the daemon meets a message once,
 * in pages it has not touched yet, and a second parse of the same text
 * reuses the first one's (about a third faster). A load of many messages is
 * parsed as the daemon meets it: one after another in one process, each
 * parse reusing the heap the previous one freed.
 *
 * Built by `make bench`: cc -O2 -o .build/bench/jansson_parse
 *   bench/jansson_parse.c $(pkg-config --cflags --libs jansson)
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "cannot read %s\n", path);
    fclose(f);
    free(buf);
    return NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* One timed parse of buf[0..<n] in ms, or -1 on a parse error. */
static double parse_ms(const char *buf, size_t n) {
  struct timespec a, b;
  json_error_t err;
  clock_gettime(CLOCK_MONOTONIC, &a);
  json_t *root = json_loadb(buf, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
  clock_gettime(CLOCK_MONOTONIC, &b);
  if (!root) {
    fprintf(stderr, "parse error: %s\n", err.text);
    return -1;
  }
  json_decref(root);
  return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static int frames(const char *path) {
  size_t n;
  char *buf = slurp(path, &n);
  if (!buf) return 1;
  double total = 0;
  size_t i = 0;
  while (i < n) {
    const char *end = strstr(buf + i, "\r\n\r\n");
    const char *len = strstr(buf + i, "Content-Length:");
    if (!end || !len || len > end) {
      fprintf(stderr, "bad frame header at byte %zu\n", i);
      return 1;
    }
    size_t body = strtoull(len + 15, NULL, 10);
    size_t start = (size_t)(end - buf) + 4;
    if (start + body > n) {
      fprintf(stderr, "truncated frame at byte %zu\n", i);
      return 1;
    }
    double ms = parse_ms(buf + start, body);
    if (ms < 0) return 1;
    total += ms;
    i = start + body;
  }
  printf("%.3f\n", total);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--frames") == 0) return frames(argv[2]);
  if (argc < 2) {
    fprintf(stderr, "usage: jansson_parse FILE [RUNS] | jansson_parse --frames FILE\n");
    return 2;
  }
  size_t n;
  char *buf = slurp(argv[1], &n);
  if (!buf) return 1;
  int runs = argc > 2 ? atoi(argv[2]) : 1;
  double best = -1;
  for (int r = 0; r < runs; r++) {
    double ms = parse_ms(buf, n);
    if (ms < 0) return 1;
    if (best < 0 || ms < best) best = ms;
  }
  printf("%.3f\n", best);
  free(buf);
  return 0;
}
