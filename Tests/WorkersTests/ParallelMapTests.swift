import Foundation
import Synchronization
import Workers
import XCTest

/// `parallelMap`: results in item order whatever the number of workers, each item done once, by
/// the worker the documented stride gives it, on threads that really run side by side.
final class ParallelMapTests: XCTestCase {
    func testResultsAreInItemOrderForAnyNumberOfWorkers() {
        let expected = (0..<101).map { $0 * $0 }
        for workers in [1, 2, 3, 8, 101, 500] {
            XCTAssertEqual(parallelMap(count: 101, workers: workers) { _, i in i * i }, expected, "\(workers) workers")
        }
        XCTAssertEqual(parallelMap(count: 0, workers: 4) { _, i in i }, [])
        XCTAssertEqual(parallelMap(count: 3, workers: 0) { w, i in [w, i] }, [[0, 0], [0, 1], [0, 2]], "no workers means one")
    }

    /// Worker w takes items w, w + workers, ...; more workers than items are cut to one per item.
    func testEachItemIsDoneOnceByTheWorkerOfItsStride() {
        let calls = Atomic<Int>(0)
        let owners = parallelMap(count: 10, workers: 3) { w, _ -> Int in
            calls.add(1, ordering: .relaxed)
            return w
        }
        XCTAssertEqual(calls.load(ordering: .relaxed), 10)
        XCTAssertEqual(owners, (0..<10).map { $0 % 3 })
        XCTAssertEqual(parallelMap(count: 2, workers: 5) { w, _ in w }, [0, 1])
    }

    /// Two items that each wait for the other finish only if two workers run at once.
    func testWorkersRunConcurrently() throws {
        try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "one core: Dispatch may run the workers one after the other")
        let arrived = Atomic<Int>(0)
        let met = parallelMap(count: 2, workers: 2) { _, _ -> Bool in
            arrived.add(1, ordering: .sequentiallyConsistent)
            let deadline = Date().addingTimeInterval(10)
            while arrived.load(ordering: .sequentiallyConsistent) < 2 && Date() < deadline { usleep(100) }
            return arrived.load(ordering: .sequentiallyConsistent) == 2
        }
        XCTAssertEqual(met, [true, true])
    }

    /// Objects each worker uses alone cross into the workers wrapped, and come back as they were changed.
    func testUncheckedSendableHandsEachWorkerItsOwnObject() {
        final class Counter { var total = 0 }
        let counters = (0..<3).map { _ in Counter() }
        let shared = UncheckedSendable(counters)
        _ = parallelMap(count: 30, workers: 3) { w, i -> Int in
            shared.value[w].total += i
            return i
        }
        XCTAssertEqual(counters.map(\.total), [0, 1, 2].map { w in stride(from: w, to: 30, by: 3).reduce(0, +) })
    }
}
