import Foundation
import Outputs
import Reports

/// `metrics.csv`: one row per logged step; validation columns empty where a step was not
/// validated. Losses are window means since the previous row; mAP columns are fractions
/// (0-1, as their names say), as in metrics.json and TensorBoard; logs and pages show percent.
public struct MetricsLog: Sendable {
    public let url: URL
    public static let columns = ["step", "loss", "classification_loss", "box_loss", "learning_rate", "images_per_second",
                                 "val_loss", "val_classification_loss", "val_box_loss", "val_map50_fraction", "val_map_center_fraction"]

    public init(url: URL) { self.url = url }

    /// One row.
    public struct Row: Sendable {
        public var step: Int
        public var loss, classification, box: Double
        public var learningRate: Float
        public var imagesPerSecond: Double
        public var validation: ValidationScores?
    }

    /// A new file with the header only.
    public func start() throws { try Data((Self.columns.joined(separator: ",") + "\n").utf8).write(to: url, options: .atomic) }

    /// Drops rows after `step` (logged by a session that stopped before its next checkpoint).
    /// Works on bytes: a row damaged by a stray byte is kept as it is, never a reason to lose the others.
    public func truncate(after step: Int) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return try start() }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw OutputError.fileSystem(path: url.path, problem: FileProblem.reason(error)) }
        var kept = Data(), first = true
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let field = line.prefix { $0 != UInt8(ascii: ",") }
            // The header and rows whose step does not parse stay; rows after `step` go.
            if !first, let rowStep = Int(String(decoding: field, as: UTF8.self)), rowStep > step { continue }
            kept.append(contentsOf: line)
            kept.append(UInt8(ascii: "\n"))
            first = false
        }
        try OutputFile.write(kept, to: url)
    }

    /// Appends `row`.
    public func append(_ row: Row) throws {
        func f(_ v: Double?) -> String { v.map { String(format: "%.6f", $0) } ?? "" }
        let v = row.validation
        let line = [String(row.step), f(row.loss), f(row.classification), f(row.box), "\(row.learningRate)", String(format: "%.2f", row.imagesPerSecond),
                    f(v?.loss), f(v?.classificationLoss), f(v?.boxLoss), f(v?.map50), f(v?.mapCenter)].joined(separator: ",") + "\n"
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
    }
}

extension MetricsLog {
    /// The rows written so far, for the run page (rows that do not parse are skipped).
    func points() -> [TrainingRunPage.Point] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard f.count == Self.columns.count, let step = f[0], let loss = f[1], let c = f[2], let b = f[3], let lr = f[4] else { return nil }
            return TrainingRunPage.Point(step: Int(step), loss: loss, classificationLoss: c, boxLoss: b, learningRate: lr,
                                         validationLoss: f[6], map50: f[9], mapCenter: f[10])
        }
    }
}
