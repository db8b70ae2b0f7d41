import Foundation

/// Seconds on a monotonic clock.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Median wall time of `repeats` calls of `body`, after one untimed warm-up call.
func medianSeconds(repeats: Int, _ body: () -> Void) -> Double {
    body()
    var times: [Double] = []
    for _ in 0..<max(1, repeats) {
        let start = monotonicSeconds()
        body()
        times.append(monotonicSeconds() - start)
    }
    times.sort()
    return times[times.count / 2]
}
