import Detection
import Engine
import Foundation
import TestSupport
import XCTest
@testable import Training

/// A batch too large for the memory the process may use is refused before the first step, naming
/// the limit that applied (machine, `ulimit -v`, memory cgroup): past a limit the run would end in
/// SIGABRT or the OOM killer instead.
final class MemoryLimitTests: XCTestCase {
    let gib: UInt64 = 1 << 30

    /// The default network (256 x 512), about 75 MB of activations an image.
    func model() -> SSDModel {
        var g = SeededGenerator(seed: 1)
        return SSDModel(config: RunConfig().model, generator: &g)
    }

    func refusal(batch: Int, _ limits: MemoryLimits) -> String? {
        do { try TrainingSetup.checkMemory(model: model(), batch: batch, limits: limits); return nil } catch { return "\(error)" }
    }

    func testTheSmallestLimitDecidesAndTheErrorNamesIt() throws {
        let roomy = MemoryLimits(physical: 64 * gib)
        XCTAssertNil(refusal(batch: 64, roomy), "64 screens fit in 64 GiB")
        let machine = try XCTUnwrap(refusal(batch: 64, MemoryLimits(physical: 2 * gib)))
        XCTAssertTrue(machine.hasPrefix("config: batch_size: 64 screens of 256x512 per process need about") && machine.contains("this machine has 2.0 GiB"), machine)
        let ulimit = try XCTUnwrap(refusal(batch: 64, MemoryLimits(physical: 64 * gib, addressSpace: gib + gib / 2)))
        XCTAssertTrue(ulimit.contains("ulimit -v (RLIMIT_AS) leaves this process 1.5 GiB of address space"), ulimit)
        let file = "/sys/fs/cgroup/memory.max"
        let cgroup = try XCTUnwrap(refusal(batch: 64, MemoryLimits(physical: 64 * gib, addressSpace: 3 * gib,
                                                                     cgroup: .init(bytes: 2 * gib, what: "the memory cgroup allows 2.0 GiB (\(file))"))))
        XCTAssertTrue(cgroup.contains("the memory cgroup allows 2.0 GiB (\(file))"), cgroup)
        XCTAssertNil(refusal(batch: 2, MemoryLimits(physical: 64 * gib, addressSpace: 3 * gib, cgroup: .init(bytes: 2 * gib, what: file))))
    }

    /// cgroup v2's memory.max and v1's memory.limit_in_bytes, in the process's cgroup or above it:
    /// the tightest binds; "max" and v1's near-2^63 are no limit.
    func testCgroupLimitsAreReadFromTheProcessesCgroupAndItsParents() throws {
        let root = try scratchFolder(prefix: "uidetect-cgroup")
        func write(_ text: String, _ path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("max\n", "memory.max")
        try write("3221225472\n", "user.slice/memory.max")
        try write("max\n", "user.slice/session-1.scope/memory.max")
        let v2 = try XCTUnwrap(MemoryLimits.cgroupLimit(membership: "0::/user.slice/session-1.scope\n", root: root.path))
        XCTAssertEqual(v2.bytes, 3 * gib)
        XCTAssertEqual(v2.what, "the memory cgroup allows 3.0 GiB (\(root.path)/user.slice/memory.max)")
        // v1: the memory controller's hierarchy; unlimited is 9223372036854771712.
        try write("9223372036854771712\n", "memory/memory.limit_in_bytes")
        try write("1073741824\n", "memory/job/memory.limit_in_bytes")
        let v1 = try XCTUnwrap(MemoryLimits.cgroupLimit(membership: "5:cpu:/\n4:memory:/job\n0::/\n", root: root.path))
        XCTAssertEqual(v1.bytes, gib)
        XCTAssertTrue(v1.what.hasSuffix("(\(root.path)/memory/job/memory.limit_in_bytes)"), v1.what)
        // Inside a container the process's path is not under the mount: the root's file is the container's.
        try write("2147483648\n", "memory.max")
        XCTAssertEqual(MemoryLimits.cgroupLimit(membership: "0::/elsewhere/x\n", root: root.path)?.bytes, 2 * gib)
        try write("max\n", "memory.max")
        XCTAssertNil(MemoryLimits.cgroupLimit(membership: "0::/elsewhere/x\n", root: root.path))
    }

    func testThisProcessesLimitsAreRead() {
        let limits = MemoryLimits.current()
        XCTAssertEqual(limits.physical, ProcessInfo.processInfo.physicalMemory)
        XCTAssertLessThanOrEqual(limits.smallest.bytes, limits.physical)
    }
}
