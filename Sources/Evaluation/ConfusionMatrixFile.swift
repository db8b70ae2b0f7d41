import Foundation

/// confusion_matrix.csv (evaluation.md, "Confusion matrix"): header `ground_truth,<class names...>,background`,
/// then one row per ground-truth class and one for background, each led by its name.
public enum ConfusionMatrixFile {
    /// The file's name in an evaluation folder.
    public static let fileName = "confusion_matrix.csv"

    /// The rows of `matrix`, header first.
    public static func rows(_ matrix: ConfusionMatrix) -> [[String]] {
        let names = matrix.classNames + ["background"]
        return [["ground_truth"] + names] + zip(names, matrix.counts).map { name, row in [name] + row.map(String.init) }
    }

    /// Writes `matrix` atomically.
    public static func write(_ matrix: ConfusionMatrix, to url: URL) throws {
        try CSV.write(rows(matrix), to: url)
    }

    /// The matrix in the file at `url`.
    public static func read(_ url: URL) throws -> ConfusionMatrix {
        let records = try CSV.records(contentsOf: url)
        guard let head = records.first, head.fields.count >= 2, head.fields.first == "ground_truth", head.fields.last == "background" else {
            throw EvaluationInputError(path: url.path, position: "line \(records.first?.line ?? 1)", problem: "expected the header ground_truth,<class names...>,background")
        }
        let names = Array(head.fields.dropFirst())
        guard records.count == names.count + 1 else {
            throw EvaluationInputError(path: url.path, position: "file", problem: "expected \(names.count) rows after the header (one per column), found \(records.count - 1)")
        }
        var counts: [[Int]] = []
        for (i, record) in records.dropFirst().enumerated() {
            func fail(_ problem: String) -> EvaluationInputError {
                EvaluationInputError(path: url.path, position: "line \(record.line)", problem: problem)
            }
            guard record.fields.count == names.count + 1 else { throw fail("expected \(names.count + 1) fields, found \(record.fields.count)") }
            guard record.fields[0] == names[i] else { throw fail("expected the row of '\(names[i])', found '\(record.fields[0])'") }
            counts.append(try zip(names, record.fields.dropFirst()).map { column, text in
                guard let v = Int(text), v >= 0 else { throw fail("column '\(column)': '\(text)' is not a count") }
                return v
            })
        }
        return ConfusionMatrix(classNames: Array(names.dropLast()), counts: counts)
    }
}
