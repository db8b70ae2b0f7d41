import Boxes
import Foundation
import Images
import ScreenDescription
import Shards
import VocabularyMaps

/// Screen-description ground truth read from shards (screen-description.md, "Ground truth in shards").
public enum TruthScreens {
    /// The truth of every screen of `set`, without pixels: boxes in stored pixels, the optional
    /// datasets as the shards hold them (absent ones nil), classes made description kinds through
    /// `vocabulary` when one is given. A screen stored without its original size is taken at its stored size.
    public static func read(_ set: ShardSet, vocabulary: VocabularyMap? = nil) throws -> [ScreenTruth] {
        try (0..<set.count).map { i in
            let (k, _) = set.locate(i)
            let record = try set.record(at: i, withImage: false)
            guard let stored = set.readers[k].imageSize else {
                throw ShardError.missing(path: set.readers[k].url.path, name: "dataset images (a truth shard needs its screens' size)")
            }
            do {
                let t = try truth(record, storedSize: stored, classNames: set.classNames)
                return vocabulary.map { t.describing(through: $0) } ?? t
            } catch let error as ScreenTruthError {
                throw error.located(in: set.readers[k].url.path)
            }
        }
    }

    /// The truth of one record whose image is stored at `storedSize`.
    public static func truth(_ record: ScreenRecord, storedSize: Size, classNames: [String]) throws -> ScreenTruth {
        try ScreenTruth(imageID: record.imageID, storedSize: storedSize, originalSize: record.originalSize ?? storedSize,
                        boxes: record.boxes, classNames: record.labels.map { classNames[Int($0)] },
                        groupIndex: record.groupIndex, navOrder: record.navOrder, selected: record.selected,
                        interactive: record.interactive, texts: record.texts, groupKinds: record.groupKinds, iconTypes: record.iconTypes)
    }

    /// The true boxes of `truth` as detections on the original screenshot (score 1): what the
    /// heuristics get when they are measured on their own, without a detector's mistakes.
    public static func elements(of truth: ScreenTruth) -> [ElementDetection] {
        let s = 1 / truth.scale
        return zip(truth.boxes, truth.classNames).map { box, name in
            ElementDetection(box: box.transformed(scaleX: s, scaleY: s), className: name, score: 1)
        }
    }

    /// The vocabulary map of `set`'s classes: `file` when given (every class must be in it), else the
    /// built-in map that names them all; an error names the file (or the built-in maps) and the class.
    public static func vocabulary(of set: ShardSet, file: String?) throws -> VocabularyMap {
        try VocabularyMap.resolve(file: file, classNames: set.classNames, of: "the shards (\(set.readers.first?.url.path ?? "no shard"))")
    }

    /// Icon-interactivity examples of `truths` (icons with a known `interactive`), with their true icon types as a feature or without.
    public static func iconExamples(_ truths: [ScreenTruth], iconTypes: Bool = true) -> [IconExample] { truths.flatMap { $0.iconExamples(iconTypes: iconTypes) } }
}
