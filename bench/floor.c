/*
 * The floor of `make bench` (issue #7): the least a JSON-RPC server over
 * stdio can do per request with the daemon's own JSON library.
 *
 * It reads the same LSP frames as flowlayoutd (`Content-Length: N\r\n\r\n`
 * then N bytes), parses every body with jansson, and answers every request
 * (a message with an `id`) with one fixed result shaped like a
 * `layout/setBounds` answer with 10 cards (contentSize, bounds, invalidated
 * with kind, section, item, center, size, frame, the 16 transform numbers,
 * alpha and zIndex, removed, centeredItem), built as a jansson tree and
 * dumped with jansson for each request. Notifications get no answer; `exit`
 * or EOF ends it. There is no layout at all: whatever flowlayoutd spends
 * beyond this is its own.
 *
 * Its I/O follows the daemon's: every complete frame already read is
 * answered before the answers are written in one write (or as soon as 64 KiB
 * are pending), so pipelined requests are batched the same way.
 *
 * Built by `make bench`: cc -O2 -o .build/bench/floor bench/floor.c
 *   $(pkg-config --cflags --libs jansson)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define CARDS 10

/* The 10 cards: a cover-flow carousel (960x200 viewport, scale factor 0.5,
   variable widths, spacing 10) somewhere in the middle of its content. */
static double card_cx[CARDS], card_w[CARDS], card_h[CARDS], card_s[CARDS];
static long long card_z[CARDS];
static const double bounds_x = 4500217.25, view_w = 960, view_h = 200;
static const long long first_item = 50003;

static void make_cards(void) {
  static const int widths[CARDS] = {87, 64, 93, 71, 99, 62, 80, 75, 91, 68};
  static const int heights[CARDS] = {131, 97, 144, 110, 92, 127, 150, 103, 119, 136};
  double x = bounds_x - 23.75;
  double mid = bounds_x + view_w / 2;
  for (int i = 0; i < CARDS; i++) {
    card_w[i] = widths[i];
    card_h[i] = heights[i];
    card_cx[i] = x + widths[i] / 2.0;
    x += widths[i] + 10;
    double d = card_cx[i] - mid;
    if (d < 0) d = -d;
    double s = 1 - 0.5 * d / view_w;
    card_s[i] = s < 0.6 ? 0.6 : s;
    card_z[i] = -(2 * (long long)d + (card_cx[i] > mid ? 1 : 0));
  }
}

static json_t *card(int i) {
  double s = card_s[i], w = card_w[i] * s, h = card_h[i] * s;
  json_t *t = json_array();
  for (int k = 0; k < 16; k++) {
    if (k == 0 || k == 5) json_array_append_new(t, json_real(s));
    else json_array_append_new(t, json_integer(k == 10 || k == 15 ? 1 : 0));
  }
  return json_pack(
      "{s:s, s:i, s:I, s:{s:f, s:i}, s:{s:i, s:i}, s:{s:f, s:f, s:f, s:f}, s:o, s:i, s:I}",
      "kind", "cell", "section", 0, "item", (json_int_t)(first_item + i),
      "center", "x", card_cx[i], "y", (int)(view_h / 2),
      "size", "width", (int)card_w[i], "height", (int)card_h[i],
      "frame", "x", card_cx[i] - w / 2, "y", view_h / 2 - h / 2, "width", w, "height", h,
      "transform", t, "alpha", 1, "zIndex", (json_int_t)card_z[i]);
}

static json_t *result(void) {
  json_t *cards = json_array();
  for (int i = 0; i < CARDS; i++) json_array_append_new(cards, card(i));
  return json_pack(
      "{s:{s:f, s:i}, s:{s:f, s:i, s:i, s:i}, s:o, s:[], s:{s:i, s:I}}",
      "contentSize", "width", 90000123.5, "height", 200,
      "bounds", "x", bounds_x, "y", 0, "width", (int)view_w, "height", (int)view_h,
      "invalidated", cards, "removed",
      "centeredItem", "section", 0, "item", (json_int_t)(first_item + 5));
}

/* Input: buf[pos, len) holds unread bytes. */
static char *in;
static size_t in_cap = 1 << 16, in_len, in_pos;
/* Output: answers not yet written. */
static char *out;
static size_t out_cap = 1 << 16, out_len;

static void flush_out(void) {
  size_t sent = 0;
  while (sent < out_len) {
    ssize_t n = write(1, out + sent, out_len - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) exit(1);
    sent += (size_t)n;
  }
  out_len = 0;
}

static void emit(const char *body, size_t n) {
  char header[64];
  int h = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", n);
  if (out_len + (size_t)h + n > out_cap) {
    while (out_len + (size_t)h + n > out_cap) out_cap *= 2;
    out = realloc(out, out_cap);
    if (!out) exit(2);
  }
  memcpy(out + out_len, header, (size_t)h);
  memcpy(out + out_len + h, body, n);
  out_len += (size_t)h + n;
}

/* Reads more input; returns 0 at EOF. */
static int fill(void) {
  if (in_pos == in_len) {
    in_pos = in_len = 0;
  } else if (in_pos > 0) {
    memmove(in, in + in_pos, in_len - in_pos);
    in_len -= in_pos;
    in_pos = 0;
  }
  if (in_len == in_cap) {
    in_cap *= 2;
    in = realloc(in, in_cap);
    if (!in) exit(2);
  }
  for (;;) {
    ssize_t n = read(0, in + in_len, in_cap - in_len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    in_len += (size_t)n;
    return 1;
  }
}

/* Handles one body; returns 1 when `exit` arrived. */
static int handle(const char *body, size_t n) {
  json_error_t err;
  json_t *msg = json_loadb(body, n, JSON_REJECT_DUPLICATES, &err);
  if (!msg) {
    static const char parse_error[] =
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";
    emit(parse_error, sizeof parse_error - 1);
    return 0;
  }
  json_t *id = json_object_get(msg, "id");
  const char *method = json_string_value(json_object_get(msg, "method"));
  if (!id) {
    int stop = method && strcmp(method, "exit") == 0;
    json_decref(msg);
    return stop;
  }
  json_t *resp = json_object();
  json_object_set_new(resp, "jsonrpc", json_string("2.0"));
  json_object_set(resp, "id", id);
  json_object_set_new(resp, "result", result());
  char *text = json_dumps(resp, JSON_COMPACT);
  if (!text) exit(2);
  emit(text, strlen(text));
  free(text);
  json_decref(resp);
  json_decref(msg);
  return 0;
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  make_cards();
  in = malloc(in_cap);
  out = malloc(out_cap);
  if (!in || !out) return 2;
  for (;;) {
    /* Answer every complete frame already read. */
    for (;;) {
      char *start = in + in_pos;
      size_t avail = in_len - in_pos;
      char *end = avail >= 4 ? memmem(start, avail, "\r\n\r\n", 4) : NULL;
      if (!end) break;
      long long length = -1;
      for (char *line = start; line < end;) {
        char *eol = memmem(line, (size_t)(end + 2 - line), "\r\n", 2);
        if (!eol) eol = end;
        if ((size_t)(eol - line) > 15 && strncasecmp(line, "Content-Length:", 15) == 0)
          length = strtoll(line + 15, NULL, 10);
        line = eol + 2;
      }
      size_t header = (size_t)(end + 4 - start);
      if (length < 0) { /* no length: skip the header block */
        in_pos += header;
        continue;
      }
      if (avail < header + (size_t)length) break;
      int stop = handle(start + header, (size_t)length);
      in_pos += header + (size_t)length;
      if (out_len > (1 << 16)) flush_out();
      if (stop) {
        flush_out();
        return 0;
      }
    }
    flush_out();
    if (!fill()) return 0;
  }
}
