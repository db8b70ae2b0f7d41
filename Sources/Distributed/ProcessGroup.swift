import CMPI
import Engine
import Foundation

/// Why a data-parallel run could not go on.
public struct DistributedError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The processes of a data-parallel run started by `mpirun` (Open MPI does the transport and
/// the collectives): this process's rank, their number, and what training needs of them.
///
/// Every collective here gives bit-identical results from run to run whatever MPI's own
/// algorithms: MPI only moves bytes, and every sum is made by us in rank order. Waits poll
/// with short sleeps rather than spinning, so that a rank waiting while rank 0 validates
/// leaves the cores to it, and give up after `timeout` seconds naming what they waited for.
public final class ProcessGroup: @unchecked Sendable {
    public let rank: Int
    public let size: Int
    /// Seconds a collective may wait for the other ranks before the run is abandoned.
    public let timeout: Double
    private let comm: MPI_Comm?
    /// Time spent in `sum` and the calls made (benchmarks report the cost of summing gradients).
    public private(set) var sumSeconds = 0.0
    public private(set) var sumCalls = 0
    public private(set) var sumFloats = 0

    /// True when this process was started by `mpirun` (it set Open MPI's or PMIx's variables).
    public static var launchedByMPI: Bool {
        let env = ProcessInfo.processInfo.environment
        return env["OMPI_COMM_WORLD_SIZE"] != nil || env["PMIX_RANK"] != nil
    }

    /// Seconds Open MPI leaves a rank between the SIGTERM it sends on Ctrl-C and its SIGKILL:
    /// `odls_base_sigkill_timeout`, which `mpirun --mca` hands to the ranks' environment (1 s by default).
    public static var interruptGraceSeconds: Double {
        ProcessInfo.processInfo.environment["OMPI_MCA_odls_base_sigkill_timeout"].flatMap(Double.init) ?? 1
    }

    /// The run's group when started by `mpirun`, nil otherwise (one process, no MPI at all).
    public static func join(timeout: Double = 600) throws -> ProcessGroup? {
        guard launchedByMPI else { return nil }
        var provided: Int32 = 0
        // Only the training thread calls MPI.
        guard MPI_Init_thread(nil, nil, Int32(MPI_THREAD_FUNNELED), &provided) == MPI_SUCCESS else {
            throw DistributedError("MPI_Init_thread failed: is this process started by Open MPI's mpirun?")
        }
        let comm = uidetect_mpi_comm_world()
        MPI_Comm_set_errhandler(comm, uidetect_mpi_errors_return())
        var rank: Int32 = 0, size: Int32 = 0
        MPI_Comm_rank(comm, &rank)
        MPI_Comm_size(comm, &size)
        return ProcessGroup(rank: Int(rank), size: Int(size), timeout: timeout, comm: comm)
    }

    /// A group of `size` ranks over `comm`; with `size` 1 and no communicator, a group of this process
    /// alone, whose collectives never call MPI (what the tests run).
    init(rank: Int, size: Int, timeout: Double, comm: MPI_Comm?) {
        self.rank = rank
        self.size = size
        self.timeout = timeout
        self.comm = comm
    }

    /// Ends MPI for this process (every rank must call it once it is done with the group).
    public func finish() { MPI_Finalize() }

    /// Ends the whole job at once (every rank), after saying why on standard error.
    public func abort(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: rank \(rank): \(message)\n".utf8))
        MPI_Abort(comm, 1)
        exit(1)
    }

    /// Sums `count` floats over the ranks, in place, the same bits on every rank: an all-to-all
    /// gives each rank one chunk of every rank's buffer, which it sums in rank order, and an
    /// all-gather hands the summed chunks back to everyone (as a ring's traffic, 2x the buffer).
    public func sum(_ buffer: UnsafeMutablePointer<Float>, count: Int, what: String) throws {
        guard size > 1, count > 0 else { return }
        let start = monotonicSeconds()
        defer { sumSeconds += monotonicSeconds() - start; sumCalls += 1; sumFloats += count }
        let chunk = (count + size - 1) / size
        var padded = [Float](repeating: 0, count: chunk * size)
        padded.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: buffer, count: count) }
        var received = [Float](repeating: 0, count: chunk * size)
        try padded.withUnsafeBufferPointer { send in
            try received.withUnsafeMutableBufferPointer { recv in
                var request: MPI_Request? = uidetect_mpi_request_null()
                try check(MPI_Ialltoall(send.baseAddress, Int32(chunk), uidetect_mpi_float(), recv.baseAddress, Int32(chunk), uidetect_mpi_float(), comm, &request), what)
                try wait(&request, what)
            }
        }
        let mine = Self.sumInRankOrder(received, chunk: chunk, ranks: size)
        try mine.withUnsafeBufferPointer { send in
            try padded.withUnsafeMutableBufferPointer { recv in
                var request: MPI_Request? = uidetect_mpi_request_null()
                try check(MPI_Iallgather(send.baseAddress, Int32(chunk), uidetect_mpi_float(), recv.baseAddress, Int32(chunk), uidetect_mpi_float(), comm, &request), what)
                try wait(&request, what)
            }
        }
        padded.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
    }

    /// This rank's chunk of the sum: `received` holds each rank's `chunk` floats one after the
    /// other (rank r's at r * chunk), added in rank order, so that every run and every rank adds
    /// the same numbers in the same order.
    static func sumInRankOrder(_ received: [Float], chunk: Int, ranks: Int) -> [Float] {
        var mine = [Float](received[0..<chunk])
        received.withUnsafeBufferPointer { recv in
            for r in 1..<max(1, ranks) {
                let part = recv.baseAddress! + r * chunk
                for i in 0..<chunk { mine[i] += part[i] }
            }
        }
        return mine
    }

    /// Every rank's `values` (all of one length), in rank order.
    public func gather(_ values: [Double], what: String) throws -> [[Double]] {
        guard size > 1 else { return [values] }
        var all = [Double](repeating: 0, count: values.count * size)
        try values.withUnsafeBufferPointer { send in
            try all.withUnsafeMutableBufferPointer { recv in
                var request: MPI_Request? = uidetect_mpi_request_null()
                try check(MPI_Iallgather(send.baseAddress, Int32(values.count), uidetect_mpi_double(), recv.baseAddress, Int32(values.count),
                                         uidetect_mpi_double(), comm, &request), what)
                try wait(&request, what)
            }
        }
        return (0..<size).map { Array(all[($0 * values.count)..<(($0 + 1) * values.count)]) }
    }

    /// Rank `root`'s `count` floats into every rank's `buffer`.
    public func broadcast(_ buffer: UnsafeMutablePointer<Float>, count: Int, from root: Int = 0, what: String) throws {
        guard size > 1, count > 0 else { return }
        var request: MPI_Request? = uidetect_mpi_request_null()
        try check(MPI_Ibcast(buffer, Int32(count), uidetect_mpi_float(), Int32(root), comm, &request), what)
        try wait(&request, what)
    }

    /// Returns when every rank has come here.
    public func barrier(what: String) throws {
        guard size > 1 else { return }
        var request: MPI_Request? = uidetect_mpi_request_null()
        try check(MPI_Ibarrier(comm, &request), what)
        try wait(&request, what)
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == MPI_SUCCESS else { throw DistributedError("rank \(rank): MPI failed (code \(code)) at \(what)") }
    }

    /// Polls `request` until it completes: a few spins, then naps of a millisecond.
    private func wait(_ request: inout MPI_Request?, _ what: String) throws {
        let start = monotonicSeconds()
        var polls = 0
        while true {
            var done: Int32 = 0
            try check(MPI_Test(&request, &done, uidetect_mpi_status_ignore()), what)
            if done != 0 { return }
            polls += 1
            if polls > 200 { usleep(1000) }
            if monotonicSeconds() - start > timeout {
                throw DistributedError("rank \(rank): no answer from the other ranks for \(Int(timeout)) s at \(what): a rank has died or hangs")
            }
        }
    }
}

/// Synchronised batch norm: each process's per-channel statistics gathered in rank order.
public struct SynchronisedBatchStatistics: BatchStatisticsReducer {
    public let group: ProcessGroup
    public init(group: ProcessGroup) { self.group = group }

    public func gather(_ values: [Double]) -> [[Double]] {
        do { return try group.gather(values, what: "synchronised batch norm") } catch { group.abort("\(error)") }
    }
}
