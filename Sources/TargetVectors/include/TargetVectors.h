#ifndef UIDETECT_TARGET_VECTORS_H
#define UIDETECT_TARGET_VECTORS_H

/// Bytes per vector register the engine's kernels may count on for the CPU this build targets
/// (scripts/build-flags.sh): 64 with AVX-512, 32 with AVX2, 16 with SSE2 or NEON (and with AVX
/// without AVX2, whose lack of fused multiply-adds matters more than its width). Swift has no
/// condition for target features, but the headers it imports are compiled for the CPU its
/// `-target-cpu` names, so this is the compiler's answer, a constant in the optimised build.
static inline __attribute__((always_inline)) int uidetect_vector_register_bytes(void) {
#if defined(__AVX512F__)
    return 64;
#elif defined(__AVX2__)
    return 32;
#else
    return 16;
#endif
}

#endif
