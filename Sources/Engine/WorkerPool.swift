import Dispatch
import Foundation
import Synchronization

/// The threads that run the engine's parallel loops beside the calling thread.
///
/// A forward pass at batch 1 runs about a hundred parallel loops of 20-300 µs each. Handing each
/// to Dispatch costs a thread wake-up per loop (tens of µs: measured as the second core adding
/// only 1.2x to a forward pass). These workers instead spin for a short while after each loop,
/// so that the next one starts within a microsecond, and only then sleep, so that an idle
/// process uses no CPU. The calling thread works on the loop's blocks too.
///
/// Shares claim blocks from a shared counter rather than owning a fixed slice, so that a worker
/// the OS has paused (on 2 cores the input pipeline's thread competes with the engine's) delays
/// only the block it holds. For the same reason the caller waits only for helpers that entered
/// the loop before it ran out of blocks: a helper that wakes after that stays out, so a helper
/// whose core is busy elsewhere does not hold up every loop until it is scheduled. Waiting
/// threads spin briefly, then offer the core with `sched_yield` before they sleep: a spinning
/// thread must never keep a runnable thread of this process off the core it waits on.
///
/// One loop runs at a time: a loop started while another is running (from another thread, or
/// nested inside a worker's share) runs on its calling thread alone, with the same results,
/// since every loop's blocks depend on its size only.
final class WorkerPool: @unchecked Sendable {
    static let shared = WorkerPool()

    /// Busy spins of a waiting thread before it starts yielding (tens of microseconds).
    private static let spins = 30_000
    /// How long a waiting worker keeps yielding before it sleeps.
    private static let yieldNanoseconds: UInt64 = 200_000

    /// Bumped once per loop; workers wait for it to change.
    private let generation = Atomic<Int>(0)
    /// The helpers inside the current loop, or `closed` added: no loop runs, or the caller has run
    /// out of blocks and waits for those inside to leave. Helpers enter only while it is open.
    private let door = Atomic<Int>(WorkerPool.closed)
    private static let closed = 1 << 32
    /// Tests only: microseconds a helper sleeps after it wakes for a loop and before it tries to enter,
    /// and how many helpers have come out of that sleep (a helper whose core is busy elsewhere, made on purpose).
    static let testingEntryDelay = Atomic<Int>(0)
    static let testingDelayedEntries = Atomic<Int>(0)
    /// Set while a loop runs (claimed by compare-and-exchange).
    private let busy = Atomic<Bool>(false)
    /// Workers asleep on `wakeUp`, so that the caller signals only when one is (and tests can wait for it).
    let sleepers = Atomic<Int>(0)
    private let wakeUp = NSCondition()

    /// The next block of the current loop not yet claimed.
    private let nextBlock = Atomic<Int>(0)

    /// The current loop's body, its block count and how many shares it has (the caller's
    /// included); written before the door opens, read only by helpers inside it.
    private var body: ((Int) -> Void)? = nil
    private var blocks = 0
    private var shares = 0
    /// Helper threads started (they never stop).
    private(set) var helpers = 0

    /// Whether the current thread is one of the pool's workers.
    @TaskLocal private static var insideWorker = false

    /// Calls `block(b)` for b in 0..<blocks, each once, on the calling thread and up to
    /// `workers - 1` helpers, and returns when all are done.
    func run(blocks: Int, workers: Int, _ block: (Int) -> Void) {
        guard workers > 1, blocks > 1, !Self.insideWorker,
              busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for b in 0..<blocks { block(b) }
            return
        }
        defer { busy.store(false, ordering: .releasing) }
        ensureHelpers(workers - 1)
        withoutActuallyEscaping(block) { block in
            body = block
            self.blocks = blocks
            shares = workers
            nextBlock.store(0, ordering: .relaxed)
            door.store(0, ordering: .releasing)
            // Sequentially consistent with the sleepers' count: either this sees a helper about
            // to sleep, or that helper sees the new generation (no wake-up is lost).
            generation.add(1, ordering: .sequentiallyConsistent)
            if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
                wakeUp.lock()
                wakeUp.broadcast()
                wakeUp.unlock()
            }
            claimBlocks(block)
            // Every block is claimed: close the door, then wait for the helpers inside to finish theirs.
            door.add(Self.closed, ordering: .acquiringAndReleasing)
            var spun = 0
            while door.load(ordering: .acquiring) != Self.closed {
                spun += 1
                if spun > Self.spins { sched_yield() }
            }
            body = nil
        }
    }

    /// Enters the current loop if its door is open. Whatever loop a helper enters is the one running:
    /// the caller's writes of its body, size and shares come before the door opens, and stay until
    /// every helper inside has left.
    private func enter() -> Bool {
        var inside = door.load(ordering: .relaxed)
        while inside < Self.closed {
            let (entered, now) = door.compareExchange(expected: inside, desired: inside + 1, ordering: .acquiring)
            if entered { return true }
            inside = now
        }
        return false
    }

    /// A helper's part of the loop it entered. Its own function so that the helper's reference to the
    /// body is gone before it leaves (`withoutActuallyEscaping` checks that none is left).
    @inline(never)
    private func helpWithLoop() {
        if let body { claimBlocks(body) }
    }

    /// Runs blocks of the current loop until none is left unclaimed.
    @inline(__always)
    private func claimBlocks(_ block: (Int) -> Void) {
        while true {
            let b = nextBlock.add(1, ordering: .relaxed).oldValue
            guard b < blocks else { return }
            block(b)
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

    /// A helper's life: wait for a loop, and if its door is still open, enter, do share `index` if the
    /// loop has one, and leave.
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
                let deadline = DispatchTime.now().uptimeNanoseconds + Self.yieldNanoseconds
                repeat {
                    sched_yield()
                    current = generation.load(ordering: .acquiring)
                } while current == seen && DispatchTime.now().uptimeNanoseconds < deadline
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
            if case let delay = Self.testingEntryDelay.load(ordering: .relaxed), delay > 0 {
                usleep(UInt32(delay))
                Self.testingDelayedEntries.add(1, ordering: .relaxed)
            }
            if enter() {
                if index < shares { helpWithLoop() }
                door.subtract(1, ordering: .releasing)
            }
        }
    }
}
