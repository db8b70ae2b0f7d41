import Boxes
import Foundation
import Interchange
import Shards

/// A detection: image, class (index into the evaluation's vocabulary), score, box.
public struct Detection: Equatable, Sendable {
    public var imageID: String
    public var label: Int
    public var score: Double
    public var box: Box
    public init(imageID: String, label: Int, score: Double, box: Box) {
        self.imageID = imageID
        self.label = label
        self.score = score
        self.box = box
    }
}

/// The ground truth of one screen.
public struct GroundTruthImage: Equatable, Sendable {
    public var imageID: String
    public var boxes: [Box]
    public var labels: [Int]
    /// The screen's area in the pixels of its boxes (a letterboxed screenshot without its padding);
    /// nil where unknown. AP by size needs it for every screen.
    public var screenArea: Double?
    public init(imageID: String, boxes: [Box], labels: [Int], screenArea: Double? = nil) {
        self.imageID = imageID
        self.boxes = boxes
        self.labels = labels
        self.screenArea = screenArea
    }
}

/// Everything an evaluation reads: the vocabulary, the ground truth and the detections.
public struct EvaluationInput {
    public var classNames: [String]
    public var images: [GroundTruthImage]
    /// In input order (ties in score keep it).
    public var detections: [Detection]

    public init(classNames: [String], images: [GroundTruthImage], detections: [Detection]) {
        self.classNames = classNames
        self.images = images
        self.detections = detections
    }
}

/// A file an evaluation reads or writes that is wrong: names the file, the position (record, line or field) and the problem.
public struct EvaluationInputError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let position: String
    public let problem: String
    public init(path: String, position: String, problem: String) {
        self.path = path
        self.position = position
        self.problem = problem
    }
    public var description: String { "\(path): \(position): \(problem)" }
}

/// Loads ground truth and detections, renaming through a class map if given.
public enum EvaluationLoader {
    /// Ground truth from shards. With a class map, boxes are renamed through its `source` section
    /// onto its common classes and boxes of unmapped classes are dropped. An image id in two shards is
    /// refused: the evaluator would otherwise merge two screens' boxes into one.
    public static func groundTruth(_ set: ShardSet, classMap: ClassMap?) throws -> (classNames: [String], images: [GroundTruthImage]) {
        let names = classMap?.commonClasses ?? set.classNames
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        // Source label -> evaluation label (nil: dropped).
        let mapping: [Int?] = set.classNames.map { name in classMap.map { $0.map(name, from: .source).flatMap { index[$0] } } ?? index[name] }
        var images: [GroundTruthImage] = []
        // Image id -> the shard that holds it; each shard's reader already refuses duplicates within it.
        var shardOf: [String: String] = [:]
        for r in set.readers {
            for i in 0..<r.count {
                if let other = shardOf.updateValue(r.url.path, forKey: r.imageIDs[i]) {
                    throw EvaluationInputError(path: r.url.path, position: "image_ids entry \(i)",
                                               problem: "image_id '\(r.imageIDs[i])' is also in \(other); each screen must be in one shard only")
                }
                var boxes: [Box] = [], labels: [Int] = []
                for row in r.boxRange(i) {
                    guard let l = mapping[Int(r.labels[row])] else { continue }
                    boxes.append(r.boxes[row])
                    labels.append(l)
                }
                images.append(GroundTruthImage(imageID: r.imageIDs[i], boxes: boxes, labels: labels, screenArea: screenArea(r, i)))
            }
        }
        return (names, images)
    }

    /// The area of screen `i` of `r` in stored pixels: the storage size, or, for a screenshot
    /// letterboxed into it (`original_sizes`), the scaled screenshot without the padding.
    static func screenArea(_ r: ShardReader, _ i: Int) -> Double? {
        let original = r.originalSizes?[i]
        guard let stored = r.imageSize else { return original.map { Double($0.width) * Double($0.height) } }
        guard let o = original else { return Double(stored.width) * Double(stored.height) }
        let scale = min(Double(stored.width) / Double(o.width), Double(stored.height) / Double(o.height))
        return Double(o.width) * scale * Double(o.height) * scale
    }

    /// Detections from JSON: `[{"image_id", "class", "score", "box": [x_min, y_min, x_max, y_max]}]`.
    ///
    /// `class` is a name or an integer index. Without a class map, names and indices refer to the
    /// evaluation vocabulary. With one, they are the detector's classes: names are renamed through its
    /// `default_vocabulary` section (unmapped ones dropped) and indices refer to the 13 default classes.
    public static func detectionsJSON(_ url: URL, classNames: [String], imageIDs: Set<String>, classMap: ClassMap?) throws -> [Detection] {
        // Mapped, not read: the parser reads the bytes where they lie, on both cores.
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else {
            throw EvaluationInputError(path: url.path, position: "file", problem: "cannot read the file")
        }
        return try detectionsJSON(data, path: url.path, classNames: classNames, imageIDs: imageIDs, classMap: classMap)
    }

    /// One part of the file's detections as they are read, remembering the last image and class:
    /// records usually come grouped by image, with few class names.
    private struct DetectionCollector {
        var out: [Detection] = []
        var lastImage: DetectionJSONParser.Text? = nil, lastImageID = ""
        var lastName: DetectionJSONParser.Text? = nil, lastLabel = -1
        /// Each class name met so far and its resolution (a handful: no String made per record).
        var names: [(text: DetectionJSONParser.Text, resolution: ClassResolution)] = []
    }

    /// Detections from the bytes of a detection JSON file; `path` names it in errors.
    public static func detectionsJSON(_ data: Data, path: String, classNames: [String], imageIDs: Set<String>, classMap: ClassMap?) throws -> [Detection] {
        guard !data.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) else {
            throw EvaluationInputError(path: path, position: "file", problem: "the file is empty")
        }
        let index = Dictionary(uniqueKeysWithValues: classNames.enumerated().map { ($1, $0) })
        let parts: (consumers: [DetectionCollector], offsets: [Int])
        do {
            parts = try DetectionJSONParser.parseInHalves(data, makeConsumer: { DetectionCollector() }) { c, i, d in
                func fail(_ problem: String) -> DetectionJSONParser.Failure { .record(i, problem: problem) }
                guard let image = d.imageID else { throw fail("missing 'image_id'") }
                if c.lastImage.map({ !image.equals($0) }) ?? true {
                    let id = image.string
                    guard imageIDs.contains(id) else { throw fail("image_id '\(id)' is not in the ground truth") }
                    (c.lastImage, c.lastImageID) = (image, id)
                }
                guard let score = d.score else { throw fail("missing 'score'") }
                guard score.isFinite else { throw fail("score \(score) is not finite") }
                guard d.boxCount == 4 else { throw fail("'box' must be 4 numbers [x_min, y_min, x_max, y_max]") }
                let (x0, y0, x1, y1) = d.box
                guard x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite else { throw fail("box [\(x0), \(y0), \(x1), \(y1)] is not finite") }
                // An inverted box would pass AP-center's centre test for free; an empty one (a box clipped to
                // nothing) is kept: it matches nothing.
                guard x1 >= x0 && y1 >= y0 else { throw fail("box [\(x0), \(y0), \(x1), \(y1)] is inverted (x_max below x_min or y_max below y_min)") }
                let box = Box(xMin: Float(x0), yMin: Float(y0), xMax: Float(x1), yMax: Float(y1))
                let name: DetectionJSONParser.Text
                if let s = d.className {
                    name = s
                } else if let n = d.classIndex, n == n.rounded(), abs(n) < 1e9 {
                    let vocabulary = classMap == nil ? classNames : defaultClassNames
                    guard n >= 0 && Int(n) < vocabulary.count else { throw fail("class index \(Int(n)) is outside 0..<\(vocabulary.count)") }
                    name = .decoded(vocabulary[Int(n)])
                } else {
                    throw fail("missing 'class' (a name or an integer index)")
                }
                if c.lastLabel >= 0, let last = c.lastName, name.equals(last) {
                    c.out.append(Detection(imageID: c.lastImageID, label: c.lastLabel, score: score, box: box))
                    return
                }
                let resolution: ClassResolution
                if let known = c.names.first(where: { name.equals($0.text) }) {
                    resolution = known.resolution
                } else {
                    resolution = resolve(name.string, index: index, classNames: classNames, classMap: classMap)
                    c.names.append((name, resolution))
                }
                let label: Int
                switch resolution {
                case .label(let l): label = l
                case .dropped: return
                case .unknown(let problem): throw fail(problem)
                }
                // Text's bytes live as long as the file's; a decoded name is a String of its own.
                (c.lastName, c.lastLabel) = (name, label)
                c.out.append(Detection(imageID: c.lastImageID, label: label, score: score, box: box))
            }
        } catch DetectionJSONParser.Failure.syntax(let offset, let record, let problem) {
            throw EvaluationInputError(path: path, position: record.map { "detection \($0) (byte \(offset))" } ?? "byte \(offset)", problem: problem)
        } catch DetectionJSONParser.Failure.record(let record, let problem) {
            throw EvaluationInputError(path: path, position: "detection \(record)", problem: problem)
        }
        // The first half's array grows by the second's in place (no copy of the first half).
        var consumers = parts.consumers
        var out = consumers[0].out
        consumers[0].out = []
        for c in consumers.dropFirst() { out.append(contentsOf: c.out) }
        return out
    }

    /// The evaluation label of a detection's class name, or why it has none.
    /// Without a class map the name must be in `classNames`; with one it is renamed through its `default_vocabulary` section.
    static func resolve(_ name: String, index: [String: Int], classNames: [String], classMap: ClassMap?) -> ClassResolution {
        var name = name
        if let map = classMap {
            guard defaultClassNames.contains(name) || map.commonClasses.contains(name) else { return .unknown("unknown class '\(name)'") }
            guard let mapped = map.map(name, from: .defaultVocabulary) else { return .dropped }
            name = mapped
        }
        guard let label = index[name] else { return .unknown("unknown class '\(name)' (vocabulary: \(classNames.joined(separator: ", ")))") }
        return .label(label)
    }

    /// A class name's fate: its label, dropped by the class map, or unknown (with the problem to report).
    enum ClassResolution { case label(Int), dropped, unknown(String) }

    /// Detections from a `.json` file (our format, or COCO results, told apart by the first record's keys) or,
    /// for any other name, a detection shard. COCO results need `cocoIDs`, the ids of the instances file they refer to.
    public static func detections(_ url: URL, classNames: [String], imageIDs: Set<String>, classMap: ClassMap?, cocoIDs: COCOIDMap? = nil) throws -> [Detection] {
        guard url.pathExtension.lowercased() == "json" else {
            return try detectionsShard(url, classNames: classNames, imageIDs: imageIDs, classMap: classMap)
        }
        guard COCOResultsFile.isCOCOResults(url) else { return try detectionsJSON(url, classNames: classNames, imageIDs: imageIDs, classMap: classMap) }
        guard let cocoIDs else {
            throw EvaluationInputError(path: url.path, position: "detection 0", problem: "COCO results (category_id, bbox): their integer ids need the COCO instances file they refer to (evaluate --coco-instances)")
        }
        return try COCOResultsFile.read(url, ids: cocoIDs, classNames: classNames, imageIDs: imageIDs, classMap: classMap)
    }

    /// Detections from a detection shard (boxes with `scores`); its vocabulary must match, unless a class map renames it.
    public static func detectionsShard(_ url: URL, classNames: [String], imageIDs: Set<String>, classMap: ClassMap?) throws -> [Detection] {
        let r = try ShardReader(url: url)
        guard let scores = r.scores else { throw EvaluationInputError(path: url.path, position: "dataset scores", problem: "missing: not a detection shard") }
        let index = Dictionary(uniqueKeysWithValues: classNames.enumerated().map { ($1, $0) })
        let mapping: [Int?] = try r.classNames.map { name in
            if let map = classMap { return map.map(name, from: .defaultVocabulary).flatMap { index[$0] } }
            guard let i = index[name] else {
                throw EvaluationInputError(path: url.path, position: "attribute class_names", problem: "class '\(name)' is not in the ground truth's vocabulary \(classNames)")
            }
            return i
        }
        var out: [Detection] = []
        for i in 0..<r.count {
            guard imageIDs.contains(r.imageIDs[i]) else {
                throw EvaluationInputError(path: url.path, position: "image_ids entry \(i)", problem: "image_id '\(r.imageIDs[i])' is not in the ground truth")
            }
            for row in r.boxRange(i) {
                guard let l = mapping[Int(r.labels[row])] else { continue }
                out.append(Detection(imageID: r.imageIDs[i], label: l, score: Double(scores[row]), box: r.boxes[row]))
            }
        }
        return out
    }
}
