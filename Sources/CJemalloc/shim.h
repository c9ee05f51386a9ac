// CJemalloc: the jemalloc 5.x API as Swift can import it.
//
// jemalloc from libjemalloc-dev is built without a symbol prefix, so linking it replaces malloc
// for the whole process. Swift cannot import function-like macros, so the MALLOCX_* flags are
// wrapped here as static inline functions.
#ifndef MEMORYPRESSURE_CJEMALLOC_SHIM_H
#define MEMORYPRESSURE_CJEMALLOC_SHIM_H

#include <jemalloc/jemalloc.h>
#include <errno.h>
#include <stddef.h>

/// Flags for mallocx/dallocx/sdallocx that place an allocation in arena `arena`.
static inline int cjemalloc_mallocx_arena(unsigned arena) { return MALLOCX_ARENA(arena); }

/// Flags that bypass the thread cache (so the arena's statistics see every allocation and free).
static inline int cjemalloc_mallocx_tcache_none(void) { return MALLOCX_TCACHE_NONE; }

/// Flags that request an alignment of `alignment` bytes (a power of two).
static inline int cjemalloc_mallocx_align(size_t alignment) { return MALLOCX_ALIGN(alignment); }

/// Flags that zero the allocation.
static inline int cjemalloc_mallocx_zero(void) { return MALLOCX_ZERO; }

/// The pseudo-arena index that addresses every arena at once in `arena.<i>.*` controls.
static inline unsigned cjemalloc_arena_all(void) { return MALLCTL_ARENAS_ALL; }

#endif
