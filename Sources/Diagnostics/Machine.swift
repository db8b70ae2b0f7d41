import Engine
import Foundation

/// What a speed figure was measured on: figures from different CPUs or kernel sets are never one.
public struct Machine: Codable, Equatable {
    /// The CPU's model name as /proc/cpuinfo gives it ("AMD EPYC 9R14", "Intel(R) Xeon(R) ...").
    public var cpuModel: String
    /// Its family and model numbers ("family 25 model 17"): some hosts name a Zen 3 and a Zen 4 alike.
    /// Nil in records written before it was kept, and where /proc/cpuinfo gives none.
    public var cpuFamily: String?
    /// The vector registers the build targets ("AVX-512", "AVX2"), which the engine's kernels are blocked for.
    public var vectorRegisters: String?
    /// The kernel set OpenBLAS runs ("Cooperlake", "SkylakeX", ...).
    public var blasKernels: String
    public var threads: Int

    enum CodingKeys: String, CodingKey {
        case cpuModel = "cpu_model", cpuFamily = "cpu_family", vectorRegisters = "vector_registers", blasKernels = "blas_kernels", threads
    }

    /// This machine, with the engine's thread count now.
    public static func current(threads: Int = Parallel.threadCount) -> Machine {
        Machine(cpuModel: cpuModel(), cpuFamily: cpuFamily(), vectorRegisters: VectorRegisters.name, blasKernels: BLASKernels.current,
                threads: threads)
    }

    /// The first "model name" of `cpuinfo`, or "unknown CPU" (no /proc, or an arm64 kernel that names none).
    static func cpuModel(cpuinfo: String? = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) -> String {
        BLASKernels.cpuinfoField("model name", in: cpuinfo) ?? "unknown CPU"
    }

    /// "family F model M" from the first "cpu family" and "model" of `cpuinfo`, or nil where it gives none.
    static func cpuFamily(cpuinfo: String? = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) -> String? {
        guard let family = BLASKernels.cpuinfoField("cpu family", in: cpuinfo), let model = BLASKernels.cpuinfoField("model", in: cpuinfo)
        else { return nil }
        return "family \(family) model \(model)"
    }

    /// One line for a person: "AMD EPYC (family 25 model 1), AVX2, OpenBLAS Zen kernels".
    public var description: String {
        let family = cpuFamily.map { " (\($0))" } ?? ""
        let vectors = vectorRegisters.map { ", \($0)" } ?? ""
        return "\(cpuModel)\(family)\(vectors), OpenBLAS \(blasKernels) kernels"
    }
}
