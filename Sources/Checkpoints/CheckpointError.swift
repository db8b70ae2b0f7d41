import Foundation

/// Why a checkpoint (a detector's weights, a training state, a run's checkpoints folder) could
/// not be found, read or written: the path and what was wrong. The one error type of every
/// module that reads or writes checkpoints.
public struct CheckpointError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let problem: String
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(path): \(problem)" }
}
