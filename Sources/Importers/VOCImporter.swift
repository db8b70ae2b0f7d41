import Boxes
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Pascal VOC annotations (the layout of UI data sets such as VINS):
/// one XML file per image with `filename` and `object`s of `name` and
/// `bndbox` (xmin, ymin, xmax, ymax). VOC pixel indices are 1-based and
/// inclusive, so a box becomes [xmin - 1, ymin - 1, xmax, ymax] in continuous
/// coordinates (as torchvision and detectron2 read it).
///
/// SOURCE is a folder holding `Annotations/` and `JPEGImages/` (the VOC
/// layout), or XML files beside their images.
public struct VOCSource {
    public let classNames: [String]
    public let screens: [SourceScreen]

    public init(folder: URL, classNames given: [String]? = nil) throws {
        let fm = FileManager.default
        let annotations = fm.fileExists(atPath: folder.appendingPathComponent("Annotations").path) ? folder.appendingPathComponent("Annotations") : folder
        let images = fm.fileExists(atPath: folder.appendingPathComponent("JPEGImages").path) ? folder.appendingPathComponent("JPEGImages") : folder
        guard let names = try? fm.contentsOfDirectory(atPath: annotations.path) else { throw ImportError(path: annotations.path, problem: "cannot list the folder") }
        let xmls = names.filter { $0.lowercased().hasSuffix(".xml") }.sorted()
        guard !xmls.isEmpty else { throw ImportError(path: annotations.path, problem: "no .xml annotation files") }
        var screens: [SourceScreen] = []
        var seen = Set<String>()
        for name in xmls {
            let url = annotations.appendingPathComponent(name)
            let parsed = try VOCFile(url: url)
            let file = parsed.filename ?? ((name as NSString).deletingPathExtension + ".jpg")
            let stem = (file as NSString).deletingPathExtension
            var screen = SourceScreen(imageURL: images.appendingPathComponent(file), imageID: stem, groupID: stem, boxes: [])
            for (k, object) in parsed.objects.enumerated() {
                let origin = "\(name) object \(k + 1)"
                guard let b = object.box else {
                    screen.problems.append(ImportProblem(file: file, kind: .badLine, detail: "\(origin): bndbox missing or not numeric"))
                    continue
                }
                screen.boxes.append(SourceBox(box: Box(xMin: b.0 - 1, yMin: b.1 - 1, xMax: b.2, yMax: b.3), className: object.name, origin: origin))
                seen.insert(object.name)
            }
            screens.append(screen)
        }
        classNames = given ?? seen.sorted()
        self.screens = screens
    }
}

/// One VOC XML file, parsed.
struct VOCFile {
    struct Object { var name = ""; var box: (Float, Float, Float, Float)? }
    var filename: String?
    var objects: [Object] = []

    init(url: URL) throws {
        guard let parser = XMLParser(contentsOf: url) else { throw ImportError(path: url.path, problem: "cannot read the file") }
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse() else {
            throw ImportError(path: url.path, problem: "not well-formed XML (line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "?"))")
        }
        filename = delegate.filename
        objects = delegate.objects
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var filename: String?
        var objects: [Object] = []
        private var path: [String] = []
        private var text = ""
        private var current: Object?
        private var coords: [String: Float] = [:]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            path.append(name)
            text = ""
            if name == "object" { current = Object(); coords = [:] }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = path.dropLast().last
            switch name {
            case "filename" where parent == "annotation": filename = value
            case "name" where parent == "object": current?.name = value
            case "xmin", "ymin", "xmax", "ymax": if parent == "bndbox", let v = Float(value) { coords[name] = v }
            case "object":
                if var o = current {
                    if let a = coords["xmin"], let b = coords["ymin"], let c = coords["xmax"], let d = coords["ymax"] { o.box = (a, b, c, d) }
                    objects.append(o)
                }
                current = nil
            default: break
            }
            path.removeLast()
            text = ""
        }
    }
}
