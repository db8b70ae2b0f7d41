import TargetVectors

/// The vector registers of the CPU this build targets, which decide how wide a tile of sums the engine's
/// hand-written kernels keep in registers. The 1x1 panels, tiled for AVX-512's 32 registers of 16 floats,
/// spilled on AVX2's 16 registers of 8 and ran at a third of their speed (bench engine on a Zen 3). The
/// walks of 16 channels (depthwise, batch norm) stay 16 on every machine: 8 measured slower on the Zen 3
/// too, where a walk then reads half of each cache line. Every choice gives the same bits.
public enum VectorRegisters {
    /// Bytes per register: 64 with AVX-512, 32 with AVX2, 16 with SSE2 or NEON (TargetVectors.h).
    public static let bytes = Int(uidetect_vector_register_bytes())

    /// Whether the kernels may count on 16 floats per register (panels of 64 columns): only where one
    /// register holds 16. Tests set it both ways to check the bits agree. Read it on
    /// the calling thread: the engine's workers do not see a task-local value.
    @TaskLocal static var holdSixteenFloats = bytes >= 64

    /// The instruction set these registers come from, for bench output.
    public static var name: String {
        #if arch(x86_64)
        return bytes >= 64 ? "AVX-512" : bytes >= 32 ? "AVX2" : "SSE2 or AVX"
        #else
        return "\(bytes * 8)-bit vectors"
        #endif
    }
}
