@testable import Distributed
import Engine
import Foundation
import XCTest

/// The parts of data-parallel runs that need no MPI: a process not started by `mpirun` has no
/// group, a group of one rank leaves every buffer as it is, and the sum adds the ranks' parts in
/// rank order (the end-to-end runs over mpirun are in CommandLineTests/DistributedTrainingTests).
final class ProcessGroupTests: XCTestCase {
    func testWithoutMPIRunThereIsNoGroup() throws {
        try XCTSkipIf(ProcessGroup.launchedByMPI, "the tests themselves were started by mpirun")
        XCTAssertNil(try ProcessGroup.join())
    }

    func testAGroupOfOneLeavesEveryBufferAsItIs() throws {
        let group = ProcessGroup(rank: 0, size: 1, timeout: 1, comm: nil)
        var values: [Float] = [1.5, -2, 3e-8, .greatestFiniteMagnitude]
        let before = values
        try values.withUnsafeMutableBufferPointer { try group.sum($0.baseAddress!, count: $0.count, what: "test") }
        XCTAssertEqual(values, before)
        XCTAssertEqual(group.sumCalls, 0, "nothing to sum with one rank")
        try values.withUnsafeMutableBufferPointer { try group.broadcast($0.baseAddress!, count: $0.count, what: "test") }
        XCTAssertEqual(values, before)
        XCTAssertEqual(try group.gather([1, 2, 3], what: "test"), [[1, 2, 3]])
        XCTAssertNoThrow(try group.barrier(what: "test"))
        XCTAssertEqual(SynchronisedBatchStatistics(group: group).gather([0.25, 4]), [[0.25, 4]])
    }

    /// Float addition is not associative: 1e8 + 1 rounds back to 1e8. Added in rank order, ranks
    /// holding 1e8, 1 and -1e8 sum to 0 on every rank and every run; another order would give 1.
    func testTheSumAddsTheRanksInRankOrder() {
        let ranks: [[Float]] = [[1e8, 0.5, 2], [1, 0.25, -2], [-1e8, 0.125, 7]]
        let received = ranks.flatMap { $0 }
        XCTAssertEqual(ProcessGroup.sumInRankOrder(received, chunk: 3, ranks: 3), [0, 0.875, 7])
        XCTAssertEqual((Float(1e8) + -1e8) + 1, 1, "the order matters for these numbers")
        XCTAssertEqual(ProcessGroup.sumInRankOrder([4, 5], chunk: 2, ranks: 1), [4, 5])
    }

    /// An all-reduce made in process as `sum` makes it over MPI: each rank's buffer padded and cut
    /// into one chunk per rank, rank r summing everyone's chunk r in rank order, the summed chunks
    /// handed back to all. Every rank ends with the same bits, equal to the rank-order sum.
    func testAnAllReduceInProcessGivesEveryRankTheRankOrderSum() {
        let size = 3, count = 7
        let chunk = (count + size - 1) / size
        var g = SeededGenerator(seed: 4)
        // Magnitudes from 1 to 1e7, so that the order of the additions shows in the bits.
        let buffers = (0..<size).map { _ in (0..<count).map { _ in g.uniform(-1...1) * powf(10, Float(g.int(0...7))) } }
        let padded = buffers.map { $0 + [Float](repeating: 0, count: chunk * size - count) }
        // All-to-all: rank r receives chunk r of every rank's buffer, in rank order.
        let sums = (0..<size).map { r in
            ProcessGroup.sumInRankOrder((0..<size).flatMap { s in padded[s][(r * chunk)..<((r + 1) * chunk)] }, chunk: chunk, ranks: size)
        }
        // All-gather: every rank gets every summed chunk.
        let result = Array(sums.joined().prefix(count))
        let expected = (0..<count).map { i in buffers.dropFirst().reduce(buffers[0][i]) { $0 + $1[i] } }
        XCTAssertEqual(result.map(\.bitPattern), expected.map(\.bitPattern))
    }
}
