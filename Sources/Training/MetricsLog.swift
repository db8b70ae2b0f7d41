import Foundation

/// `metrics.csv`: one row per logged step; validation columns empty where a step was not
/// validated. Losses are window means since the previous row; mAP columns are fractions (0-1).
public struct MetricsLog: Sendable {
    public let url: URL
    public static let columns = ["step", "loss", "classification_loss", "box_loss", "learning_rate", "images_per_second", "val_map50", "val_map_center"]

    public init(url: URL) { self.url = url }

    /// One row.
    public struct Row: Sendable {
        public var step: Int
        public var loss, classification, box: Double
        public var learningRate: Float
        public var imagesPerSecond: Double
        public var map50, mapCenter: Double?
    }

    /// A new file with the header only.
    public func start() throws { try Data((Self.columns.joined(separator: ",") + "\n").utf8).write(to: url, options: .atomic) }

    /// Drops rows after `step` (logged by a session that stopped before its next checkpoint).
    public func truncate(after step: Int) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return try start() }
        let kept = text.split(separator: "\n").enumerated().filter { i, line in i == 0 || (Int(line.split(separator: ",").first ?? "") ?? 0) <= step }
        try Data((kept.map { String($0.element) }.joined(separator: "\n") + "\n").utf8).write(to: url, options: .atomic)
    }

    /// Appends `row`.
    public func append(_ row: Row) throws {
        func f(_ v: Double?) -> String { v.map { String(format: "%.6f", $0) } ?? "" }
        let line = [String(row.step), f(row.loss), f(row.classification), f(row.box), "\(row.learningRate)",
                    String(format: "%.2f", row.imagesPerSecond), f(row.map50), f(row.mapCenter)].joined(separator: ",") + "\n"
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
    }
}
