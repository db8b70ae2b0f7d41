import Foundation

/// pr_curves.csv (evaluation.md, "Precision-recall curves"): `class,threshold,precision,recall,tp,fp`,
/// one row per point of each class's curve, classes in vocabulary order.
public enum PRCurvesFile {
    /// The file's name in an evaluation folder.
    public static let fileName = "pr_curves.csv"
    /// The first line, as evaluation.md fixes it.
    public static let header = ["class", "threshold", "precision", "recall", "tp", "fp"]

    /// The rows of `result`'s curves, header first. Numbers are written in Swift's shortest form
    /// that reads back to the same Double, so a curve survives the file exactly.
    public static func rows(_ result: EvaluationResult) -> [[String]] {
        var rows = [header]
        for c in result.classes {
            for p in c.curve { rows.append([c.name, "\(p.threshold)", "\(p.precision)", "\(p.recall)", "\(p.tp)", "\(p.fp)"]) }
        }
        return rows
    }

    /// Writes the curves of `result` atomically.
    public static func write(_ result: EvaluationResult, to url: URL) throws {
        try CSV.write(rows(result), to: url)
    }

    /// The curve of each class of `classNames` (empty for a class without rows), from the file at `url`.
    public static func read(_ url: URL, classNames: [String]) throws -> [[PRPoint]] {
        let records = try CSV.records(contentsOf: url)
        guard let first = records.first, first.fields == header else {
            throw EvaluationInputError(path: url.path, position: "line \(records.first?.line ?? 1)", problem: "expected the header \(header.joined(separator: ","))")
        }
        let index = Dictionary(classNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var curves = [[PRPoint]](repeating: [], count: classNames.count)
        for record in records.dropFirst() {
            let f = record.fields
            func fail(_ problem: String) -> EvaluationInputError {
                EvaluationInputError(path: url.path, position: "line \(record.line)", problem: problem)
            }
            func number(_ column: Int) throws -> Double {
                guard let v = Double(f[column]) else { throw fail("\(header[column]) '\(f[column])' is not a number") }
                return v
            }
            func count(_ column: Int) throws -> Int {
                guard let v = Int(f[column]), v >= 0 else { throw fail("\(header[column]) '\(f[column])' is not a count") }
                return v
            }
            guard f.count == header.count else { throw fail("expected \(header.count) fields (\(header.joined(separator: ","))), found \(f.count)") }
            guard let k = index[f[0]] else { throw fail("class '\(f[0])' is not one of the evaluation's classes (\(classNames.joined(separator: ", ")))") }
            curves[k].append(PRPoint(threshold: try number(1), precision: try number(2), recall: try number(3), tp: try count(4), fp: try count(5)))
        }
        return curves
    }
}
