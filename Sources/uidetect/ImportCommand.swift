import ArgumentParser
import Boxes
import Foundation
import Outputs
import Importers
import Shards
import VocabularyMaps

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import an annotated data set (COCO, Pascal VOC or YOLO) into shards.",
        discussion: """
        coco: SOURCE is the instances JSON; images are found in --images (default: the JSON's folder).
        voc:  SOURCE is a folder with Annotations/ and JPEGImages/, or XML files beside their images.
        yolo: SOURCE is an Ultralytics data.yaml: each split it names (train, val, test) goes into OUT/<split>/;
              or a folder with images/ and labels/, class names from data.yaml in it or its parent.
              A label file is the image's path with its last /images/ made /labels/ and the extension .txt;
              paths and symbolic links leading out of the data set are refused.
        Images are resized to --size keeping their aspect (padded right and bottom); original sizes are recorded.
        Every dropped or changed box is listed per file in OUT/import-report.txt, with counts at the end;
        so is every image given a distinct id because another file had its name (x.png and x.jpg: x and x-2).
        --interactive-truth derives each box's `interactive` truth from the classes (README, "Vocabulary maps"): 1 for a
        class the vocabulary map says can be activated (a button, a field, a switch, a checkbox) and for an icon inside a
        toolbar or tab bar; -1 (unknown) for every other box.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case coco, voc, yolo }

    @Argument(help: "coco, voc or yolo.") var format: Format
    @Argument(help: "The data set (see the discussion).") var source: String
    @Option(help: "Output folder for the shards.") var out: String
    @Option(help: "Storage size as WxH.") var size: Size = Size(width: 256, height: 512)
    @Option(help: "A class-map YAML: rename the source's classes onto its common_classes, dropping the rest.") var classMap: String?
    @Option(help: "COCO only: the folder holding the images.") var images: String?
    @Option(help: "Screens per shard file.") var shardSize: Int = 1000
    @Flag(help: "Derive the `interactive` truth from the classes through their vocabulary map.") var interactiveTruth = false
    @Option(help: "With --interactive-truth: the vocabulary map (YAML); default: the built-in map that names every imported class.")
    var vocabularyMap: String?

    func validate() throws {
        guard shardSize >= 1 else { throw ValidationError("--shard-size must be at least 1, got \(shardSize)") }
        if images != nil && format != .coco { throw ValidationError("--images applies to coco only") }
        if vocabularyMap != nil && !interactiveTruth { throw ValidationError("--vocabulary-map applies with --interactive-truth only") }
    }

    func run() throws {
        try reportingErrors {
            try OutputDestination.check(out, inputs: [source] + [images, classMap].compactMap { $0 })
            let outURL = URL(fileURLWithPath: out)
            let map = try classMap.map { try ClassMap(contentsOf: URL(fileURLWithPath: $0)) }
            let sourceURL = URL(fileURLWithPath: source)
            var isDirectory: ObjCBool = false
            switch format {
            case .yolo where FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) && !isDirectory.boolValue:
                let dataset = try UltralyticsDataset(yaml: sourceURL)
                print("\(source): splits \(dataset.splits.map(\.name).joined(separator: ", ")) of \(dataset.root.path)")
                for split in dataset.splits { try refuseShards(in: outURL.appendingPathComponent(split.name)) }
                for split in dataset.splits {
                    print("\(split.name):")
                    try importScreens(split.source.screens, sourceProblems: split.source.problems, classes: dataset.classNames, map: map,
                                      into: outURL.appendingPathComponent(split.name))
                }
            case .yolo:
                let s = try YOLOSource(folder: sourceURL)
                try importScreens(s.screens, sourceProblems: s.problems, classes: s.classNames, map: map, into: outURL)
            case .coco:
                let s = try COCOSource(json: sourceURL, imagesFolder: images.map { URL(fileURLWithPath: $0) } ?? sourceURL.deletingLastPathComponent())
                try importScreens(s.screens, sourceProblems: s.problems, classes: s.classNames, map: map, into: outURL)
            case .voc:
                let s = try VOCSource(folder: sourceURL)
                try importScreens(s.screens, classes: s.classNames, map: map, into: outURL)
            }
        }
    }

    private func refuseShards(in folder: URL) throws {
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".h5") }), !existing.isEmpty {
            throw ValidationError("\(folder.path) already holds shards (\(existing.sorted()[0]), ...); choose another --out or remove them")
        }
    }

    /// Imports `screens` into shards in `folder` and writes `folder/import-report.txt`.
    private func importScreens(_ screens: [SourceScreen], sourceProblems: [ImportProblem] = [], classes: [String], map: ClassMap?, into folder: URL) throws {
        try refuseShards(in: folder)
        var importer = DatasetImporter(sourceClasses: classes, classMap: map, size: size, shardSize: shardSize, prefix: format.rawValue)
        if interactiveTruth {
            // Before anything is written: every class the shards will hold needs a mapping.
            importer.interactiveTruth = try VocabularyMap.resolve(file: vocabularyMap, classNames: importer.vocabulary, of: "the imported data set (\(source))")
            print("interactive truth from the vocabulary map \(importer.interactiveTruth!.name)")
        }
        let progress = ProgressLine()
        let start = Date()
        let report = try importer.run(screens, sourceProblems: sourceProblems, into: folder) { done, total in
            if done % 20 == 0 {
                let rate = Double(done) / max(1e-9, Date().timeIntervalSince(start))
                progress.update(String(format: "%d/%d screens, %.0f screens/s", done, total, rate), fractionDone: Double(done) / Double(max(1, total)))
            }
        }
        progress.finish()

        var lines = report.problems.map(\.description)
        lines.append("")
        for kind in ImportProblem.Kind.allCases where report.count(kind) > 0 { lines.append("\(report.count(kind)) x \(kind.rawValue)") }
        let reportURL = folder.appendingPathComponent("import-report.txt")
        try (lines.joined(separator: "\n") + "\n").write(to: reportURL, atomically: true, encoding: .utf8)

        for p in report.problems.prefix(10) { print(p) }
        if report.problems.count > 10 { print("... \(report.problems.count - 10) more in \(reportURL.path)") }
        print("imported \(report.screens) screens with \(report.boxes) boxes into \(report.shards.count) shard(s) in \(folder.path)")
        print("vocabulary (\(report.classNames.count) classes): " + zip(report.classNames, report.boxesPerClass).map { "\($0) \($1)" }.joined(separator: ", "))
        for kind in ImportProblem.Kind.allCases where report.count(kind) > 0 { print("  \(report.count(kind)) x \(kind.rawValue)") }
        if report.screens == 0 { throw ValidationError("no screen could be imported from \(source)") }
    }
}
