import Foundation

/// A finished evaluation read back from its folder: per class, the figures of metrics.json and the
/// PR curve of pr_curves.csv (enough to pick thresholds or compare runs); its other files on request.
public struct EvaluationFolder {
    /// One class's figures and curve.
    public struct ClassEntry {
        public var name: String
        public var gtCount: Int
        public var ap50: Double?
        public var apCenter: Double?
        public var curve: [PRPoint]
    }
    /// The folder.
    public var url: URL
    /// Its metrics.json as read.
    public var metrics: MetricsFile
    /// Per class in vocabulary order: metrics.json's figures with the class's curve.
    public var classes: [ClassEntry]
    public var path: String { url.path }
    public var map50: Double? { metrics.map50 }
    public var mapCenter: Double? { metrics.mapCenter }

    /// Reads metrics.json and pr_curves.csv of `folder`.
    public init(_ folder: URL) throws {
        url = folder
        metrics = try MetricsFile(contentsOf: folder.appendingPathComponent(MetricsFile.fileName))
        let curves = try PRCurvesFile.read(folder.appendingPathComponent(PRCurvesFile.fileName), classNames: metrics.classes.map(\.name))
        classes = zip(metrics.classes, curves).map { c, curve in
            ClassEntry(name: c.name, gtCount: c.gtCount, ap50: c.ap50, apCenter: c.apCenter, curve: curve)
        }
    }

    /// The folder's thresholds.json.
    public func thresholds() throws -> ThresholdsFile {
        try ThresholdsFile(contentsOf: url.appendingPathComponent(ThresholdsFile.fileName))
    }

    /// The folder's confusion_matrix.csv, which must hold the classes of its metrics.json.
    public func confusion() throws -> ConfusionMatrix {
        let file = url.appendingPathComponent(ConfusionMatrixFile.fileName)
        let matrix = try ConfusionMatrixFile.read(file)
        let names = classes.map(\.name)
        guard matrix.classNames == names else {
            throw EvaluationInputError(path: file.path, position: "line 1", problem: "classes \(matrix.classNames) differ from metrics.json's \(names)")
        }
        return matrix
    }
}
