#ifndef FLOWLAYOUTD_CJANSSON_SHIM_H
#define FLOWLAYOUTD_CJANSSON_SHIM_H
#include <jansson.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// jansson exposes its type tests and reference counting as macros or
// static inline functions; Swift cannot import the macros, so wrap them.
static inline int cj_typeof(const json_t *json) { return json ? (int)json_typeof(json) : -1; }
static inline void cj_decref(json_t *json) { json_decref(json); }
static inline json_t *cj_incref(json_t *json) { return json_incref(json); }
static inline int cj_is_integer(const json_t *json) { return json_is_integer(json); }
static inline int cj_is_real(const json_t *json) { return json_is_real(json); }
static inline int cj_is_number(const json_t *json) { return json_is_number(json); }
static inline int cj_is_string(const json_t *json) { return json_is_string(json); }
static inline int cj_is_object(const json_t *json) { return json_is_object(json); }
static inline int cj_is_array(const json_t *json) { return json_is_array(json); }
static inline int cj_is_boolean(const json_t *json) { return json_is_boolean(json); }
static inline int cj_is_null(const json_t *json) { return json_is_null(json); }
static inline int cj_is_true(const json_t *json) { return json_is_true(json); }
static inline int cj_error_code(const json_error_t *e) { return (int)json_error_code(e); }
// After a bulk request, the server gives freed heap memory back (glibc
// keeps it otherwise); elsewhere there is nothing to do.
static inline void cj_release_free_memory(void) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
// For a long-running server: large temporaries (a diff's table, a
// snapshot's items, a few MB each) come from the heap and are reused by
// the next request, instead of fresh pages faulted in and zeroed every
// time; at most 64 MiB of free heap is kept (a bulk load's end still gives
// everything back, above).
static inline void cj_keep_freed_memory(void) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}
#endif
