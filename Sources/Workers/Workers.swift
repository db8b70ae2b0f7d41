import Dispatch

/// A value handed to worker threads whose safety the caller guarantees: disjoint writes
/// through a buffer, or objects each worker uses alone.
public struct UncheckedSendable<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

/// Fills `count` results on `workers` threads, worker w taking items w, w + workers, ...:
/// the result of item i depends only on i, never on the number of workers.
public func parallelMap<T>(count: Int, workers: Int, _ item: (_ worker: Int, _ index: Int) -> T) -> [T] {
    guard count > 0 else { return [] }
    let workers = max(1, min(workers, count))
    var slots = [T?](repeating: nil, count: count)
    withoutActuallyEscaping(item) { item in
        let item = UncheckedSendable(item)
        slots.withUnsafeMutableBufferPointer { buffer in
            let buffer = UncheckedSendable(buffer)  // each worker writes only its own slots
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for i in stride(from: w, to: count, by: workers) { buffer.value[i] = item.value(w, i) }
            }
        }
    }
    return slots.map { $0! }
}
