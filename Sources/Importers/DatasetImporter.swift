import Boxes
import Foundation
import Images
import Shards
import VocabularyMaps

/// A box as a source data set states it, in the pixels of the original image.
public struct SourceBox: Equatable {
    public var box: Box
    public var className: String
    /// Where it came from, for reports (e.g. "line 3", "annotation 17").
    public var origin: String
    public init(box: Box, className: String, origin: String) {
        self.box = box
        self.className = className
        self.origin = origin
    }
}

/// One screenshot of a source data set and its boxes.
public struct SourceScreen {
    public var imageURL: URL
    public var imageID: String
    public var groupID: String
    public var boxes: [SourceBox]
    /// Problems found while parsing the annotation file (reported with the rest).
    public var problems: [ImportProblem]
    /// Boxes are fractions of the image's width and height (YOLO), not pixels.
    public var normalized: Bool
    public init(imageURL: URL, imageID: String, groupID: String, boxes: [SourceBox], problems: [ImportProblem] = [], normalized: Bool = false) {
        self.imageURL = imageURL
        self.imageID = imageID
        self.groupID = groupID
        self.boxes = boxes
        self.problems = problems
        self.normalized = normalized
    }
}

/// Something an import changed or left out, with the file it concerns.
public struct ImportProblem: Equatable, CustomStringConvertible {
    public enum Kind: String, CaseIterable {
        case degenerate = "degenerate box (no area or not finite), dropped"
        case outside = "box outside the image, dropped"
        case clipped = "box partly outside the image, clipped"
        case unknownClass = "unknown class, dropped"
        case unmapped = "class not in the class map, dropped"
        case polygon = "polygon converted to its bounding box"
        case badLine = "unparseable annotation, skipped"
        case unreadableImage = "image missing or unreadable, screen skipped"
        case unreadableLabels = "label file unreadable or not UTF-8 or UTF-16 text, screen skipped"
        case orphanAnnotation = "annotation of an image the file does not list, dropped"
        case renamed = "image id already taken by another file, given a distinct one"
    }
    public var file: String
    public var kind: Kind
    public var detail: String
    public init(file: String, kind: Kind, detail: String) {
        self.file = file
        self.kind = kind
        self.detail = detail
    }
    public var description: String { "\(file): \(kind.rawValue): \(detail)" }
}

/// What an import did: screens and boxes written, and every problem by file.
public struct ImportReport {
    public var screens = 0
    public var boxes = 0
    public var shards: [URL] = []
    public var problems: [ImportProblem] = []
    public var classNames: [String] = []
    public var boxesPerClass: [Int] = []

    public func count(_ kind: ImportProblem.Kind) -> Int { problems.filter { $0.kind == kind }.count }
}

/// Turns source screens into shards: letterboxes each image into the storage
/// size (aspect kept, padded right and bottom), maps boxes to match, renames
/// classes through an optional class map, and reports what it dropped or changed.
public struct DatasetImporter {
    public var sourceClasses: [String]
    public var classMap: ClassMap?
    public var size: Size
    public var shardSize: Int
    public var prefix: String
    /// When given, each screen's `interactive` truth is derived from its boxes' classes through this map (`InteractiveTruth`).
    public var interactiveTruth: VocabularyMap?

    public init(sourceClasses: [String], classMap: ClassMap?, size: Size, shardSize: Int = 1000, prefix: String, interactiveTruth: VocabularyMap? = nil) {
        self.sourceClasses = sourceClasses
        self.classMap = classMap
        self.size = size
        self.shardSize = shardSize
        self.prefix = prefix
        self.interactiveTruth = interactiveTruth
    }

    /// The vocabulary of the shards written: the class map's common classes, or the source's.
    public var vocabulary: [String] { classMap?.commonClasses ?? sourceClasses }

    /// Writes `screens` into shards in `folder`. `sourceProblems` are the source's own (screens it
    /// left out, annotations of no screen), reported first.
    public func run(_ screens: [SourceScreen], sourceProblems: [ImportProblem] = [], into folder: URL,
                    progress: (Int, Int) -> Void = { _, _ in }) throws -> ImportReport {
        var report = ImportReport()
        report.problems = sourceProblems
        report.classNames = vocabulary
        report.boxesPerClass = [Int](repeating: 0, count: vocabulary.count)
        // The sources refuse two classes of one name on reading; a caller's own list is checked here
        // (Dictionary(uniqueKeysWithValues:) would trap).
        var index: [String: Int] = [:]
        for (k, name) in vocabulary.enumerated() {
            if let first = index.updateValue(k, forKey: name) {
                throw ImportError(path: folder.path, problem: "classes \(first) and \(k) of the vocabulary are both named '\(name)'; nothing was written")
            }
        }
        // A shard's reader refuses repeated image ids: a source must have made them distinct (UniqueNames).
        var seen = Set<String>()
        for s in screens where !seen.insert(s.imageID).inserted {
            throw ImportError(path: s.imageURL.path, problem: "image id '\(s.imageID)' is also another screen's; nothing was written")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var writer: ShardWriter? = nil
        for (n, screen) in screens.enumerated() {
            progress(n, screens.count)
            let file = screen.imageURL.lastPathComponent
            report.problems += screen.problems
            let original: RGBImage
            do { original = try ImageCodec.read(screen.imageURL) } catch {
                report.problems.append(ImportProblem(file: file, kind: .unreadableImage, detail: "\(error)"))
                continue
            }
            let (image, letterbox) = original.letterboxed(into: size)
            var boxes: [Box] = [], labels: [Int32] = []
            for source in screen.boxes {
                var name = source.className
                guard sourceClasses.contains(name) else {
                    report.problems.append(ImportProblem(file: file, kind: .unknownClass, detail: "\(source.origin): '\(name)'"))
                    continue
                }
                if let map = classMap {
                    guard let mapped = map.map(name, from: .source) else {
                        report.problems.append(ImportProblem(file: file, kind: .unmapped, detail: "\(source.origin): '\(name)'"))
                        continue
                    }
                    name = mapped
                }
                let b = screen.normalized
                    ? source.box.transformed(scaleX: Float(original.width), scaleY: Float(original.height)) : source.box
                guard b.isValid else {
                    report.problems.append(ImportProblem(file: file, kind: .degenerate, detail: "\(source.origin): \(b)"))
                    continue
                }
                let clipped = b.clipped(to: original.size)
                guard clipped.width > 0, clipped.height > 0 else {
                    report.problems.append(ImportProblem(file: file, kind: .outside, detail: "\(source.origin): \(b) in a \(original.size) image"))
                    continue
                }
                // Normalised text (YOLO: 6 decimals) puts a box on the image's edge up to its rounding outside: clipped without a report.
                let w = Float(original.width), h = Float(original.height), slack: Float = screen.normalized ? 2e-6 : 0
                let withinRounding = b.xMin >= -slack * w && b.yMin >= -slack * h && b.xMax <= w * (1 + slack) && b.yMax <= h * (1 + slack)
                if clipped != b && !withinRounding {
                    report.problems.append(ImportProblem(file: file, kind: .clipped, detail: "\(source.origin): \(b) -> \(clipped)"))
                }
                let stored = letterbox.forward(clipped)
                guard stored.isValid else {
                    report.problems.append(ImportProblem(file: file, kind: .degenerate, detail: "\(source.origin): \(b) has no area once resized"))
                    continue
                }
                boxes.append(stored)
                labels.append(Int32(index[name]!))
                report.boxesPerClass[index[name]!] += 1
            }
            if writer == nil {
                let url = folder.appendingPathComponent(String(format: "%@-%05d.h5", prefix, report.shards.count))
                writer = try ShardWriter(url: url, classNames: vocabulary, imageSize: size)
                report.shards.append(url)
            }
            let interactive = interactiveTruth.map { InteractiveTruth.derive(boxes: boxes, classNames: labels.map { vocabulary[Int($0)] }, map: $0) }
            try writer!.append(ScreenRecord(imageID: screen.imageID, groupID: screen.groupID, image: image, boxes: boxes,
                                            labels: labels, originalSize: original.size, interactive: interactive))
            report.screens += 1
            report.boxes += boxes.count
            if writer!.count == shardSize { try writer!.finish(); writer = nil }
        }
        try writer?.finish()
        if report.screens == 0 { report.shards = [] }
        return report
    }
}

/// A fault in a source data set's own files (not a single box), naming the file.
public struct ImportError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(path): \(problem)" }
}

/// Image files (PNG and JPEG by extension) below a folder, subfolders included (as Ultralytics
/// lists a split), hidden files and folders left out, sorted by path.
func imageFiles(under folder: URL) throws -> [URL] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue,
          let walker = FileManager.default.enumerator(atPath: folder.path) else {
        throw ImportError(path: folder.path, problem: "cannot list the folder")
    }
    var out: [String] = []
    while let relative = walker.nextObject() as? String {
        guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
        if ["png", "jpg", "jpeg"].contains((relative as NSString).pathExtension.lowercased()) { out.append(relative) }
    }
    return out.sorted().map { folder.appendingPathComponent($0) }
}

/// The folder a data set's files must stay in: a path that leads out of it, lexically or through a
/// symbolic link, is refused.
struct DataSetRoot {
    let url: URL
    /// The folder with its symbolic links resolved.
    private let real: String

    init(_ url: URL) throws {
        self.url = URL(fileURLWithPath: Self.normalized(url.path))
        guard let real = Self.realPath(self.url.path) else { throw ImportError(path: url.path, problem: "no such folder") }
        self.real = real
    }

    /// Why `url` is not inside the data set, or nil when it is (a file that does not exist is judged by its path alone).
    func escape(_ url: URL) -> String? {
        let path = Self.normalized(url.path)
        guard Self.path(path, isInside: self.url.path) else { return "the path leads outside the data set (\(self.url.path))" }
        if let real = Self.realPath(path), !Self.path(real, isInside: self.real) {
            return "it is a symbolic link to \(real), outside the data set (\(self.url.path))"
        }
        return nil
    }

    /// `path` with `.` and `..` resolved lexically (symbolic links untouched).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    static func path(_ path: String, isInside folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
