import Foundation

/// A thread with a stack of a chosen size, for work that recurses deeper than the caller's stack
/// may allow (the YAML composer), waited for.
///
/// Started with pthread so that a failure to start is seen: Foundation's `Thread.start()` does not
/// report one, and a caller waiting for a thread that never ran waits forever (as `train` did under
/// `ulimit -v` 1.6 GB, when a 1 GiB stack could not be mapped).
enum ParserThread {
    /// Runs `work` on a new thread with the first of `stackSizes` (bytes) that starts, and waits for
    /// it to end. If none starts, a `ConfigError` naming `source` says which sizes were tried and why.
    static func run(stackSizes: [Int], source: String, _ work: @escaping () -> Void) throws {
        var failures: [String] = []
        for size in stackSizes {
            var attributes = pthread_attr_t()
            guard pthread_attr_init(&attributes) == 0 else { failures.append("\(megabytes(size)): no thread attributes"); continue }
            defer { pthread_attr_destroy(&attributes) }
            let sized = pthread_attr_setstacksize(&attributes, size)
            guard sized == 0 else { failures.append("\(megabytes(size)): \(String(cString: strerror(sized)))"); continue }
            // The work is handed over retained and released by the thread that runs it.
            let job = Unmanaged.passRetained(Job(work))
            var thread = pthread_t()
            let started = pthread_create(&thread, &attributes, { context in
                Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().work()
                return nil
            }, job.toOpaque())
            guard started == 0 else {
                job.release()
                failures.append("\(megabytes(size)): \(String(cString: strerror(started)))")
                continue
            }
            pthread_join(thread, nil)
            return
        }
        throw ConfigError(source: source, key: "", problem: "cannot be read: the YAML parser's thread could not start (stack of \(failures.joined(separator: "; "))); "
                          + "the process may be short of address space (ulimit -v) or threads (ulimit -u)")
    }

    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
