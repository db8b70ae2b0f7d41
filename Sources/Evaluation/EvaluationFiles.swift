import Foundation

/// The data files of an evaluation (evaluation.md, "Files an evaluation writes"), each written atomically.
public enum EvaluationFiles {
    /// Writes metrics.json, pr_curves.csv, thresholds.json and confusion_matrix.csv of `summary` into `folder`, creating it,
    /// and errors.json where the summary has its errors.
    public static func write(_ summary: EvaluationSummary, to folder: URL) throws {
        try writeTables(summary, to: folder)
        try writeErrors(summary, to: folder)
    }

    /// Writes metrics.json, pr_curves.csv, thresholds.json and confusion_matrix.csv into `folder`, creating it.
    public static func writeTables(_ summary: EvaluationSummary, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try MetricsFile(summary).write(to: folder.appendingPathComponent(MetricsFile.fileName))
        try PRCurvesFile.write(summary.result, to: folder.appendingPathComponent(PRCurvesFile.fileName))
        try ThresholdsFile(summary).write(to: folder.appendingPathComponent(ThresholdsFile.fileName))
        try ConfusionMatrixFile.write(summary.confusion, to: folder.appendingPathComponent(ConfusionMatrixFile.fileName))
    }

    /// Writes errors.json into `folder` (made by `writeTables`) where the summary has its errors; the
    /// largest file, apart so that a caller can write it beside other work.
    public static func writeErrors(_ summary: EvaluationSummary, to folder: URL) throws {
        guard let errors = summary.errors else { return }
        try ErrorsFile.write(errors, classNames: summary.result.classes.map(\.name), to: folder.appendingPathComponent(ErrorsFile.fileName))
    }
}
