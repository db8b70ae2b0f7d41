import CBLAS
import Foundation

/// Which of OpenBLAS's kernel sets runs the GEMMs, and whether the CPU could run a faster one.
///
/// OpenBLAS picks its kernels by CPU model when it loads, unless `OPENBLAS_CORETYPE` names a set.
/// A named set is kept (it is the user's choice, and the only way to pin GEMM rounding across
/// machines), but a set older than the CPU costs much: AVX2 kernels on a Zen 5 core run sgemm at
/// 122 GFLOP/s against 234 for its AVX-512 ones (`Experiments/train-bench/issue13`). Benchmarks
/// and training logs name the set and say so (`advice`).
public enum BLASKernels {
    /// The kernel set OpenBLAS runs now ("Haswell", "SkylakeX", "Cooperlake", ...).
    public static var current: String {
        guard let name = openblas_get_corename() else { return "unknown" }
        return String(cString: name)
    }

    /// The environment variable OpenBLAS reads its kernel set from.
    public static let environmentVariable = "OPENBLAS_CORETYPE"

    /// Kernel sets that use AVX-512 (a CPU that runs them gains nothing from a change).
    static let avx512Sets: Set<String> = ["skylakex", "cooperlake", "sapphirerapids"]

    /// The AVX-512 subsets OpenBLAS's SkylakeX kernels are compiled for.
    static let skylakeXFlags: Set<String> = ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]

    /// The kernel set to ask for instead of `current`, given the CPU's feature flags (as
    /// /proc/cpuinfo spells them), or nil when `current` already suits the CPU.
    ///
    /// Only an upgrade to AVX-512 is proposed: every other mis-pick leaves a set the CPU runs correctly.
    public static func better(than current: String, cpuFlags: Set<String>) -> String? {
        guard !avx512Sets.contains(current.lowercased()), skylakeXFlags.isSubset(of: cpuFlags) else { return nil }
        // What newer OpenBLAS releases pick for AVX-512 CPUs with bfloat16 (Zen 4 and later, Cooper Lake).
        return cpuFlags.contains("avx512_bf16") ? "Cooperlake" : "SkylakeX"
    }

    /// The CPU's feature flags from /proc/cpuinfo (empty where there is none).
    public static func cpuFlags(cpuinfo: String? = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) -> Set<String> {
        Set((cpuinfoField("flags", in: cpuinfo) ?? "").split(separator: " ").map(String.init))
    }

    /// The first non-empty value of `key` in /proc/cpuinfo's text ("model name", "flags"), blanks trimmed.
    public static func cpuinfoField(_ key: String, in cpuinfo: String?) -> String? {
        for line in (cpuinfo ?? "").split(separator: "\n") where line.hasPrefix(key) {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].trimmingCharacters(in: .whitespaces) == key else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { return value }
        }
        return nil
    }

    /// A sentence for benchmark and training output when the kernels in use are slower than this
    /// CPU can run (typically a set forced by `OPENBLAS_CORETYPE`); nil when they suit it.
    public static func advice(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let better = better(than: current, cpuFlags: cpuFlags()) else { return nil }
        let cause = environment[environmentVariable].map { "\(environmentVariable)=\($0) chooses them" } ?? "OpenBLAS picked them"
        return "OpenBLAS runs its \(current) kernels (\(cause)) on a CPU that runs its faster \(better) kernels; "
            + "for speed set \(environmentVariable)=\(better), or unset it where OpenBLAS recognises the CPU"
    }
}
