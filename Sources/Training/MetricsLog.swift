import Foundation
import Outputs
import Reports

/// A run's CSV of one row per logged step, step first: started with its header, appended to as
/// the run goes, and cut back to a checkpoint's step when a run resumes. The detector's
/// `metrics.csv` and the icon classifier's are both written through it.
public struct StepLog: Sendable {
    public let url: URL
    public let columns: [String]

    public init(url: URL, columns: [String]) {
        self.url = url
        self.columns = columns
    }

    /// A new file with the header only.
    public func start() throws { try OutputFile.write(Data((columns.joined(separator: ",") + "\n").utf8), to: url) }

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

    /// Appends one row of already formatted fields.
    public func append(_ fields: [String]) throws {
        precondition(fields.count == columns.count, "\(fields.count) fields for \(columns.count) columns")
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((fields.joined(separator: ",") + "\n").utf8))
    }

    /// The rows written so far as numbers (nil where a field is empty); rows of another width are skipped.
    public func rows() -> [[Double?]] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            return f.count == columns.count ? f : nil
        }
    }

    /// A number as the log writes it: six decimals, empty for none.
    public static func field(_ v: Double?) -> String { v.map { String(format: "%.6f", $0) } ?? "" }
}

/// `metrics.csv`: one row per logged step; validation columns empty where a step was not
/// validated. Losses are window means since the previous row; mAP columns are fractions
/// (0-1, as their names say), as in metrics.json and TensorBoard; logs and pages show percent.
public struct MetricsLog: Sendable {
    public static let columns = ["step", "loss", "classification_loss", "box_loss", "learning_rate", "images_per_second",
                                 "val_loss", "val_classification_loss", "val_box_loss", "val_map50_fraction", "val_map_center_fraction"]
    public let log: StepLog
    public var url: URL { log.url }

    public init(url: URL) { log = StepLog(url: url, columns: Self.columns) }

    /// One row.
    public struct Row: Sendable {
        public var step: Int
        public var loss, classification, box: Double
        public var learningRate: Float
        public var imagesPerSecond: Double
        public var validation: ValidationScores?
    }

    public func start() throws { try log.start() }
    public func truncate(after step: Int) throws { try log.truncate(after: step) }

    /// Appends `row`.
    public func append(_ row: Row) throws {
        let f = StepLog.field, v = row.validation
        try log.append([String(row.step), f(row.loss), f(row.classification), f(row.box), "\(row.learningRate)", String(format: "%.2f", row.imagesPerSecond),
                        f(v?.loss), f(v?.classificationLoss), f(v?.boxLoss), f(v?.map50), f(v?.mapCenter)])
    }

    /// The rows written so far, for the run page (rows that do not parse are skipped).
    func points() -> [TrainingRunPage.Point] {
        log.rows().compactMap { f in
            guard let step = f[0], let loss = f[1], let c = f[2], let b = f[3], let lr = f[4] else { return nil }
            return TrainingRunPage.Point(step: Int(step), loss: loss, classificationLoss: c, boxLoss: b, learningRate: lr,
                                         validationLoss: f[6], map50: f[9], mapCenter: f[10])
        }
    }
}
