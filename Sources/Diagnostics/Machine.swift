import Engine
import Foundation

/// What a speed figure was measured on: figures from different CPUs or kernel sets are never one.
public struct Machine: Codable, Equatable {
    /// The CPU's model name as /proc/cpuinfo gives it ("AMD EPYC 9R14", "Intel(R) Xeon(R) ...").
    public var cpuModel: String
    /// The kernel set OpenBLAS runs ("Cooperlake", "SkylakeX", ...).
    public var blasKernels: String
    public var threads: Int

    enum CodingKeys: String, CodingKey { case cpuModel = "cpu_model", blasKernels = "blas_kernels", threads }

    /// This machine, with the engine's thread count now.
    public static func current(threads: Int = Parallel.threadCount) -> Machine {
        Machine(cpuModel: cpuModel(), blasKernels: BLASKernels.current, threads: threads)
    }

    /// The first "model name" of `cpuinfo`, or "unknown CPU" (no /proc, or an arm64 kernel that names none).
    static func cpuModel(cpuinfo: String? = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) -> String {
        BLASKernels.cpuinfoField("model name", in: cpuinfo) ?? "unknown CPU"
    }

    /// One line for a person: "AMD EPYC 9R14, OpenBLAS Cooperlake kernels".
    public var description: String { "\(cpuModel), OpenBLAS \(blasKernels) kernels" }
}
