import Detection
import Evaluation
import Foundation

/// The per-class thresholds of the deployment filter, read from a thresholds file (`uidetect
/// evaluate` or `uidetect thresholds`) and checked against a detector's classes: the one place
/// predict, describe and export turn `--thresholds` into a `DeploymentFilter`.
public struct DeploymentThresholds: Sendable {
    /// The file's thresholds by class name (classes it gives no threshold are absent).
    public let picked: [String: Float]
    /// The file, if one was given.
    public let file: String?

    /// The thresholds of `file` (none without one); a class the detector does not have is an error naming the file.
    public init(file: String?, classNames: [String]) throws {
        self.file = file
        picked = try file.map { try ThresholdsFile(contentsOf: URL(fileURLWithPath: $0)).thresholdsByClass } ?? [:]
        if let unknown = picked.keys.sorted().first(where: { !classNames.contains($0) }) {
            throw EvaluationInputError(path: file!, position: "classes", problem: "names class '\(unknown)', which the detector does not have (\(classNames.joined(separator: ", ")))")
        }
    }

    /// The filter with the file's thresholds and `fallback` for every other class of `classNames`
    /// (nil: those classes keep every detection, as the exported graph does).
    public func filter(classNames: [String], fallback: Float?) -> DeploymentFilter {
        var byClass = picked
        if let fallback { for n in classNames where byClass[n] == nil { byClass[n] = fallback } }
        return DeploymentFilter(thresholds: byClass)
    }

    /// The file's thresholds as an exported model's metadata (`thresholds`: JSON by class name), none without a file.
    public var metadata: [String: String] {
        guard file != nil else { return [:] }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return ["thresholds": String(decoding: (try? e.encode(picked)) ?? Data(), as: UTF8.self)]
    }

    /// In words, for pages and logs.
    public func describe(fallback: Float) -> String {
        file.map { "thresholds of \($0), \(fallback) for classes it leaves out" } ?? "threshold \(fallback) for every class"
    }
}
