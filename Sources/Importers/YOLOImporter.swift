import Boxes
import Foundation
import Images
import Yams

/// Reads the YOLO / Ultralytics layout: SOURCE holds `images/` and `labels/`
/// (`labels/<stem>.txt`, one `class cx cy w h` line per box, normalised to the
/// image; a line of more coordinates is a polygon `class x1 y1 x2 y2 ...`,
/// which becomes its bounding box), and class names come from `data.yaml` in
/// SOURCE or its parent (`names` as a list or as an index -> name mapping).
public struct YOLOSource {
    public let classNames: [String]
    public let screens: [SourceScreen]

    public init(folder: URL) throws {
        let yaml = [folder.appendingPathComponent("data.yaml"), folder.deletingLastPathComponent().appendingPathComponent("data.yaml")]
            .first { FileManager.default.fileExists(atPath: $0.path) }
        guard let yaml else { throw ImportError(path: folder.path, problem: "no data.yaml in the folder or its parent (it names the classes)") }
        classNames = try Self.names(yaml)
        let images = try imageFiles(in: folder.appendingPathComponent("images"))
        guard !images.isEmpty else { throw ImportError(path: folder.appendingPathComponent("images").path, problem: "no PNG or JPEG images") }
        let labels = folder.appendingPathComponent("labels")
        let names = classNames
        screens = images.map { url in
            let stem = url.deletingPathExtension().lastPathComponent
            let labelURL = labels.appendingPathComponent(stem + ".txt")
            var screen = SourceScreen(imageURL: url, imageID: stem, groupID: stem, boxes: [], normalized: true)
            guard let text = try? String(contentsOf: labelURL, encoding: .utf8) else { return screen }  // no file: no boxes
            // Coordinates stay fractions of the image; the importer scales them once it has read the image.
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                if fields.isEmpty { continue }
                let origin = "\(labelURL.lastPathComponent) line \(n + 1)"
                let values = fields.dropFirst().map { Float($0) }
                guard let cls = Int(fields[0]), values.allSatisfy({ $0 != nil }), values.count >= 4, values.count % 2 == 0 else {
                    screen.problems.append(ImportProblem(file: url.lastPathComponent, kind: .badLine, detail: "\(origin): '\(line)'"))
                    continue
                }
                let v = values.map { $0! }
                var box: Box
                if v.count == 4 {
                    box = Box(centerX: v[0], centerY: v[1], width: v[2], height: v[3])
                } else {
                    let xs = stride(from: 0, to: v.count, by: 2).map { v[$0] }, ys = stride(from: 1, to: v.count, by: 2).map { v[$0] }
                    box = Box(xMin: xs.min()!, yMin: ys.min()!, xMax: xs.max()!, yMax: ys.max()!)
                    screen.problems.append(ImportProblem(file: url.lastPathComponent, kind: .polygon, detail: "\(origin): \(v.count / 2) points"))
                }
                let name = cls >= 0 && cls < names.count ? names[cls] : "class \(cls)"
                screen.boxes.append(SourceBox(box: box, className: name, origin: origin))
            }
            return screen
        }
    }

    /// Class names from `names:` as a list or a mapping of indices.
    static func names(_ url: URL) throws -> [String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8), let root = try? Yams.load(yaml: text) as? [String: Any] else {
            throw ImportError(path: url.path, problem: "not a readable YAML mapping")
        }
        if let list = root["names"] as? [Any], list.allSatisfy({ $0 is String }) { return list.map { $0 as! String } }
        if let dict = root["names"] as? [Int: Any] {
            let n = (dict.keys.max() ?? -1) + 1
            return try (0..<n).map { i in
                guard let name = dict[i] as? String else { throw ImportError(path: url.path, problem: "field 'names' has no name for class \(i)") }
                return name
            }
        }
        throw ImportError(path: url.path, problem: "field 'names' must be a list of class names or a mapping index -> name")
    }
}

