#ifndef UIDETECT_STREAMING_STORES_H
#define UIDETECT_STREAMING_STORES_H

/// Non-temporal ("streaming") stores, which Swift cannot express: a plain store to a line not in
/// cache first reads that line from memory, so a pass that writes a tensor larger than the caches
/// moves its output twice. Measured on the Zen 4 (2 threads, y = a x + b over 32 MB): 31 GB/s with
/// plain stores, 49 GB/s streaming; on 8 MB, which the last-level cache holds, streaming was slower
/// (64 against 47 GB/s), so callers stream only what is larger than that.

typedef float uidetect_float16 __attribute__((ext_vector_type(16)));

/// Stores 16 floats at `p`, which must be 64-byte aligned, without reading its cache line first.
static inline __attribute__((always_inline)) void uidetect_stream16(float *p, uidetect_float16 v) {
    __builtin_nontemporal_store(v, (uidetect_float16 *)p);
}

/// Orders this thread's streaming stores before its later stores: call it before another thread
/// may read what they wrote (they bypass the ordering a release store gives plain stores on x86).
static inline __attribute__((always_inline)) void uidetect_stream_fence(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

#endif
