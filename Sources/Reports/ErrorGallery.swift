import Boxes
import Evaluation
import Foundation
import Images
import Shards
import Workers

/// The pictures of an evaluation's errors, as its report shows them: per class the highest-scoring
/// false positives and the largest misses, examples of the most frequent class confusions, and the
/// screens with the most errors. Crops are cut from the shards' stored pixels (letterbox padding
/// left out), with a margin of context, as small JPEGs; the boxes are drawn over them by the page.
public struct ErrorGallery {
    /// False positives and misses shown per class, each.
    public static let perClass = 24
    /// Class confusions shown, and examples of each.
    public static let confusionsShown = 12
    public static let examplesPerConfusion = 6
    /// Screens with the most errors shown.
    public static let screensShown = 8
    /// Screens read for the whole gallery at most, those shown whole included: one in 16 of the
    /// evaluation's screens, between 32 and 64 (each class's worst false positive and miss come first,
    /// so 19 classes still fit). Reading a screen is HDF5's inflate, one at a time in its global lock:
    /// on 5,002 screens reading 312 of them made `evaluate` 2.0 times as slow as without the analysis,
    /// 64 makes it 1.9 times (Experiments/error-gallery: the rest is the analysis and errors.json).
    public static func screensRead(of screens: Int) -> Int { max(32, min(64, screens / 16)) }
    /// Longest side of a crop as shown, in CSS pixels; small boxes are shown enlarged up to
    /// `maxEnlargement` times, by the browser (the JPEG keeps the screen's own pixels).
    static let cropSide = 120
    static let maxEnlargement: Float = 4
    /// Width of a whole screen in pixels.
    static let screenWidth = 240

    /// Which records are shown, from the analysis alone.
    public struct Selection: Equatable {
        /// Records (indices into `ErrorAnalysis.records`) of the gallery's tiles: per class, its
        /// false positives by score, then its misses by area, then the confusions' examples not already there.
        /// Within `screensRead(of:)` screens: each class's first false positive and first miss are taken in turn,
        /// then each class's second, and so on, from new screens while the bound allows, then only from
        /// screens already read.
        public var tiles: [Int]
        public var confusions: [Confusion]
        /// Screens (indices into the evaluation's images) with the most false positives and misses, most first.
        public var screens: [(image: Int, errors: Int)]

        public static func == (a: Selection, b: Selection) -> Bool {
            a.tiles == b.tiles && a.confusions == b.confusions && a.screens.map(\.image) == b.screens.map(\.image) && a.screens.map(\.errors) == b.screens.map(\.errors)
        }
    }

    /// Wrong-class detections of class `detected` on true boxes of class `truth`.
    public struct Confusion: Equatable {
        public var truth: Int
        public var detected: Int
        public var count: Int
        /// The highest-scoring of them, as records.
        public var examples: [Int]
    }

    /// A crop, and the record's box and related box as fractions of it.
    public struct Crop {
        public var picture: OutlinedPicture
        public var box: Box
        public var other: Box?
    }

    /// A whole screen (its content, without letterbox padding) and the records drawn on it, boxes as fractions of it.
    public struct Screen {
        public var image: Int
        public var imageID: String
        public var errors: Int
        public var picture: OutlinedPicture
        public var boxes: [(record: Int, box: Box)]
    }

    public var selection: Selection
    /// By record, for each tile.
    public var crops: [Int: Crop]
    public var screens: [Screen]

    public init(selection: Selection, crops: [Int: Crop], screens: [Screen]) {
        self.selection = selection
        self.crops = crops
        self.screens = screens
    }

    /// The gallery of `errors`, made from the pixels of `set`, whose first screens are the evaluation's images in order.
    /// Screens stored without pixels (detection shards) give no pictures.
    public static func make(_ errors: ErrorAnalysis, classCount: Int, set: ShardSet) throws -> ErrorGallery {
        let selection = Selection(errors, classCount: classCount)
        var byScreen: [Int: [Int]] = [:]
        for r in selection.tiles { byScreen[errors.records[r].image, default: []].append(r) }
        for s in selection.screens where byScreen[s.image] == nil { byScreen[s.image] = [] }
        // The records drawn on each screen shown: its false positives and misses.
        var drawn = Dictionary(uniqueKeysWithValues: selection.screens.map { ($0.image, [Int]()) })
        for (n, r) in errors.records.enumerated() where r.kind != .truePositive && drawn[r.image] != nil { drawn[r.image]!.append(n) }
        let errorCounts = Dictionary(uniqueKeysWithValues: selection.screens.map { ($0.image, $0.errors) })
        let screenList = byScreen.keys.sorted()
        // Each screen read once, one after the other (HDF5 reads one at a time in its global lock,
        // so threads would only wait on each other), then its crops cut and encoded on both cores.
        let images = try screenList.map { try set.record(at: $0).image }
        let made = parallelMap(count: screenList.count, workers: ProcessInfo.processInfo.activeProcessorCount) { _, n in
            Result { () -> (crops: [(Int, Crop)], screen: Screen?) in
                let i = screenList[n]
                guard let image = images[n] else { return ([], nil) }
                let content = OutlinedPicture.content(of: set, screen: i, stored: image.size)
                let crops = try byScreen[i]!.map { r in (r, try crop(errors.records[r], from: image, content: content)) }
                guard let records = drawn[i], let count = errorCounts[i] else { return (crops, nil) }
                return (crops, try screen(i, errors: count, records: records.map { ($0, errors.records[$0]) }, image: image, content: content))
            }
        }
        var crops: [Int: Crop] = [:], screens: [Int: Screen] = [:]
        for m in made {
            let (c, s) = try m.get()
            for (r, crop) in c { crops[r] = crop }
            if let s { screens[s.image] = s }
        }
        return ErrorGallery(selection: selection, crops: crops, screens: selection.screens.compactMap { screens[$0.image] })
    }

    /// The pixel rectangle a crop of `box` (and `other`) takes: their union with a margin of half its
    /// longer side (at least 6 pixels) on every side, inside `content`.
    static func cropRect(_ box: Box, _ other: Box?, content: Size) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        var u = box
        if let o = other {
            u = Box(xMin: min(u.xMin, o.xMin), yMin: min(u.yMin, o.yMin), xMax: max(u.xMax, o.xMax), yMax: max(u.yMax, o.yMax))
        }
        let margin = max(6, 0.5 * max(u.width, u.height))
        let x0 = max(0, Int((u.xMin - margin).rounded(.down))), y0 = max(0, Int((u.yMin - margin).rounded(.down)))
        let x1 = min(content.width, Int((u.xMax + margin).rounded(.up))), y1 = min(content.height, Int((u.yMax + margin).rounded(.up)))
        // A box outside the content (or empty) still gets a pixel.
        let cx0 = min(x0, content.width - 1), cy0 = min(y0, content.height - 1)
        return (cx0, cy0, max(x1, cx0 + 1), max(y1, cy0 + 1))
    }

    /// `record`'s crop of `image`.
    static func crop(_ record: ErrorRecord, from image: RGBImage, content: Size) throws -> Crop {
        let other = record.other?.box
        let r = cropRect(record.box, other, content: content)
        let (w, h) = (r.x1 - r.x0, r.y1 - r.y0)
        let scale = min(Float(cropSide) / Float(max(w, h)), maxEnlargement)
        let shown = Size(width: max(1, Int((Float(w) * scale).rounded())), height: max(1, Int((Float(h) * scale).rounded())))
        // Enlarging is left to the browser: a JPEG of the crop's own pixels is smaller and made faster.
        let size = scale < 1 ? shown : Size(width: w, height: h)
        var picture = try OutlinedPicture(image.cropped(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1).resized(to: size))
        picture.shown = shown
        func fraction(_ b: Box) -> Box {
            Box(xMin: (b.xMin - Float(r.x0)) / Float(w), yMin: (b.yMin - Float(r.y0)) / Float(h),
                xMax: (b.xMax - Float(r.x0)) / Float(w), yMax: (b.yMax - Float(r.y0)) / Float(h))
        }
        return Crop(picture: picture, box: fraction(record.box), other: other.map(fraction))
    }

    /// Screen `i` at `screenWidth` with `records` (numbered) drawn on it.
    static func screen(_ i: Int, errors: Int, records: [(Int, ErrorRecord)], image: RGBImage, content: Size) throws -> Screen {
        let (picture, fraction) = try OutlinedPicture.screen(image, content: content, width: screenWidth)
        return Screen(image: i, imageID: records.first?.1.imageID ?? "", errors: errors, picture: picture,
                      boxes: records.map { n, r in (record: n, box: fraction(r.box)) })
    }
}

extension ErrorGallery.Selection {
    /// The records the gallery shows, by the rules of `ErrorGallery`'s constants.
    public init(_ errors: ErrorAnalysis, classCount: Int) {
        let records = errors.records
        var falsePositives = [[Int]](repeating: [], count: classCount), misses = [[Int]](repeating: [], count: classCount)
        // Wrong-class records by (true class, detected class), keyed truth * classCount + detected.
        var confused: [Int: [Int]] = [:]
        var perScreen: [Int: Int] = [:]
        for (n, r) in records.enumerated() where r.image >= 0 {
            switch r.kind {
            case .truePositive: continue
            case .missed: misses[r.label].append(n)
            default: falsePositives[r.label].append(n)
            }
            perScreen[r.image, default: 0] += 1
            if r.kind == .wrongClass, let o = r.other { confused[o.label * classCount + r.label, default: []].append(n) }
        }
        func score(_ n: Int) -> Double { records[n].score ?? 0 }
        func byScore(_ a: Int, _ b: Int) -> Bool { score(a) != score(b) ? score(a) > score(b) : a < b }
        func byArea(_ a: Int, _ b: Int) -> Bool { records[a].box.area != records[b].box.area ? records[a].box.area > records[b].box.area : a < b }
        screens = perScreen.map { (image: $0.key, errors: $0.value) }
            .sorted { $0.errors != $1.errors ? $0.errors > $1.errors : $0.image < $1.image }
            .prefix(ErrorGallery.screensShown).map { $0 }
        // Screens read so far; a record is admitted if its screen is one of them or the bound allows one more.
        var read = Set(screens.map(\.image))
        let bound = ErrorGallery.screensRead(of: errors.screens)
        func admit(_ n: Int) -> Bool {
            let i = records[n].image
            if read.contains(i) { return true }
            guard read.count < bound else { return false }
            read.insert(i)
            return true
        }
        // Each class's false positives then its misses; taken in turns, so that every class gets its worst first.
        let lists = (0..<classCount).flatMap { c in [falsePositives[c].sorted(by: byScore), misses[c].sorted(by: byArea)] }
        var next = [Int](repeating: 0, count: lists.count), taken = [[Int]](repeating: [], count: lists.count)
        for _ in 0..<ErrorGallery.perClass {
            for l in lists.indices {
                while next[l] < lists[l].count {
                    let n = lists[l][next[l]]
                    next[l] += 1
                    if admit(n) { taken[l].append(n); break }
                }
            }
        }
        var tiles = taken.flatMap { $0 }
        confusions = confused.map { key, members in
            ErrorGallery.Confusion(truth: key / classCount, detected: key % classCount, count: members.count, examples: [])
        }.sorted { ($1.count, $0.truth, $0.detected) < ($0.count, $1.truth, $1.detected) }
        confusions = Array(confusions.prefix(ErrorGallery.confusionsShown))
        for k in confusions.indices {
            let members = confused[confusions[k].truth * classCount + confusions[k].detected]!.sorted(by: byScore)
            for n in members where confusions[k].examples.count < ErrorGallery.examplesPerConfusion && admit(n) { confusions[k].examples.append(n) }
        }
        var shown = Set(tiles)
        for c in confusions { for e in c.examples where shown.insert(e).inserted { tiles.append(e) } }
        self.tiles = tiles
    }
}
