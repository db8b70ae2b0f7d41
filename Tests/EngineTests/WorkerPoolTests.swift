import Foundation
@testable import Engine
import XCTest

/// Counts and records what the shares of a loop did, from any thread.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]
    private var ranges: [Int: Range<Int>] = [:]
    private var flags: [String: Bool] = [:]

    func visit(_ block: Int, _ range: Range<Int>? = nil) {
        lock.lock(); defer { lock.unlock() }
        counts[block, default: 0] += 1
        if let range { ranges[block] = range }
    }
    func set(_ flag: String, _ value: Bool) { lock.lock(); flags[flag] = value; lock.unlock() }
    func flag(_ name: String) -> Bool? { lock.lock(); defer { lock.unlock() }; return flags[name] }
    func count(_ block: Int) -> Int { lock.lock(); defer { lock.unlock() }; return counts[block] ?? 0 }
    var total: Int { lock.lock(); defer { lock.unlock() }; return counts.values.reduce(0, +) }
    var blocks: [Int] { lock.lock(); defer { lock.unlock() }; return counts.keys.sorted() }
    var orderedRanges: [Range<Int>] { lock.lock(); defer { lock.unlock() }; return ranges.keys.sorted().map { ranges[$0]! } }
}

/// The engine's parallel loops (`Parallel.forEachBlock` on `WorkerPool`): every block exactly
/// once, the same blocks for one thread and two, loops nested in a share or started from two
/// threads at once finishing with every block done. Never more than two threads: the shared
/// pool keeps every helper it starts, each spinning after every loop, so a test that asked for
/// eight would slow every test after it on a two-core machine.
final class WorkerPoolTests: XCTestCase {
    private func loop(count: Int, blockSize: Int, threads: Int) -> Tally {
        let tally = Tally()
        Parallel.withThreads(threads) {
            Parallel.forEachBlock(count: count, blockSize: blockSize) { b, range in tally.visit(b, range) }
        }
        return tally
    }

    func testEveryBlockIsVisitedOnceAndTheBlocksTileTheRange() {
        for (count, blockSize) in [(1, 1), (10, 3), (1_000, 7), (64, 64), (65, 64)] {
            let blocks = Parallel.blockCount(count: count, blockSize: blockSize)
            let single = loop(count: count, blockSize: blockSize, threads: 1)
            for threads in [1, 2] {
                let tally = loop(count: count, blockSize: blockSize, threads: threads)
                XCTAssertEqual(tally.blocks, Array(0..<blocks), "count \(count), block \(blockSize), \(threads) threads")
                XCTAssertTrue((0..<blocks).allSatisfy { tally.count($0) == 1 }, "each block once")
                XCTAssertEqual(tally.orderedRanges, single.orderedRanges, "blocks depend on the count and block size only")
            }
            let tiles = single.orderedRanges
            XCTAssertEqual(tiles.first?.lowerBound, 0)
            XCTAssertEqual(tiles.last?.upperBound, count)
            XCTAssertTrue(zip(tiles, tiles.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        }
        XCTAssertEqual(loop(count: 0, blockSize: 4, threads: 2).total, 0)
    }

    /// A loop started inside a share (a worker's or the caller's) runs there, whole.
    func testALoopNestedInAShareRunsWhole() {
        let inner = Tally()
        Parallel.withThreads(2) {
            Parallel.forEachBlock(count: 8, blockSize: 1) { outer, _ in
                Parallel.forEachBlock(count: 100, blockSize: 10) { b, _ in inner.visit(outer * 100 + b) }
            }
        }
        XCTAssertEqual(inner.total, 80)
        XCTAssertEqual(inner.blocks.count, 80)
    }

    /// Two threads starting loops at once: one gets the pool, the other runs on its own thread; both finish with every block.
    func testLoopsFromTwoThreadsAtOnceBothFinish() {
        let tallies = [Tally(), Tally()]
        let group = DispatchGroup()
        for t in 0..<2 {
            group.enter()
            Thread {
                for round in 0..<200 {
                    Parallel.withThreads(2) {
                        Parallel.forEachBlock(count: 64, blockSize: 4) { b, _ in tallies[t].visit(round * 16 + b) }
                    }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        for tally in tallies {
            XCTAssertEqual(tally.total, 200 * 16)
            XCTAssertEqual(tally.blocks.count, 200 * 16, "every block of every loop once")
        }
    }

    /// Every block runs once, and the calling thread claims blocks too rather than only waiting.
    func testTheCallerWorksOnTheBlocks() {
        let caller = pthread_self()
        let tally = Tally()
        WorkerPool.shared.run(blocks: 32, workers: 2) { b in
            tally.visit(b)
            if pthread_equal(pthread_self(), caller) != 0 { tally.set("caller worked", true) }
            usleep(200)
        }
        XCTAssertEqual(tally.blocks, Array(0..<32))
        XCTAssertEqual(tally.total, 32)
        XCTAssertEqual(tally.flag("caller worked"), true)
    }

    /// The caller does not wait for a helper that has not entered the loop by the time every block
    /// is claimed: here the helper, asleep when the loop starts, sleeps half a second more before it
    /// tries to enter, and the loop is done before then.
    func testTheCallerDoesNotWaitForAHelperThatHasNotEntered() {
        let pool = WorkerPool.shared
        pool.run(blocks: 2, workers: 2) { _ in }  // a helper exists
        // Asleep, every helper reads the delay only when this test's loop wakes it.
        XCTAssertTrue(waitUntil { pool.sleepers.load(ordering: .sequentiallyConsistent) == pool.helpers }, "the helpers never went to sleep")
        let before = WorkerPool.testingDelayedEntries.load(ordering: .relaxed)
        WorkerPool.testingEntryDelay.store(500_000, ordering: .relaxed)
        defer { WorkerPool.testingEntryDelay.store(0, ordering: .relaxed) }
        let tally = Tally()
        pool.run(blocks: 8, workers: 2) { b in tally.visit(b) }
        XCTAssertEqual(WorkerPool.testingDelayedEntries.load(ordering: .relaxed), before, "the loop waited for the late helper")
        XCTAssertEqual(tally.blocks, Array(0..<8))
        XCTAssertEqual(tally.total, 8)
        // The helper did wake for that loop and take the delay: the case above was the one meant.
        XCTAssertTrue(waitUntil { WorkerPool.testingDelayedEntries.load(ordering: .relaxed) > before }, "the helper never took the delay")
    }

    /// Polls `condition` every millisecond for up to 10 seconds.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }
}
