import Boxes
import Foundation
import Images
import Shards

/// What an export wrote.
public struct ExportSummary: Equatable {
    public var images: Int
    public var boxes: Int
    public var classes: Int
    public init(images: Int, boxes: Int, classes: Int) {
        self.images = images
        self.boxes = boxes
        self.classes = classes
    }
}

/// The screens of a ground-truth shard set as an export names them: in data-set order (the order
/// `ShardSet` reads them), each with a distinct file name made from its image id.
struct ExportPlan {
    struct Screen {
        let reader: ShardReader
        let index: Int
        /// The file name without extension (`UniqueNames.fileName(for:)`, made distinct).
        let fileName: String
        /// Stored image size: the pixels the boxes are in.
        let size: Size
    }
    let screens: [Screen]

    /// Refuses detection shards, shards without images and an image id in two shards, naming the shard.
    init(_ set: ShardSet) throws {
        var shardOf: [String: String] = [:]
        for r in set.readers {
            guard !r.isDetectionShard else {
                throw InterchangeError(path: r.url.path, field: "scores", problem: "a detection shard, not ground truth: there is nothing to export as annotations")
            }
            for (i, id) in r.imageIDs.enumerated() {
                if let other = shardOf.updateValue(r.url.path, forKey: id) {
                    throw InterchangeError(path: r.url.path, field: "image_ids[\(i)]", problem: "image_id '\(id)' is also in \(other); each screen must be in one shard only")
                }
            }
        }
        let bases = set.readers.flatMap { $0.imageIDs.map(UniqueNames.fileName(for:)) }
        var names = UniqueNames(reserving: bases)
        var screens: [Screen] = []
        for r in set.readers {
            guard let size = r.imageSize else { throw InterchangeError(path: r.url.path, field: "images", problem: "missing: the shard has no screenshots") }
            for i in 0..<r.count {
                screens.append(Screen(reader: r, index: i, fileName: names.claim(UniqueNames.fileName(for: r.imageIDs[i])), size: size))
            }
        }
        self.screens = screens
    }
}

/// Ground truth of screen shards as a COCO instances file, for pycocotools, FiftyOne or detectron2.
public enum COCOExport {
    /// Writes `set` to `json`: images with ids 1, 2, ... in data-set order, `file_name` (the image id made a
    /// file name, `.png`), the stored width and height, and our `uidetect_image_id` and `uidetect_group_id`;
    /// annotations with `bbox` `[x, y, w, h]` (float32 values widened to double, so exact), `area`
    /// `w * h` and `iscrowd` 0; categories 1, 2, ... in vocabulary order. With `imagesFolder`, each
    /// screen is also written there as a PNG file of its stored pixels.
    public static func write(_ set: ShardSet, to json: URL, imagesFolder: URL?, progress: (Int, Int) -> Void = { _, _ in }) throws -> ExportSummary {
        let plan = try ExportPlan(set)
        if let imagesFolder { try FileManager.default.createDirectory(at: imagesFolder, withIntermediateDirectories: true) }
        var instances = COCOInstances(info: .init(description: "screen shards exported by uidetect export-data coco"), images: [], annotations: [],
                                      categories: set.classNames.enumerated().map { .init(id: $0 + 1, name: $1) })
        for (k, screen) in plan.screens.enumerated() {
            progress(k, plan.screens.count)
            let r = screen.reader, id = k + 1
            let file = screen.fileName + ".png"
            instances.images.append(.init(id: id, fileName: file, width: screen.size.width, height: screen.size.height,
                                          uidetectImageID: r.imageIDs[screen.index], uidetectGroupID: r.groupIDs[screen.index]))
            for row in r.boxRange(screen.index) {
                let b = r.boxes[row]
                let w = Double(b.xMax) - Double(b.xMin), h = Double(b.yMax) - Double(b.yMin)
                instances.annotations.append(.init(id: instances.annotations.count + 1, imageID: id, categoryID: Int(r.labels[row]) + 1,
                                                   bbox: [Double(b.xMin), Double(b.yMin), w, h], area: w * h, iscrowd: 0))
            }
            if let imagesFolder { try ImageCodec.writePNG(try r.image(at: screen.index), to: imagesFolder.appendingPathComponent(file)) }
        }
        try instances.write(to: json)
        return ExportSummary(images: instances.images.count, boxes: instances.annotations.count, classes: set.classNames.count)
    }
}

/// Ground truth of screen shards in the Ultralytics YOLO layout.
public enum YOLOExport {
    /// Writes `set` under `folder`: `images/[SPLIT/]NAME.png` (the stored pixels), `labels/[SPLIT/]NAME.txt`
    /// (`class cx cy w h` per box, normalised to the image, 6 decimals: within 2.6e-4 px of the box at
    /// 512 px) and `data.yaml` with `names` as a list. NAME is the image id made a file name.
    /// Without `split`, data.yaml's `train` and `val` both name `images`; with it, data.yaml (kept if
    /// present, its names must match) gains `SPLIT: images/SPLIT`. A split folder that already holds
    /// files is refused.
    public static func write(_ set: ShardSet, to folder: URL, split: String?, progress: (Int, Int) -> Void = { _, _ in }) throws -> ExportSummary {
        let plan = try ExportPlan(set)
        let fm = FileManager.default
        let sub = split.map { "/" + $0 } ?? ""
        let images = folder.appendingPathComponent("images" + sub), labels = folder.appendingPathComponent("labels" + sub)
        let yamlURL = folder.appendingPathComponent("data.yaml")
        var data = UltralyticsData(names: set.classNames)
        if let split {
            guard UltralyticsData.splitNames.contains(split) else {
                throw InterchangeError(path: folder.path, field: "", problem: "split '\(split)' is not one of \(UltralyticsData.splitNames.joined(separator: ", "))")
            }
            if fm.fileExists(atPath: yamlURL.path) {
                data = try UltralyticsData(contentsOf: yamlURL)
                guard data.names == set.classNames else {
                    throw InterchangeError(path: yamlURL.path, field: "names", problem: "\(data.names) differ from the shards' \(set.classNames)")
                }
            }
            data.setEntries(["images/\(split)"], of: split)
        } else {
            (data.train, data.val) = (["images"], ["images"])
        }
        for dir in [images, labels] {
            if let existing = try? fm.contentsOfDirectory(atPath: dir.path).filter({ !$0.hasPrefix(".") && !["train", "val", "test"].contains($0) }), !existing.isEmpty {
                throw InterchangeError(path: dir.path, field: "", problem: "already holds files (\(existing.sorted()[0]), ...); export into an empty folder")
            }
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        var summary = ExportSummary(images: plan.screens.count, boxes: 0, classes: set.classNames.count)
        for (k, screen) in plan.screens.enumerated() {
            progress(k, plan.screens.count)
            let r = screen.reader
            let w = Double(screen.size.width), h = Double(screen.size.height)
            var text = ""
            for row in r.boxRange(screen.index) {
                let b = r.boxes[row]
                let (x0, y0, x1, y1) = (Double(b.xMin), Double(b.yMin), Double(b.xMax), Double(b.yMax))
                text += "\(r.labels[row]) " + String(format: "%.6f %.6f %.6f %.6f\n", (x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h)
                summary.boxes += 1
            }
            try Data(text.utf8).write(to: labels.appendingPathComponent(screen.fileName + ".txt"), options: .atomic)
            try ImageCodec.writePNG(try r.image(at: screen.index), to: images.appendingPathComponent(screen.fileName + ".png"))
        }
        let comment = split == nil
            ? "Exported by uidetect export-data yolo: one split, so train and val name the same images;\nexport each split with --split to give them their own."
            : "Exported by uidetect export-data yolo --split: each split under images/SPLIT and labels/SPLIT."
        try data.write(to: yamlURL, comment: comment)
        return summary
    }
}
