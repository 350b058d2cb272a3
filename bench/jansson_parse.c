/*
 * How long jansson itself takes to parse a message (issue #28): the
 * daemon's large requests are judged against it. Reads one JSON text from
 * the file named by argv[1], parses it with json_loadb and the daemon's
 * flags (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY) argv[2] times (default
 * 1), and prints the fastest parse in milliseconds, the tree freed between
 * runs and outside the timing. make bench parses once: the daemon meets a
 * message once, in pages it has not touched yet, and a second parse in the
 * same process reuses the first one's (about a third faster).
 *
 * Built by `make bench`: cc -O2 -o .build/bench/jansson_parse
 *   bench/jansson_parse.c $(pkg-config --cflags --libs jansson)
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: jansson_parse FILE [RUNS]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  fclose(f);
  int runs = argc > 2 ? atoi(argv[2]) : 1;
  double best = -1;
  for (int r = 0; r < runs; r++) {
    struct timespec a, b;
    json_error_t err;
    clock_gettime(CLOCK_MONOTONIC, &a);
    json_t *root = json_loadb(buf, (size_t)n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (!root) {
      fprintf(stderr, "parse error: %s\n", err.text);
      return 1;
    }
    json_decref(root);
    double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    if (best < 0 || ms < best) best = ms;
  }
  printf("%.3f\n", best);
  free(buf);
  return 0;
}
