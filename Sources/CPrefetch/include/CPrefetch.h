#ifndef TAGSH_CPREFETCH_H
#define TAGSH_CPREFETCH_H

/// Asks the processor to start loading the cache line at `p` (for reading) without waiting for it: Swift has no
/// prefetch of its own.
static inline void tagsh_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

#endif
