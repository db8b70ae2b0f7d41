import FileKeys
import Foundation
import IconVocabulary
import Images

/// Icon crops read from files and classified, as `classify-icons` and `evaluate-icons` read them.
public enum IconCrops {
    /// The smallest crop classified: below it there is no shape to see.
    public static let minimumSide = 4

    /// One file's outcome.
    public struct Result {
        public var path: String
        public var outcome: Swift.Result<IconPrediction, IconCropError>
    }

    /// Classifies the files in one batch, in the order given; a file that cannot be read is its own failure.
    public static func classify(_ paths: [String], with classifier: IconClassifier) -> [Result] {
        var crops: [RGBImage] = [], readable: [Int] = []
        var results = paths.map { Result(path: $0, outcome: .failure(IconCropError(path: $0, problem: ""))) }
        for (k, path) in paths.enumerated() {
            do {
                let image = try ImageCodec.read(URL(fileURLWithPath: path), strict: true)
                guard image.width >= minimumSide, image.height >= minimumSide else {
                    throw IconCropError(path: path, problem: "is \(image.width) x \(image.height) pixels; an icon crop needs at least \(minimumSide) x \(minimumSide)")
                }
                crops.append(image)
                readable.append(k)
            } catch let error as IconCropError {
                results[k].outcome = .failure(error)
            } catch {
                results[k].outcome = .failure(IconCropError(path: path, problem: "\(error)"))
            }
        }
        for (k, p) in zip(readable, classifier.classify(crops)) { results[k].outcome = .success(p) }
        return results
    }

    /// `results` as the spec's JSON: `[{"path", "icon_type", "label", "score", "top"}]`, or `{"path", "error"}`.
    public static func json(_ results: [Result]) -> String {
        let objects = results.map { r -> String in
            switch r.outcome {
            case .failure(let e): return "{\"path\": \(JSONString.quoted(r.path)), \"error\": \(JSONString.quoted(e.problem))}"
            case .success(let p):
                let top = p.top.map { "[\(JSONString.quoted($0.type.name)), \($0.probability)]" }.joined(separator: ", ")
                return "{\"path\": \(JSONString.quoted(r.path)), \"icon_type\": \(p.type.map { JSONString.quoted($0.name) } ?? "null"), "
                    + "\"label\": \(p.label.map(JSONString.quoted) ?? "null"), \"score\": \(p.score), \"top\": [\(top)]}"
            }
        }
        return "[" + objects.joined(separator: ",\n ") + "]"
    }

    /// Labelled crops (`NNNN-TYPE.png`, files or folders of them) classified and scored at the classifier's threshold.
    public static func evaluate(_ inputs: [String], with classifier: IconClassifier) throws -> (evaluation: IconEvaluation, skipped: [String]) {
        var paths: [String] = [], truths: [IconType] = []
        for input in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else { throw IconCropError(path: input, problem: "no such file or folder") }
            let files = isFolder.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: input).sorted().filter { ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
                    .map { (input as NSString).appendingPathComponent($0) }
                : [input]
            for f in files {
                let stem = ((f as NSString).lastPathComponent as NSString).deletingPathExtension
                guard let name = stem.split(separator: "-").last, let type = IconVocabulary.type(named: String(name)) else {
                    throw IconCropError(path: f, problem: "the file name does not end in a type of the vocabulary (NNNN-back.png)")
                }
                paths.append(f)
                truths.append(type)
            }
        }
        let results = classify(paths, with: classifier)
        var predictions: [IconPrediction] = [], kept: [IconType] = [], skipped: [String] = []
        for (r, t) in zip(results, truths) {
            switch r.outcome {
            case .success(let p): predictions.append(p); kept.append(t)
            case .failure(let e): skipped.append("\(e)")
            }
        }
        return (IconEvaluation(predictions: predictions, truths: kept, threshold: classifier.threshold), skipped)
    }

    /// An evaluation as one JSON object.
    public static func json(_ e: IconEvaluation, skipped: [String]) -> String {
        func n(_ v: Double?) -> String { v.map { "\($0)" } ?? "null" }
        let perType = e.perType.filter { $0.crops > 0 }.map { "\(JSONString.quoted($0.type.name)): {\"crops\": \($0.crops), \"correct\": \($0.correct)}" }.joined(separator: ", ")
        let confusions = e.worstConfusions(20).map { "{\"truth\": \(JSONString.quoted($0.truth.name)), \"named\": \(JSONString.quoted($0.named.name)), \"times\": \($0.times)}" }.joined(separator: ", ")
        return "{\"crops\": \(e.crops), \"vocabulary_crops\": \(e.vocabularyCrops), \"threshold\": \(e.threshold), \"top1_accuracy\": \(n(e.top1Accuracy)), "
            + "\"label_precision\": \(n(e.labelPrecision)), \"coverage\": \(n(e.coverage)), \"labels_given\": \(e.labelsGiven), \"labels_right\": \(e.labelsRight), "
            + "\"per_type\": {\(perType)}, \"confusions\": [\(confusions)], \"skipped\": [\(skipped.map(JSONString.quoted).joined(separator: ", "))]}"
    }
}

/// Why a crop could not be classified: the file and what was wrong.
public struct IconCropError: Error, CustomStringConvertible, Equatable, Sendable {
    public let path: String
    public let problem: String
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(path): \(problem)" }
}
