import Boxes
@preconcurrency import CHDF5
import Foundation
import Images

/// Writes one shard, image by image.
///
/// Images go to the file as they are appended (one compressed, checksummed
/// chunk per image); annotations are kept until `finish()`. The shard is
/// written under a temporary name and renamed into place by `finish()`, so
/// an interrupted write never leaves a half-written shard at `url`.
public final class ShardWriter {
    public let url: URL
    public let classNames: [String]
    public let imageSize: Size?
    private let temporaryURL: URL
    private var file: HDF5.Handle?
    private var images: HDF5.Handle?
    private var records: [ScreenRecord] = []
    /// Boxes appended so far: the row of the next record's first box.
    private var labelCount = 0
    private var finished = false

    /// Starts a shard of `imageSize` images (nil: a detection shard without images).
    public init(url: URL, classNames: [String], imageSize: Size?, compression: Int = 4) throws {
        self.url = url
        self.classNames = classNames
        self.imageSize = imageSize
        temporaryURL = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let f = try HDF5.createFile(temporaryURL.path)
            file = f
            if let size = imageSize {
                images = try HDF5.createDataset(f, "images", fileType: H5T_STD_U8LE_g, dims: [0, size.height, size.width, 3],
                                                chunk: [1, size.height, size.width, 3], compression: compression, extendible: true)
            }
        } catch {
            throw ShardError.writeFailed(path: url.path, reason: Self.reason(error))
        }
    }

    deinit {
        if !finished { try? FileManager.default.removeItem(at: temporaryURL) }
    }

    /// Number of screens appended so far.
    public var count: Int { records.count }

    /// Adds a screen; its image must have the shard's size.
    public func append(_ record: ScreenRecord) throws {
        precondition(!finished, "append after finish")
        for (i, b) in record.boxes.enumerated() where !b.isValid {
            throw ShardError.invalidValue(path: url.path, dataset: "boxes", index: i, reason: "box \(b) of '\(record.imageID)' has no area or is not finite")
        }
        if let bad = record.labels.firstIndex(where: { $0 < 0 || Int($0) >= classNames.count }) {
            throw ShardError.invalidValue(path: url.path, dataset: "labels", index: bad, reason: "label \(record.labels[bad]) of '\(record.imageID)' is outside the vocabulary")
        }
        let m = record.boxes.count
        let lengths: [(String, Int?)] = [("scores", record.scores?.count), ("group_index", record.groupIndex?.count), ("nav_order", record.navOrder?.count),
                                         ("selected", record.selected?.count), ("interactive", record.interactive?.count),
                                         ("texts", record.texts?.count), ("group_kinds", record.groupKinds?.count),
                                         ("icon_types", record.iconTypes?.count)]
        for case let (name, count?) in lengths where count != m {
            throw ShardError.invalidValue(path: url.path, dataset: name, index: labelCount, reason: "'\(record.imageID)' has \(count) values for its \(m) boxes")
        }
        if let (name, row, reason) = DescriptionDatasets.fault(groupIndex: record.groupIndex, navOrder: record.navOrder, selected: record.selected,
                                                               interactive: record.interactive, groupKinds: record.groupKinds, iconTypes: record.iconTypes) {
            throw ShardError.invalidValue(path: url.path, dataset: name, index: labelCount + row, reason: "box \(row) of '\(record.imageID)': \(reason)")
        }
        if let images, let size = imageSize {
            guard let image = record.image, image.size == size else {
                throw ShardError.writeFailed(path: url.path, reason: "image '\(record.imageID)' is \(record.image.map { "\($0.size)" } ?? "missing"), the shard stores \(size)")
            }
            do {
                try image.pixels.withUnsafeBytes {
                    try HDF5.appendRows(images, dims: [records.count, size.height, size.width, 3], start: records.count,
                                        data: $0.baseAddress!, memType: H5T_NATIVE_UINT8_g)
                }
            } catch {
                throw ShardError.writeFailed(path: url.path, reason: Self.reason(error))
            }
        }
        var kept = record
        kept.image = nil  // pixels are in the file already
        records.append(kept)
        labelCount += m
    }

    /// Writes the annotations and attributes, closes the file, and moves it into place.
    public func finish() throws {
        precondition(!finished, "finish twice")
        guard let f = file else { return }
        do {
            let n = records.count
            var offsets: [Int64] = [0]
            var flat: [Float] = [], labels: [Int32] = [], scores: [Float] = []
            for r in records {
                for b in r.boxes { flat += [b.xMin, b.yMin, b.xMax, b.yMax] }
                labels += r.labels
                scores += r.scores ?? [Float](repeating: 1, count: r.boxes.count)
                offsets.append(Int64(labels.count))
            }
            let m = labels.count
            try HDF5.write(f, "box_offsets", offsets, dims: [n + 1], fileType: H5T_STD_I64LE_g, memType: H5T_NATIVE_INT64_g)
            try HDF5.write(f, "boxes", flat, dims: [m, 4], fileType: H5T_IEEE_F32LE_g, memType: H5T_NATIVE_FLOAT_g)
            try HDF5.write(f, "labels", labels, dims: [m], fileType: H5T_STD_I32LE_g, memType: H5T_NATIVE_INT32_g)
            if records.contains(where: { $0.scores != nil }) {
                try HDF5.write(f, "scores", scores, dims: [m], fileType: H5T_IEEE_F32LE_g, memType: H5T_NATIVE_FLOAT_g)
            }
            try HDF5.writeStrings(f, "image_ids", records.map(\.imageID))
            try HDF5.writeStrings(f, "group_ids", records.map(\.groupID))
            if records.allSatisfy({ $0.originalSize != nil }) && n > 0 {
                let sizes = records.flatMap { [Int32($0.originalSize!.width), Int32($0.originalSize!.height)] }
                try HDF5.write(f, "original_sizes", sizes, dims: [n, 2], fileType: H5T_STD_I32LE_g, memType: H5T_NATIVE_INT32_g)
            }
            // The description datasets, each written when every screen has it (like original_sizes):
            // a screen without it would otherwise claim "no group", "outside the order", ...
            func every<T>(_ field: (ScreenRecord) -> [T]?) -> [T]? {
                guard n > 0, records.allSatisfy({ field($0) != nil }) else { return nil }
                return records.flatMap { field($0)! }
            }
            if let v = every(\.groupIndex) { try HDF5.write(f, "group_index", v, dims: [m], fileType: H5T_STD_I32LE_g, memType: H5T_NATIVE_INT32_g) }
            if let v = every(\.navOrder) { try HDF5.write(f, "nav_order", v, dims: [m], fileType: H5T_STD_I32LE_g, memType: H5T_NATIVE_INT32_g) }
            if let v = every(\.selected) { try HDF5.write(f, "selected", v, dims: [m], fileType: H5T_STD_I8LE_g, memType: H5T_NATIVE_INT8_g) }
            if let v = every(\.interactive) { try HDF5.write(f, "interactive", v, dims: [m], fileType: H5T_STD_I8LE_g, memType: H5T_NATIVE_INT8_g) }
            if let v = every(\.texts) { try HDF5.writeStrings(f, "texts", v) }
            if let v = every(\.groupKinds) { try HDF5.writeStrings(f, "group_kinds", v) }
            if let v = every(\.iconTypes) { try HDF5.writeStrings(f, "icon_types", v) }
            try HDF5.writeStringAttribute(f, "format", ["screen-shard"], scalar: true)
            try HDF5.writeIntAttribute(f, "version", 1)
            try HDF5.writeStringAttribute(f, "class_names", classNames, scalar: false)
        } catch {
            throw ShardError.writeFailed(path: url.path, reason: Self.reason(error))
        }
        images = nil
        file = nil  // closes the file before the rename
        // rename(2) replaces an existing shard in one step; Foundation's replaceItemAt on
        // Linux removes the old file and then fails, losing it.
        if rename(temporaryURL.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            throw ShardError.writeFailed(path: url.path, reason: "could not move the finished shard into place: \(reason)")
        }
        finished = true
    }

    private static func reason(_ error: Error) -> String {
        (error as? HDF5Failure).map { "HDF5 could not \($0.action)" } ?? "\(error)"
    }
}
