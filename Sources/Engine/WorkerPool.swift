import Foundation
import Synchronization

/// The threads that run the engine's parallel loops beside the calling thread.
///
/// A forward pass at batch 1 runs about a hundred parallel loops of 20-300 µs each. Handing each
/// to Dispatch costs a thread wake-up per loop (tens of µs: measured as the second core adding
/// only 1.2x to a forward pass). These workers instead spin for a short while after each loop,
/// so that the next one starts within a microsecond, and only then sleep, so that an idle
/// process uses no CPU. The calling thread always does the first share itself.
///
/// One loop runs at a time: a loop started while another is running (from another thread, or
/// nested inside a worker's share) runs on its calling thread alone, with the same results,
/// since every loop's blocks depend on its size only.
final class WorkerPool: @unchecked Sendable {
    static let shared = WorkerPool()

    /// Spins of a waiting worker before it sleeps: about 50-100 µs on current x86-64 cores.
    private static let spins = 1_000_000

    /// Bumped once per loop; workers wait for it to change.
    private let generation = Atomic<Int>(0)
    /// Helpers that have not yet finished the current loop (every helper answers every loop).
    private let unfinished = Atomic<Int>(0)
    /// Set while a loop runs (claimed by compare-and-exchange).
    private let busy = Atomic<Bool>(false)
    /// Workers asleep on `wakeUp`, so that the caller signals only when one is.
    private let sleepers = Atomic<Int>(0)
    private let wakeUp = NSCondition()

    /// The current loop's body and how many shares it has (the caller's included); written
    /// before `generation` is bumped, read by workers after they see the bump.
    private var body: ((Int) -> Void)? = nil
    private var shares = 0
    private var helpers = 0

    /// Whether the current thread is one of the pool's workers.
    @TaskLocal private static var insideWorker = false

    /// Calls `share(w)` for w in 0..<count, share 0 on the calling thread and the others on
    /// workers, and returns when all are done.
    func run(count: Int, _ share: (Int) -> Void) {
        guard count > 1, !Self.insideWorker,
              busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for w in 0..<count { share(w) }
            return
        }
        defer { busy.store(false, ordering: .releasing) }
        ensureHelpers(count - 1)
        withoutActuallyEscaping(share) { share in
            body = share
            shares = count
            unfinished.store(helpers, ordering: .relaxed)
            // Sequentially consistent with the sleepers' count: either this sees a helper about
            // to sleep, or that helper sees the new generation (no wake-up is lost).
            generation.add(1, ordering: .sequentiallyConsistent)
            if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
                wakeUp.lock()
                wakeUp.broadcast()
                wakeUp.unlock()
            }
            share(0)
            while unfinished.load(ordering: .acquiring) > 0 {}
            body = nil
        }
    }

    /// Starts helper threads until there are `count`.
    private func ensureHelpers(_ count: Int) {
        while helpers < count {
            helpers += 1
            let index = helpers
            let seen = generation.load(ordering: .acquiring)
            let thread = Thread { [unowned self] in Self.$insideWorker.withValue(true) { self.work(index: index, seen: seen) } }
            thread.name = "uidetect-engine-\(index)"
            thread.start()
        }
    }

    /// A helper's life: wait for a loop, do share `index` if the loop has one, report it done.
    private func work(index: Int, seen: Int) {
        var seen = seen
        while true {
            var current = generation.load(ordering: .acquiring)
            var spun = 0
            while current == seen && spun < Self.spins {
                spun += 1
                current = generation.load(ordering: .acquiring)
            }
            if current == seen {
                wakeUp.lock()
                sleepers.add(1, ordering: .sequentiallyConsistent)
                current = generation.load(ordering: .sequentiallyConsistent)
                while current == seen {
                    wakeUp.wait()
                    current = generation.load(ordering: .acquiring)
                }
                sleepers.subtract(1, ordering: .releasing)
                wakeUp.unlock()
            }
            seen = current
            if index < shares, let body { body(index) }
            unfinished.subtract(1, ordering: .releasing)
        }
    }
}
