import Boxes
@preconcurrency import CHDF5
import Foundation
import Images

/// Reads one shard (shard-format.md, version 1).
///
/// Opening validates everything but the pixels: attributes, every dataset's
/// type and shape, offsets, labels, boxes and ids; a bad shard throws a
/// `ShardError` naming the file, the dataset and the fault. Annotations are
/// held in memory (they are small); images are read one at a time, so a
/// reader never holds more than the image asked for.
public final class ShardReader {
    public let url: URL
    public let classNames: [String]
    /// Number of screens.
    public let count: Int
    /// Storage size of every image, nil in a detection shard without images.
    public let imageSize: Size?
    public let imageIDs: [String]
    public let groupIDs: [String]
    public let originalSizes: [Size]?
    /// Screen i owns rows `boxOffsets[i] ..< boxOffsets[i + 1]` of `boxes`, `labels` and `scores`.
    public let boxOffsets: [Int]
    public let boxes: [Box]
    public let labels: [Int32]
    public let scores: [Float]?
    /// The optional description datasets (screen-description.md, "Ground truth in shards"), one value
    /// per box like `labels`; nil where the shard does not have them.
    public let groupIndex: [Int32]?
    public let navOrder: [Int32]?
    public let selected: [Int8]?
    public let interactive: [Int8]?
    public let texts: [String]?
    public let groupKinds: [String]?
    public let iconTypes: [String]?
    public var isDetectionShard: Bool { scores != nil }

    private let file: HDF5.Handle
    private let images: HDF5.Handle?
    private let imageDims: [Int]

    private var path: String { url.path }

    public init(url: URL) throws {
        self.url = url
        let p = try Self.parse(url)
        (file, images, imageDims, classNames, count, imageSize) = (p.file, p.images, p.imageDims, p.classNames, p.count, p.imageSize)
        (imageIDs, groupIDs, originalSizes) = (p.imageIDs, p.groupIDs, p.originalSizes)
        (boxOffsets, boxes, labels, scores) = (p.boxOffsets, p.boxes, p.labels, p.scores)
        (groupIndex, navOrder, selected, interactive, texts, groupKinds, iconTypes) = (p.groupIndex, p.navOrder, p.selected, p.interactive, p.texts, p.groupKinds, p.iconTypes)
    }

    /// Everything `parse` validates, before it becomes a reader.
    private struct Parsed {
        let file: HDF5.Handle
        var images: HDF5.Handle? = nil
        var imageDims: [Int] = []
        var classNames: [String] = []
        var count = 0
        var imageSize: Size? = nil
        var imageIDs: [String] = [], groupIDs: [String] = []
        var originalSizes: [Size]? = nil
        var boxOffsets: [Int] = [], boxes: [Box] = [], labels: [Int32] = []
        var scores: [Float]? = nil
        var groupIndex: [Int32]? = nil, navOrder: [Int32]? = nil
        var selected: [Int8]? = nil, interactive: [Int8]? = nil
        var texts: [String]? = nil, groupKinds: [String]? = nil, iconTypes: [String]? = nil
    }

    private static func parse(_ url: URL) throws -> Parsed {
        let path = url.path
        let file: HDF5.Handle
        guard FileManager.default.fileExists(atPath: path) else { throw ShardError.unreadableFile(path: path, reason: "no such file") }
        if let kind = ShardSet.notRegularFile(path) { throw ShardError.unreadableFile(path: path, reason: "\(kind), not a regular file; not opened") }
        do { file = try HDF5.openFile(path) } catch {
            throw ShardError.unreadableFile(path: path, reason: "HDF5 cannot open it: truncated, damaged or not HDF5")
        }
        func fail(_ name: String) -> (Error) -> ShardError {
            { error in
                if let e = error as? ShardError { return e }
                return .corrupt(path: path, dataset: name, reason: (error as? HDF5Failure).map { "could not \($0.action)" } ?? "\(error)")
            }
        }

        // Root attributes.
        var p = Parsed(file: file)
        let root = file
        for name in ["format", "version", "class_names"] where !HDF5.attributeExists(root, name) {
            throw ShardError.missing(path: path, name: "attribute \(name)")
        }
        let format = try Result { try HDF5.readStringAttribute(root, "format") }.mapError(fail("format")).get()
        guard format == ["screen-shard"] else {
            throw ShardError.wrongFormat(path: path, attribute: "format", found: "'\(format.joined(separator: ","))'", expected: "'screen-shard'")
        }
        let version = try Result { try HDF5.readIntAttribute(root, "version") }.mapError(fail("version")).get()
        guard version == 1 else { throw ShardError.wrongFormat(path: path, attribute: "version", found: "\(version)", expected: "1") }
        p.classNames = try Result { try HDF5.readStringAttribute(root, "class_names") }.mapError(fail("class_names")).get()
        guard !p.classNames.isEmpty else { throw ShardError.invalidValue(path: path, dataset: "class_names", index: 0, reason: "the vocabulary is empty") }
        if let dup = firstDuplicate(p.classNames) {
            throw ShardError.invalidValue(path: path, dataset: "class_names", index: dup, reason: "'\(p.classNames[dup])' appears twice")
        }

        // Datasets and their shapes.
        func open(_ name: String, required: Bool) throws -> (HDF5.Handle, [Int])? {
            guard HDF5.exists(file, name) else {
                if required { throw ShardError.missing(path: path, name: "dataset \(name)") }
                return nil
            }
            let ds = try Result { try HDF5.openDataset(file, name) }.mapError(fail(name)).get()
            return (ds, try Result { try HDF5.dims(ds) }.mapError(fail(name)).get())
        }
        func requireNumeric(_ ds: HDF5.Handle, _ name: String, float: Bool) throws {
            let t = try Result { try HDF5.elementType(ds) }.mapError(fail(name)).get()
            let ok = float ? (t.cls == H5T_FLOAT || t.cls == H5T_INTEGER) : t.cls == H5T_INTEGER
            if !ok { throw ShardError.wrongType(path: path, dataset: name, found: describe(t.cls), expected: float ? "numbers" : "integers") }
        }

        let scoresDS = try open("scores", required: false)
        let imagesDS = try open("images", required: scoresDS == nil)
        guard let (offsetsDS, offsetsDims) = try open("box_offsets", required: true),
              let (boxesDS, boxesDims) = try open("boxes", required: true),
              let (labelsDS, labelsDims) = try open("labels", required: true),
              let (idsDS, idsDims) = try open("image_ids", required: true) else { fatalError("unreachable: required datasets throw") }

        guard idsDims.count == 1 else { throw ShardError.wrongShape(path: path, dataset: "image_ids", found: idsDims, expected: "(N,)") }
        let n = idsDims[0]
        // HDF5 lets a file of a few hundred bytes declare any size (unwritten chunks read as the fill
        // value): counts are checked against ShardLimits before anything of that size is allocated.
        if let problem = ShardLimits.problem(screens: n, boxes: boxesDims.first ?? 0) {
            throw ShardError.invalidValue(path: path, dataset: problem.dataset, index: 0, reason: problem.reason)
        }
        p.count = n
        if let (ds, dims) = imagesDS {
            guard dims.count == 4, dims[0] == n, dims[3] == 3, dims[1] > 0, dims[2] > 0 else {
                throw ShardError.wrongShape(path: path, dataset: "images", found: dims, expected: "(\(n), H, W, 3) to match image_ids")
            }
            if let problem = ImageLimits.problem(Size(width: dims[2], height: dims[1])) {
                throw ShardError.invalidValue(path: path, dataset: "images", index: 0, reason: problem)
            }
            let t = try Result { try HDF5.elementType(ds) }.mapError(fail("images")).get()
            guard t.cls == H5T_INTEGER, t.size == 1, t.unsigned else {
                throw ShardError.wrongType(path: path, dataset: "images", found: "\(describe(t.cls)) of \(t.size) bytes", expected: "uint8")
            }
            p.images = ds
            p.imageDims = dims
            p.imageSize = Size(width: dims[2], height: dims[1])
        } else {
            p.images = nil
            p.imageDims = []
            p.imageSize = nil
        }
        guard offsetsDims == [n + 1] else {
            throw ShardError.wrongShape(path: path, dataset: "box_offsets", found: offsetsDims, expected: "(\(n + 1),) = image count + 1")
        }
        guard boxesDims.count == 2, boxesDims[1] == 4 else {
            throw ShardError.wrongShape(path: path, dataset: "boxes", found: boxesDims, expected: "(M, 4)")
        }
        let m = boxesDims[0]
        guard labelsDims == [m] else { throw ShardError.wrongShape(path: path, dataset: "labels", found: labelsDims, expected: "(\(m),) to match boxes") }
        try requireNumeric(offsetsDS, "box_offsets", float: false)
        try requireNumeric(labelsDS, "labels", float: false)
        try requireNumeric(boxesDS, "boxes", float: true)

        // Values.
        let offsets = try Result { try HDF5.read(offsetsDS, count: n + 1, memType: H5T_NATIVE_INT64_g, as: Int64.self, zero: 0) }
            .mapError(fail("box_offsets")).get().map { Int($0) }
        guard offsets[0] == 0 else { throw ShardError.invalidValue(path: path, dataset: "box_offsets", index: 0, reason: "is \(offsets[0]), must be 0") }
        for i in 1..<(n + 1) where offsets[i] < offsets[i - 1] {  // 1...n traps on an empty shard
            throw ShardError.invalidValue(path: path, dataset: "box_offsets", index: i,
                                          reason: "\(offsets[i]) is less than the previous \(offsets[i - 1]) (offsets must not decrease)")
        }
        guard offsets[n] == m else {
            throw ShardError.invalidValue(path: path, dataset: "box_offsets", index: n, reason: "the last offset is \(offsets[n]), must equal the \(m) boxes")
        }
        p.boxOffsets = offsets
        p.labels = try Result { try HDF5.read(labelsDS, count: m, memType: H5T_NATIVE_INT32_g, as: Int32.self, zero: 0) }.mapError(fail("labels")).get()
        if let bad = p.labels.firstIndex(where: { $0 < 0 || Int($0) >= p.classNames.count }) {
            throw ShardError.invalidValue(path: path, dataset: "labels", index: bad,
                                          reason: "label \(p.labels[bad]) is outside the \(p.classNames.count) classes 0..<\(p.classNames.count)")
        }
        let flat = try Result { try HDF5.read(boxesDS, count: 4 * m, memType: H5T_NATIVE_FLOAT_g, as: Float.self, zero: 0) }.mapError(fail("boxes")).get()
        var boxes: [Box] = []
        boxes.reserveCapacity(m)
        for i in 0..<m {
            let b = Box(xMin: flat[4 * i], yMin: flat[4 * i + 1], xMax: flat[4 * i + 2], yMax: flat[4 * i + 3])
            guard b.isValid else {
                let why = [b.xMin, b.yMin, b.xMax, b.yMax].allSatisfy(\.isFinite) ? "has no area (x_max must exceed x_min, y_max y_min)" : "is not finite"
                throw ShardError.invalidValue(path: path, dataset: "boxes", index: i, reason: "box \(b) \(why)")
            }
            boxes.append(b)
        }
        p.boxes = boxes
        if let (ds, dims) = scoresDS {
            guard dims == [m] else { throw ShardError.wrongShape(path: path, dataset: "scores", found: dims, expected: "(\(m),) to match boxes") }
            try requireNumeric(ds, "scores", float: true)
            let s = try Result { try HDF5.read(ds, count: m, memType: H5T_NATIVE_FLOAT_g, as: Float.self, zero: 0) }.mapError(fail("scores")).get()
            if let bad = s.firstIndex(where: { !$0.isFinite }) {
                throw ShardError.invalidValue(path: path, dataset: "scores", index: bad, reason: "score \(s[bad]) is not finite")
            }
            p.scores = s
        } else {
            p.scores = nil
        }
        p.imageIDs = try Result { try HDF5.readStrings(idsDS, count: n) }.mapError(fail("image_ids")).get()
        if let dup = firstDuplicate(p.imageIDs) {
            throw ShardError.invalidValue(path: path, dataset: "image_ids", index: dup, reason: "id '\(p.imageIDs[dup])' is not unique")
        }
        if let (ds, dims) = try open("group_ids", required: false) {
            guard dims == [n] else { throw ShardError.wrongShape(path: path, dataset: "group_ids", found: dims, expected: "(\(n),) to match image_ids") }
            p.groupIDs = try Result { try HDF5.readStrings(ds, count: n) }.mapError(fail("group_ids")).get()
        } else {
            p.groupIDs = p.imageIDs  // each screen its own group
        }
        if let (ds, dims) = try open("original_sizes", required: false) {
            guard dims == [n, 2] else { throw ShardError.wrongShape(path: path, dataset: "original_sizes", found: dims, expected: "(\(n), 2)") }
            try requireNumeric(ds, "original_sizes", float: false)
            let v = try Result { try HDF5.read(ds, count: 2 * n, memType: H5T_NATIVE_INT32_g, as: Int32.self, zero: 0) }.mapError(fail("original_sizes")).get()
            var sizes: [Size] = []
            for i in 0..<n {
                guard v[2 * i] > 0, v[2 * i + 1] > 0 else {
                    throw ShardError.invalidValue(path: path, dataset: "original_sizes", index: i, reason: "size \(v[2 * i])x\(v[2 * i + 1]) is not positive")
                }
                sizes.append(Size(width: Int(v[2 * i]), height: Int(v[2 * i + 1])))
            }
            p.originalSizes = sizes
        } else {
            p.originalSizes = nil
        }

        // The description datasets: optional, one value per box, values checked.
        func perBox<T>(_ name: String, _ read: (HDF5.Handle) throws -> [T]) throws -> [T]? {
            guard let (ds, dims) = try open(name, required: false) else { return nil }
            guard dims == [m] else { throw ShardError.wrongShape(path: path, dataset: name, found: dims, expected: "(\(m),) to match boxes") }
            return try Result { try read(ds) }.mapError(fail(name)).get()
        }
        func integers<T>(_ name: String, memType: hid_t, as: T.Type, zero: T) throws -> [T]? {
            try perBox(name) { ds in
                try requireNumeric(ds, name, float: false)
                return try HDF5.read(ds, count: m, memType: memType, as: T.self, zero: zero)
            }
        }
        func strings(_ name: String) throws -> [String]? {
            try perBox(name) { ds in
                let t = try HDF5.elementType(ds)
                guard t.cls == H5T_STRING else { throw ShardError.wrongType(path: path, dataset: name, found: describe(t.cls), expected: "strings") }
                return try HDF5.readStrings(ds, count: m)
            }
        }
        p.groupIndex = try integers("group_index", memType: H5T_NATIVE_INT32_g, as: Int32.self, zero: 0)
        p.navOrder = try integers("nav_order", memType: H5T_NATIVE_INT32_g, as: Int32.self, zero: 0)
        p.selected = try integers("selected", memType: H5T_NATIVE_INT8_g, as: Int8.self, zero: 0)
        p.interactive = try integers("interactive", memType: H5T_NATIVE_INT8_g, as: Int8.self, zero: 0)
        p.texts = try strings("texts")
        p.groupKinds = try strings("group_kinds")
        p.iconTypes = try strings("icon_types")
        if let (name, row, reason) = DescriptionDatasets.fault(groupIndex: p.groupIndex, navOrder: p.navOrder, selected: p.selected,
                                                               interactive: p.interactive, groupKinds: p.groupKinds, iconTypes: p.iconTypes) {
            throw ShardError.invalidValue(path: path, dataset: name, index: row, reason: reason)
        }
        return p
    }

    /// Box rows of screen `index`.
    public func boxRange(_ index: Int) -> Range<Int> { boxOffsets[index]..<boxOffsets[index + 1] }

    /// The pixels of screen `index`, read from the file now.
    public func image(at index: Int) throws -> RGBImage {
        precondition(index >= 0 && index < count, "image \(index) of \(count)")
        guard let images, let size = imageSize else { throw ShardError.missing(path: path, name: "dataset images") }
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        do {
            try pixels.withUnsafeMutableBytes { try HDF5.readRows(images, dims: imageDims, start: index, count: 1, into: $0.baseAddress!) }
        } catch {
            throw ShardError.corrupt(path: path, dataset: "images", reason: "image \(index): checksum or decompression failed")
        }
        return RGBImage(size: size, pixels: pixels)
    }

    /// Screen `index` with its annotations, and its image unless `withImage` is false.
    public func record(at index: Int, withImage: Bool = true) throws -> ScreenRecord {
        let r = boxRange(index)
        return ScreenRecord(
            imageID: imageIDs[index], groupID: groupIDs[index],
            image: withImage && images != nil ? try image(at: index) : nil,
            boxes: Array(boxes[r]), labels: Array(labels[r]), scores: scores.map { Array($0[r]) },
            originalSize: originalSizes?[index],
            groupIndex: groupIndex.map { Array($0[r]) }, navOrder: navOrder.map { Array($0[r]) },
            selected: selected.map { Array($0[r]) }, interactive: interactive.map { Array($0[r]) },
            texts: texts.map { Array($0[r]) }, groupKinds: groupKinds.map { Array($0[r]) }, iconTypes: iconTypes.map { Array($0[r]) })
    }

    /// Reads every image once, so that damage anywhere in the pixel data is found now.
    public func verifyImages() throws {
        for i in 0..<(images == nil ? 0 : count) { _ = try image(at: i) }
    }

    private static func firstDuplicate(_ values: [String]) -> Int? {
        var seen = Set<String>()
        for (i, v) in values.enumerated() where !seen.insert(v).inserted { return i }
        return nil
    }

    private static func describe(_ cls: H5T_class_t) -> String {
        switch cls {
        case H5T_INTEGER: return "integers"
        case H5T_FLOAT: return "floats"
        case H5T_STRING: return "strings"
        case H5T_COMPOUND: return "compound records"
        default: return "values of HDF5 class \(cls.rawValue)"
        }
    }
}

/// The largest counts a shard may declare, so that a crafted file cannot make the reader allocate
/// without bound. Both are far above real shards (the writer rolls over at a few thousand screens);
/// raise them here for larger ones.
public enum ShardLimits {
    /// Screens per shard.
    public static let maximumScreens = 10_000_000
    /// Boxes per shard (16 bytes each, plus the description datasets).
    public static let maximumBoxes = 100_000_000

    /// Why a shard declaring `screens` screens and `boxes` boxes is refused, or nil.
    public static func problem(screens: Int, boxes: Int) -> (dataset: String, reason: String)? {
        if screens > maximumScreens { return ("image_ids", "declares \(screens) screens, more than the \(maximumScreens) a shard may hold (ShardLimits)") }
        if boxes > maximumBoxes { return ("boxes", "declares \(boxes) boxes, more than the \(maximumBoxes) a shard may hold (ShardLimits)") }
        return nil
    }
}
