import Boxes
import Foundation
import Interchange

/// Reads YOLO / Ultralytics labels: one `class cx cy w h` line per box, normalised to the image; a line of
/// more coordinates is a polygon `class x1 y1 x2 y2 ...`, which becomes its bounding box. An image's label
/// file is found the Ultralytics way (`labelURL(forImage:)`); an image without one has no boxes.
///
/// `init(folder:)` reads the folder layout: SOURCE holds `images/` and `labels/`, and class names come
/// from `data.yaml` in SOURCE or its parent. `UltralyticsDataset` reads the splits a data.yaml names.
public struct YOLOSource {
    public let classNames: [String]
    public let screens: [SourceScreen]
    /// Screens left out, each with why: a label file that cannot be read or is not UTF-8 or UTF-16
    /// text. Imported without its boxes, the screen would teach that its elements are background.
    public let problems: [ImportProblem]

    /// SOURCE with `images/` (subfolders included) and `labels/`; the data set is data.yaml's folder.
    public init(folder: URL) throws {
        let yaml = [folder.appendingPathComponent("data.yaml"), folder.deletingLastPathComponent().appendingPathComponent("data.yaml")]
            .first { FileManager.default.fileExists(atPath: $0.path) }
        guard let yaml else { throw ImportError(path: folder.path, problem: "no data.yaml in the folder or its parent (it names the classes)") }
        let images = try imageFiles(under: folder.appendingPathComponent("images"))
        guard !images.isEmpty else { throw ImportError(path: folder.appendingPathComponent("images").path, problem: "no PNG or JPEG images") }
        try self.init(images: images, root: DataSetRoot(yaml.deletingLastPathComponent()), classNames: UltralyticsData(contentsOf: yaml).names)
    }

    /// The screens of `images`, which (with their label files) must lie inside `root`. Images with the same
    /// name without extension (`x.png`, `x.jpg`, or one name in two subfolders) get distinct ids: the first
    /// in path order keeps `x`, the next is `x-2` (reported as renamed).
    init(images: [URL], root: DataSetRoot, classNames names: [String]) throws {
        classNames = names
        let stems = images.map { $0.deletingPathExtension().lastPathComponent }
        var ids = UniqueNames(reserving: stems)
        var firstWithID: [String: String] = [:]
        var screens: [SourceScreen] = [], skipped: [ImportProblem] = []
        for (url, stem) in zip(images, stems) {
            if let why = root.escape(url) { throw ImportError(path: url.path, problem: "image refused: \(why)") }
            let labelURL = Self.labelURL(forImage: url)
            if let why = root.escape(labelURL) { throw ImportError(path: labelURL.path, problem: "label file refused: \(why)") }
            let id = ids.claim(stem)
            firstWithID[id] = firstWithID[id] ?? url.path
            var screen = SourceScreen(imageURL: url, imageID: id, groupID: id, boxes: [], normalized: true)
            if id != stem {
                screen.problems.append(ImportProblem(file: url.lastPathComponent, kind: .renamed, detail: "\(url.path) is '\(id)' (\(firstWithID[stem] ?? stem) is '\(stem)')"))
            }
            // No label file: a screen without boxes (Ultralytics' background image).
            guard FileManager.default.fileExists(atPath: labelURL.path) else { screens.append(screen); continue }
            let text: String
            do {
                text = try TextFile.decode([UInt8](try Data(contentsOf: labelURL)))
            } catch let problem as TextFile.Problem {
                skipped.append(ImportProblem(file: url.lastPathComponent, kind: .unreadableLabels, detail: "\(labelURL.path): \(problem)"))
                continue
            } catch {
                skipped.append(ImportProblem(file: url.lastPathComponent, kind: .unreadableLabels, detail: "\(labelURL.path): \((error as NSError).localizedDescription)"))
                continue
            }
            Self.parse(text, labelURL: labelURL, names: names, into: &screen)
            screens.append(screen)
        }
        self.screens = screens
        problems = skipped
    }

    /// The label file of an image, as Ultralytics finds it: the last `/images/` of the path becomes
    /// `/labels/` and the extension `.txt` (`data/images/train/x.png` -> `data/labels/train/x.txt`).
    public static func labelURL(forImage url: URL) -> URL {
        var path = url.path
        if let r = path.range(of: "/images/", options: .backwards) { path.replaceSubrange(r, with: "/labels/") }
        return URL(fileURLWithPath: (path as NSString).deletingPathExtension + ".txt")
    }

    /// Adds the boxes of a label file's text to `screen`; coordinates stay fractions of the image,
    /// which the importer scales once it has read the image.
    static func parse(_ text: String, labelURL: URL, names: [String], into screen: inout SourceScreen) {
        let file = screen.imageURL.lastPathComponent
        // Lines end in \n, \r\n (Windows; one Character in Swift, so splitting on "\n" alone would
        // leave the whole file one line) or \r.
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            let origin = "\(labelURL.lastPathComponent) line \(n + 1)"
            let values = fields.dropFirst().map { Float($0) }
            guard let cls = Int(fields[0]), values.allSatisfy({ $0 != nil }), values.count >= 4, values.count % 2 == 0 else {
                screen.problems.append(ImportProblem(file: file, kind: .badLine, detail: "\(origin): '\(line)'"))
                continue
            }
            let v = values.map { $0! }
            var box: Box
            if v.count == 4 {
                box = Box(centerX: v[0], centerY: v[1], width: v[2], height: v[3])
            } else {
                let xs = stride(from: 0, to: v.count, by: 2).map { v[$0] }, ys = stride(from: 1, to: v.count, by: 2).map { v[$0] }
                box = Box(xMin: xs.min()!, yMin: ys.min()!, xMax: xs.max()!, yMax: ys.max()!)
                screen.problems.append(ImportProblem(file: file, kind: .polygon, detail: "\(origin): \(v.count / 2) points"))
            }
            let name = cls >= 0 && cls < names.count ? names[cls] : "class \(cls)"
            screen.boxes.append(SourceBox(box: box, className: name, origin: origin))
        }
    }
}

/// An Ultralytics data set as its data.yaml describes it: the class names and each split it names
/// (`train`, `val`, `test`, in that order).
///
/// The data set's folder is `path` (relative to the YAML's folder; absent, the YAML's folder). Each
/// split entry is a folder of images (subfolders included), a `.txt` file listing images (one path a
/// line, relative to the list's folder), or a list of either, relative to `path`. Every entry, image
/// and label file must stay inside the data set's folder: a path or symbolic link leading out is refused.
public struct UltralyticsDataset {
    /// One split and its screens.
    public struct Split {
        public let name: String
        public let source: YOLOSource
    }

    public let yaml: URL
    /// The data set's folder.
    public let root: URL
    public let classNames: [String]
    public let splits: [Split]

    public init(yaml: URL) throws {
        self.yaml = yaml
        let data = try UltralyticsData(contentsOf: yaml)
        classNames = data.names
        let base = yaml.deletingLastPathComponent()
        let rootURL = data.path.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : base.appendingPathComponent($0) } ?? base
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: rootURL.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(path: yaml.path, problem: "field 'path': no such folder \(rootURL.path)")
        }
        let root = try DataSetRoot(rootURL)
        self.root = root.url
        var splits: [Split] = []
        for name in UltralyticsData.splitNames {
            guard let entries = data.entries(of: name) else { continue }
            var images: [URL] = []
            for entry in entries { images += try Self.images(of: entry, field: name, root: root, yaml: yaml) }
            splits.append(Split(name: name, source: try YOLOSource(images: images, root: root, classNames: data.names)))
        }
        guard !splits.isEmpty else { throw ImportError(path: yaml.path, problem: "names no split: give train, val or test") }
        self.splits = splits
    }

    /// The images one split entry names: a folder's, or a `.txt` list's.
    static func images(of entry: String, field: String, root: DataSetRoot, yaml: URL) throws -> [URL] {
        let url = entry.hasPrefix("/") ? URL(fileURLWithPath: entry) : root.url.appendingPathComponent(entry)
        if let why = root.escape(url) { throw ImportError(path: yaml.path, problem: "field '\(field)': '\(entry)' refused: \(why)") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError(path: yaml.path, problem: "field '\(field)': no such folder or file \(url.path)")
        }
        if isDirectory.boolValue {
            let found = try imageFiles(under: url)
            guard !found.isEmpty else { throw ImportError(path: url.path, problem: "no PNG or JPEG images (field '\(field)' of \(yaml.path))") }
            return found
        }
        guard url.pathExtension.lowercased() == "txt", let bytes = try? Data(contentsOf: url) else {
            throw ImportError(path: yaml.path, problem: "field '\(field)': \(url.path) is neither a folder nor a readable .txt list of images")
        }
        let text: String
        do { text = try TextFile.decode([UInt8](bytes)) } catch { throw ImportError(path: url.path, problem: "\(error) (field '\(field)' of \(yaml.path))") }
        let folder = url.deletingLastPathComponent()
        var out: [URL] = []
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let path = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if path.isEmpty { continue }
            let image = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            if let why = root.escape(image) { throw ImportError(path: url.path, problem: "line \(n + 1): '\(path)' refused: \(why)") }
            out.append(image)
        }
        return out
    }
}
