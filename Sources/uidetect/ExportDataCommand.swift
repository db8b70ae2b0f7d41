import ArgumentParser
import Foundation
import Outputs
import Interchange
import Shards

struct ExportData: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-data",
        abstract: "Export ground-truth shards as a COCO instances file or an Ultralytics YOLO folder.",
        discussion: """
        coco: --out is the instances JSON: images with ids 1, 2, ... in data-set order (file_name, width, height, and our
              uidetect_image_id and uidetect_group_id: the id mapping), annotations (bbox [x, y, w, h], area, iscrowd 0),
              categories 1, 2, ... in vocabulary order. --images DIR also writes each screen there as a PNG file.
        yolo: --out is a folder: images/NAME.png, labels/NAME.txt (class cx cy w h, normalised) and data.yaml (names as a
              list); with --split train|val|test they go to images/SPLIT and labels/SPLIT, and data.yaml gains the split.
        Boxes and pixels are the stored ones (the shard's image size). NAME is the image id made a file name.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case coco, yolo }

    @Argument(help: "coco or yolo.") var format: Format
    @Argument(help: "Ground-truth shards, folders or globs.") var shards: [String]
    @Option(help: "coco: the instances JSON to write; yolo: the folder.") var out: String
    @Option(help: "coco only: a folder to write the screens into as PNG files.") var images: String?
    @Option(help: "yolo only: train, val or test.") var split: String?

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("give at least one shard, folder or glob") }
        if images != nil && format != .coco { throw ValidationError("--images applies to coco only") }
        if let split {
            guard format == .yolo else { throw ValidationError("--split applies to yolo only") }
            guard UltralyticsData.splitNames.contains(split) else { throw ValidationError("--split must be train, val or test, got \(split)") }
        }
    }

    func run() throws {
        try reportingErrors {
            let set = try ShardSet(shards)
            let inputs = set.readers.map(\.url.path)
            switch format {
            case .coco: try OutputFile.check(out, writes: .json, inputs: inputs)
            case .yolo: try OutputDestination.check(out, inputs: inputs)
            }
            if let images { try OutputDestination.check(images, inputs: inputs) }
            let progress = ProgressLine()
            let report: (Int, Int) -> Void = { done, total in
                if done % 20 == 0 { progress.update("\(done)/\(total) screens", fractionDone: Double(done) / Double(max(1, total))) }
            }
            let outURL = URL(fileURLWithPath: out)
            let summary: ExportSummary
            switch format {
            case .coco:
                summary = try COCOExport.write(set, to: outURL, imagesFolder: images.map { URL(fileURLWithPath: $0) }, progress: report)
            case .yolo:
                summary = try YOLOExport.write(set, to: outURL, split: split, progress: report)
            }
            progress.finish()
            print("exported \(summary.images) screens with \(summary.boxes) boxes of \(summary.classes) classes to \(out)"
                  + (images.map { " (images in \($0))" } ?? ""))
        }
    }
}
