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
    /// Longest side of a crop in pixels; small boxes are enlarged up to `maxEnlargement` times.
    static let cropSide = 120
    static let maxEnlargement: Float = 4
    /// Width of a whole screen in pixels.
    static let screenWidth = 240
    static let jpegQuality = 72

    /// Which records are shown, from the analysis alone.
    public struct Selection: Equatable {
        /// Records (indices into `ErrorAnalysis.records`) of the gallery's tiles: per class, its
        /// false positives by score, then its misses by area, then the confusions' examples not already there.
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

    /// A crop: the JPEG, its size, and the record's box and related box as fractions of it.
    public struct Crop {
        public var jpeg: Data
        public var size: Size
        public var box: Box
        public var other: Box?
    }

    /// A whole screen (its content, without letterbox padding) and the records drawn on it, boxes as fractions of it.
    public struct Screen {
        public var image: Int
        public var imageID: String
        public var errors: Int
        public var jpeg: Data
        public var size: Size
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
        // Each screen read once, and its crops cut, on both cores.
        let made = parallelMap(count: screenList.count, workers: ProcessInfo.processInfo.activeProcessorCount) { _, n in
            Result { () -> (crops: [(Int, Crop)], screen: Screen?) in
                let i = screenList[n]
                guard let image = try set.record(at: i).image else { return ([], nil) }
                let content = Self.content(of: set, screen: i, stored: image.size)
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

    /// The part of stored screen `i` that holds the screenshot: all of it, or without the padding of a letterboxed screenshot.
    static func content(of set: ShardSet, screen i: Int, stored: Size) -> Size {
        let (k, local) = set.locate(i)
        guard let original = set.readers[k].originalSizes?[local], original.width > 0, original.height > 0 else { return stored }
        let scale = Letterbox(original: original, target: stored).scale
        return Size(width: min(stored.width, max(1, Int((Float(original.width) * scale).rounded(.up)))),
                    height: min(stored.height, max(1, Int((Float(original.height) * scale).rounded(.up)))))
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
        let size = Size(width: max(1, Int((Float(w) * scale).rounded())), height: max(1, Int((Float(h) * scale).rounded())))
        let pixels = image.cropped(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1).resized(to: size)
        func fraction(_ b: Box) -> Box {
            Box(xMin: (b.xMin - Float(r.x0)) / Float(w), yMin: (b.yMin - Float(r.y0)) / Float(h),
                xMax: (b.xMax - Float(r.x0)) / Float(w), yMax: (b.yMax - Float(r.y0)) / Float(h))
        }
        return Crop(jpeg: try ImageCodec.encodeJPEG(pixels, quality: jpegQuality), size: size, box: fraction(record.box), other: other.map(fraction))
    }

    /// Screen `i` at `screenWidth` with `records` (numbered) drawn on it.
    static func screen(_ i: Int, errors: Int, records: [(Int, ErrorRecord)], image: RGBImage, content: Size) throws -> Screen {
        let visible = image.cropped(x0: 0, y0: 0, x1: content.width, y1: content.height)
        let width = min(screenWidth, visible.width)
        let size = Size(width: width, height: max(1, Int((Float(visible.height) * Float(width) / Float(visible.width)).rounded())))
        let (w, h) = (Float(content.width), Float(content.height))
        let boxes = records.map { n, r in (record: n, box: Box(xMin: r.box.xMin / w, yMin: r.box.yMin / h, xMax: r.box.xMax / w, yMax: r.box.yMax / h)) }
        return Screen(image: i, imageID: records.first?.1.imageID ?? "", errors: errors,
                      jpeg: try ImageCodec.encodeJPEG(visible.resized(to: size), quality: jpegQuality), size: size, boxes: boxes)
    }
}

extension ErrorGallery.Selection {
    /// The records the gallery shows, by the rules of `ErrorGallery`'s constants.
    public init(_ errors: ErrorAnalysis, classCount: Int) {
        let records = errors.records
        var falsePositives = [[Int]](repeating: [], count: classCount), misses = [[Int]](repeating: [], count: classCount)
        var confused: [[Int]: [Int]] = [:]
        var perScreen: [Int: Int] = [:]
        for (n, r) in records.enumerated() where r.image >= 0 {
            switch r.kind {
            case .truePositive: continue
            case .missed: misses[r.label].append(n)
            default: falsePositives[r.label].append(n)
            }
            perScreen[r.image, default: 0] += 1
            if r.kind == .wrongClass, let o = r.other { confused[[o.label, r.label], default: []].append(n) }
        }
        func score(_ n: Int) -> Double { records[n].score ?? 0 }
        func byScore(_ a: Int, _ b: Int) -> Bool { score(a) != score(b) ? score(a) > score(b) : a < b }
        func byArea(_ a: Int, _ b: Int) -> Bool { records[a].box.area != records[b].box.area ? records[a].box.area > records[b].box.area : a < b }
        var tiles: [Int] = []
        for c in 0..<classCount {
            tiles += falsePositives[c].sorted(by: byScore).prefix(ErrorGallery.perClass)
            tiles += misses[c].sorted(by: byArea).prefix(ErrorGallery.perClass)
        }
        confusions = confused.map { key, members in
            ErrorGallery.Confusion(truth: key[0], detected: key[1], count: members.count,
                                   examples: Array(members.sorted(by: byScore).prefix(ErrorGallery.examplesPerConfusion)))
        }.sorted { ($1.count, $0.truth, $0.detected) < ($0.count, $1.truth, $1.detected) }
        confusions = Array(confusions.prefix(ErrorGallery.confusionsShown))
        var shown = Set(tiles)
        for c in confusions { for e in c.examples where shown.insert(e).inserted { tiles.append(e) } }
        self.tiles = tiles
        screens = perScreen.map { (image: $0.key, errors: $0.value) }
            .sorted { $0.errors != $1.errors ? $0.errors > $1.errors : $0.image < $1.image }
            .prefix(ErrorGallery.screensShown).map { $0 }
    }
}
