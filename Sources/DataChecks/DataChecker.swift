import Boxes
import Foundation
import Images
import Shards

/// The thresholds of the checks.
public struct DataCheckOptions: Codable, Equatable, Sendable {
    /// Largest Hamming distance between two screens' `PerceptualHash`es (of 464 bits) that makes
    /// them near-duplicates. Retouched or resized copies stay within about 12; across the splits
    /// of 1,000 synthetic screens of 80 apps, the closest two different screens are 76 apart.
    public var maxHashDistance = 20
    /// Two boxes of one class on one screen overlapping more than this are duplicates.
    public var duplicateIoU = 0.95
    /// A box narrower or lower than this many pixels (of the stored image) is tiny.
    public var minBoxSide: Float = 3
    /// A class with fewer boxes than this in a split is rare there.
    public var minBoxesPerClass = 10
    /// Pixels a box may reach beyond the image before it counts as cut by the edge
    /// (imported boxes carry the rounding of their source's coordinates).
    public var edgeTolerance: Float = 0.5

    public init() {}

    enum CodingKeys: String, CodingKey {
        case maxHashDistance = "max_hash_distance", duplicateIoU = "duplicate_iou", minBoxSide = "min_box_side"
        case minBoxesPerClass = "min_boxes_per_class", edgeTolerance = "edge_tolerance"
    }
}

/// Why the data could not be checked. Each case names the file and what was wrong.
public enum DataCheckError: Error, CustomStringConvertible, Equatable {
    /// A shard without images (a detection shard) cannot be hashed.
    case noImages(path: String)
    /// The same shard file given in two splits.
    case shardInTwoSplits(path: String, first: String, second: String)
    /// Splits whose `class_names` differ cannot be compared class by class.
    case vocabularyMismatch(path: String, split: String, expected: [String], found: [String])

    public var description: String {
        switch self {
        case .noImages(let path):
            return "\(path): dataset 'images' is missing (a detection shard?); check needs the screenshots"
        case .shardInTwoSplits(let path, let first, let second):
            return "\(path): given in split '\(first)' and again in split '\(second)'"
        case .vocabularyMismatch(let path, let split, let expected, let found):
            return "\(path): class_names \(found) of split '\(split)' differ from the first split's \(expected)"
        }
    }
}

/// One split to check: its name (the path given) and its shards.
public struct CheckedSplit {
    public let name: String
    public let set: ShardSet
    public init(name: String, set: ShardSet) {
        self.name = name
        self.set = set
    }
}

/// Checks shards before training: leakage between splits (near-duplicate screenshots by a
/// perceptual hash, groups on two sides), duplicate, tiny and cut boxes, rare classes, empty
/// screens and the spread of image sizes.
public struct DataChecker {
    public let options: DataCheckOptions

    public init(options: DataCheckOptions = DataCheckOptions()) { self.options = options }

    /// Checks `splits`; `progress` gets the fraction of screens hashed so far.
    public func check(_ splits: [CheckedSplit], progress: (Double) -> Void = { _ in }) throws -> DataCheckReport {
        try refuseOverlappingInputs(splits)
        var findings: [Finding] = []
        var summaries: [SplitSummary] = []
        for split in splits {
            let (summary, found) = checkAnnotations(split)
            summaries.append(summary)
            findings += found
        }
        findings += sharedGroups(splits)
        findings += try nearDuplicates(splits, progress: progress)
        let errors = findings.filter { $0.severity == .error }.count
        return DataCheckReport(splits: summaries, options: options, imageSizes: imageSizes(splits), findings: findings,
                               errors: errors, warnings: findings.count - errors)
    }

    /// The same file in two splits would be reported as thousands of duplicates; mixed vocabularies
    /// would compare classes by index across different meanings.
    func refuseOverlappingInputs(_ splits: [CheckedSplit]) throws {
        var owner: [String: String] = [:]
        for split in splits {
            for r in split.set.readers {
                let key = r.url.standardizedFileURL.resolvingSymlinksInPath().path
                if let first = owner[key] { throw DataCheckError.shardInTwoSplits(path: r.url.path, first: first, second: split.name) }
                owner[key] = split.name
            }
        }
        guard let first = splits.first else { return }
        for split in splits.dropFirst() where split.set.classNames != first.set.classNames {
            throw DataCheckError.vocabularyMismatch(path: split.set.readers[0].url.path, split: split.name,
                                                    expected: first.set.classNames, found: split.set.classNames)
        }
    }

    /// Box and screen checks of one split, from the annotations alone.
    func checkAnnotations(_ split: CheckedSplit) -> (SplitSummary, [Finding]) {
        let names = split.set.classNames
        var counts = [Int](repeating: 0, count: names.count)
        var groups = Set<String>()
        var findings: [Finding] = []
        for r in split.set.readers {
            for i in 0..<r.count {
                groups.insert(r.groupIDs[i])
                let here = ScreenLocation(split: split.name, shard: r.url.path, index: i, imageID: r.imageIDs[i])
                let rows = r.boxRange(i)
                if rows.isEmpty { findings.append(Finding(kind: .emptyScreen, message: "no boxes", screens: [here])) }
                for row in rows {
                    counts[Int(r.labels[row])] += 1
                    findings += boxFindings(r, row: row, screenRows: rows, imageSize: r.imageSize, names: names, at: here)
                }
            }
        }
        for (k, name) in names.enumerated() where counts[k] < options.minBoxesPerClass {
            findings.append(Finding(kind: .rareClass, message: "split '\(split.name)': class '\(name)' has \(counts[k]) boxes, fewer than \(options.minBoxesPerClass)",
                                    screens: []))
        }
        let summary = SplitSummary(name: split.name, shards: split.set.readers.map(\.url.path), screens: split.set.count, groups: groups.count,
                                   boxes: counts.reduce(0, +), classes: Dictionary(uniqueKeysWithValues: zip(names, counts)))
        return (summary, findings)
    }

    /// Findings about box `row` of a screen whose boxes are `screenRows`.
    func boxFindings(_ r: ShardReader, row: Int, screenRows: Range<Int>, imageSize: Size?, names: [String], at here: ScreenLocation) -> [Finding] {
        let b = r.boxes[row], label = r.labels[row]
        let k = row - screenRows.lowerBound
        let what = "box \(k) '\(names[Int(label)])' \(format(b))"
        var out: [Finding] = []
        // Each pair once: only later boxes are compared with this one.
        for other in (row + 1)..<screenRows.upperBound where r.labels[other] == label {
            let iou = b.iou(r.boxes[other])
            if iou > options.duplicateIoU {
                out.append(Finding(kind: .duplicateBox, message: "\(what) and box \(other - screenRows.lowerBound) \(format(r.boxes[other])) overlap at IoU \(String(format: "%.3f", iou))",
                                   screens: [here]))
            }
        }
        if b.width < options.minBoxSide || b.height < options.minBoxSide {
            out.append(Finding(kind: .tinyBox, message: "\(what) is \(String(format: "%.1f x %.1f", b.width, b.height)) px, under \(options.minBoxSide) px",
                               screens: [here]))
        }
        if let size = imageSize {
            let t = options.edgeTolerance
            if b.xMin < -t || b.yMin < -t || b.xMax > Float(size.width) + t || b.yMax > Float(size.height) + t {
                out.append(Finding(kind: .boxOutsideImage, message: "\(what) reaches beyond the \(size) image", screens: [here]))
            }
        }
        return out
    }

    /// Groups (apps) with screens in more than one split: one finding per group.
    func sharedGroups(_ splits: [CheckedSplit]) -> [Finding] {
        // Screens without group_ids are their own group (their image id): those meet only when an id repeats.
        var firstScreen: [String: [Int: ScreenLocation]] = [:]
        for (s, split) in splits.enumerated() {
            for r in split.set.readers {
                for i in 0..<r.count where firstScreen[r.groupIDs[i]]?[s] == nil {
                    firstScreen[r.groupIDs[i], default: [:]][s] = ScreenLocation(split: split.name, shard: r.url.path, index: i, imageID: r.imageIDs[i])
                }
            }
        }
        return firstScreen.keys.sorted().compactMap { group in
            let bySplit = firstScreen[group]!
            guard bySplit.count > 1 else { return nil }
            let screens = bySplit.keys.sorted().map { bySplit[$0]! }
            return Finding(kind: .groupInTwoSplits, message: "group '\(group)' has screens in \(screens.map { "'\($0.split)'" }.joined(separator: " and "))",
                           screens: screens)
        }
    }

    /// Pairs of screens in different splits whose hashes lie within `maxHashDistance`.
    func nearDuplicates(_ splits: [CheckedSplit], progress: (Double) -> Void) throws -> [Finding] {
        let total = max(1, splits.reduce(0) { $0 + $1.set.count })
        let n = PerceptualHash.wordCount
        var done = 0
        // Per split, every screen's hash words back to back: the pair loop reads memory in order.
        var words: [[UInt64]] = [], places: [[ScreenLocation]] = []
        for split in splits {
            var w: [UInt64] = [], p: [ScreenLocation] = []
            w.reserveCapacity(split.set.count * n)
            for r in split.set.readers {
                guard r.imageSize != nil else { throw DataCheckError.noImages(path: r.url.path) }
                for i in 0..<r.count {
                    w += PerceptualHash(try r.image(at: i)).words
                    p.append(ScreenLocation(split: split.name, shard: r.url.path, index: i, imageID: r.imageIDs[i]))
                    done += 1
                    if done % 64 == 0 { progress(Double(done) / Double(total)) }
                }
            }
            words.append(w)
            places.append(p)
        }
        progress(1)
        // Every pair across two splits: a few popcounts each, tens of millions of pairs a second.
        var out: [Finding] = []
        let limit = options.maxHashDistance
        for a in splits.indices {
            for b in splits.indices where b > a {
                words[a].withUnsafeBufferPointer { wa in
                    words[b].withUnsafeBufferPointer { wb in
                        for x in places[a].indices {
                            for y in places[b].indices {
                                var d = 0
                                for k in 0..<n { d &+= (wa[x &* n &+ k] ^ wb[y &* n &+ k]).nonzeroBitCount }
                                guard d <= limit else { continue }
                                let (p, q) = (places[a][x], places[b][y])
                                out.append(Finding(kind: .nearDuplicate,
                                                   message: "\(p) in '\(p.split)' looks like \(q) in '\(q.split)' (hash distance \(d) of \(PerceptualHash.bitCount))",
                                                   screens: [p, q]))
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Stored and original sizes, most common first.
    func imageSizes(_ splits: [CheckedSplit]) -> ImageSizes {
        var stored: [Size: Int] = [:], original: [Size: Int] = [:]
        for split in splits {
            for r in split.set.readers {
                if let s = r.imageSize { stored[s, default: 0] += r.count }
                for s in r.originalSizes ?? [] { original[s, default: 0] += 1 }
            }
        }
        func ranked(_ counts: [Size: Int]) -> [SizeCount] {
            counts.sorted { $0.value != $1.value ? $0.value > $1.value : ($0.key.width, $0.key.height) < ($1.key.width, $1.key.height) }
                .map { SizeCount(size: $0.key.description, screens: $0.value) }
        }
        let aspects = (original.isEmpty ? stored : original).keys.map { Double($0.height) / Double($0.width) }
        return ImageSizes(stored: ranked(stored), original: ranked(original), aspectRange: aspects.isEmpty ? [] : [aspects.min()!, aspects.max()!])
    }

    private func format(_ b: Box) -> String {
        "[" + [b.xMin, b.yMin, b.xMax, b.yMax].map { String(format: "%g", $0) }.joined(separator: ", ") + "]"
    }
}
