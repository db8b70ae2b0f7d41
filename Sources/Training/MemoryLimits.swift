import Foundation

/// The memory a process may use: the machine's, and the limits set on the process, which end a
/// run with SIGABRT or the OOM killer long before the machine's memory is used up. Values, so
/// that a test can give any; `current()` reads them where the kernel keeps them.
public struct MemoryLimits: Equatable, Sendable {
    /// A limit and what sets it, in words for an error message.
    public struct Limit: Equatable, Sendable {
        public var bytes: UInt64
        public var what: String
        public init(bytes: UInt64, what: String) {
            self.bytes = bytes
            self.what = what
        }
    }

    /// The machine's memory.
    public var physical: UInt64
    /// `ulimit -v` (RLIMIT_AS) less the address space the process maps already; nil when unlimited.
    public var addressSpace: UInt64?
    /// The tightest memory cgroup limit over the process's cgroup and its parents, and its file; nil when unlimited.
    public var cgroup: Limit?

    public init(physical: UInt64, addressSpace: UInt64? = nil, cgroup: Limit? = nil) {
        self.physical = physical
        self.addressSpace = addressSpace
        self.cgroup = cgroup
    }

    /// The smallest of the limits, and what sets it.
    public var smallest: Limit {
        var out = Limit(bytes: physical, what: "this machine has \(Self.gib(physical))")
        if let a = addressSpace, a < out.bytes {
            out = Limit(bytes: a, what: "ulimit -v (RLIMIT_AS) leaves this process \(Self.gib(a)) of address space")
        }
        if let c = cgroup, c.bytes < out.bytes { out = c }
        return out
    }

    /// This process's limits now.
    public static func current() -> MemoryLimits {
        MemoryLimits(physical: ProcessInfo.processInfo.physicalMemory, addressSpace: addressSpaceLeft(),
                     cgroup: cgroupLimit(membership: (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""))
    }

    /// RLIMIT_AS's soft limit less the process's mapped size (`VmSize`, which thread stacks and
    /// libraries' reservations are part of); nil when unlimited.
    static func addressSpaceLeft() -> UInt64? {
        var limit = rlimit()
        // Glibc imports RLIMIT_AS as a case of an enum, getrlimit takes its raw value; RLIM_INFINITY
        // (all bits set) does not import.
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        let mapped = processField("VmSize:") ?? 0
        return UInt64(limit.rlim_cur) > mapped ? UInt64(limit.rlim_cur) - mapped : 0
    }

    /// A field of /proc/self/status in bytes (`VmSize:    3892 kB`).
    static func processField(_ name: String) -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, let kib = UInt64(fields[1]) else { return nil }
        return kib * 1024
    }

    /// The tightest memory limit of the cgroups in `membership` (the text of /proc/self/cgroup):
    /// cgroup v2's `memory.max` ("0::PATH") and v1's `memory.limit_in_bytes` ("N:memory:PATH"),
    /// in the process's cgroup and each parent up to `root` (a parent's limit binds its children;
    /// in a container, the process's path may not exist under `root`, whose own file is the container's).
    static func cgroupLimit(membership: String, root: String = "/sys/fs/cgroup") -> Limit? {
        var candidates: [(folder: String, file: String)] = []
        for line in membership.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            if parts[0] == "0" && parts[1].isEmpty {
                candidates += ancestors(of: String(parts[2]), under: root).map { ($0, "memory.max") }
            } else if parts[1].split(separator: ",").contains("memory") {
                candidates += ancestors(of: String(parts[2]), under: root + "/memory").map { ($0, "memory.limit_in_bytes") }
            }
        }
        var tightest: Limit? = nil
        for (folder, file) in candidates {
            let path = folder + "/" + file
            // "max" (v2) is no limit; v1's unlimited is a number near 2^63, larger than any machine.
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  let bytes = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            if bytes < tightest?.bytes ?? .max { tightest = Limit(bytes: bytes, what: "the memory cgroup allows \(gib(bytes)) (\(path))") }
        }
        return tightest
    }

    /// `root + path` and each folder above it, up to `root`.
    static func ancestors(of path: String, under root: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var out: [String] = []
        while true {
            out.append(([root] + parts).joined(separator: "/"))
            if parts.isEmpty { return out }
            parts.removeLast()
        }
    }

    static func gib(_ bytes: UInt64) -> String { String(format: "%.1f GiB", Double(bytes) / Double(1 << 30)) }
}
