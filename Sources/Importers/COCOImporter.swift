import Boxes
import Foundation

/// Reads a COCO instances file: `images` (id, file_name), `annotations`
/// (image_id, category_id, bbox = [x, y, width, height] in pixels) and
/// `categories` (id, name); images are looked up in `imagesFolder`.
/// Crowd annotations (`iscrowd: 1`) are not objects and are left out.
public struct COCOSource {
    public let classNames: [String]
    public let screens: [SourceScreen]

    public init(json url: URL, imagesFolder: URL) throws {
        guard let data = try? Data(contentsOf: url) else { throw ImportError(path: url.path, problem: "cannot read the file") }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ImportError(path: url.path, problem: "not a JSON object")
        }
        func list(_ key: String) throws -> [[String: Any]] {
            guard let v = root[key] as? [[String: Any]] else { throw ImportError(path: url.path, problem: "field '\(key)' must be a list of objects") }
            return v
        }
        var categoryNames: [Int: String] = [:]
        for (i, c) in try list("categories").enumerated() {
            guard let id = c["id"] as? Int, let name = c["name"] as? String else {
                throw ImportError(path: url.path, problem: "categories[\(i)] needs an integer 'id' and a string 'name'")
            }
            categoryNames[id] = name
        }
        classNames = categoryNames.keys.sorted().map { categoryNames[$0]! }
        var byImage: [Int: [SourceBox]] = [:]
        var problemsByImage: [Int: [ImportProblem]] = [:]
        for (i, a) in try list("annotations").enumerated() {
            guard let image = a["image_id"] as? Int, let category = a["category_id"] as? Int, let bbox = a["bbox"] as? [Any] else {
                throw ImportError(path: url.path, problem: "annotations[\(i)] needs 'image_id', 'category_id' and 'bbox'")
            }
            if (a["iscrowd"] as? Int) == 1 { continue }
            let v = bbox.compactMap { ($0 as? NSNumber)?.floatValue }
            guard v.count == 4 else {
                problemsByImage[image, default: []].append(ImportProblem(file: "\(url.lastPathComponent)", kind: .badLine, detail: "annotations[\(i)]: bbox \(bbox)"))
                continue
            }
            let name = categoryNames[category] ?? "category \(category)"
            byImage[image, default: []].append(SourceBox(box: Box(xMin: v[0], yMin: v[1], xMax: v[0] + v[2], yMax: v[1] + v[3]),
                                                         className: name, origin: "annotations[\(i)]"))
        }
        var screens: [SourceScreen] = []
        for (i, img) in try list("images").enumerated() {
            guard let id = img["id"] as? Int, let file = img["file_name"] as? String else {
                throw ImportError(path: url.path, problem: "images[\(i)] needs an integer 'id' and a 'file_name'")
            }
            let stem = (file as NSString).deletingPathExtension
            screens.append(SourceScreen(imageURL: imagesFolder.appendingPathComponent(file), imageID: stem, groupID: stem,
                                        boxes: byImage[id] ?? [], problems: problemsByImage[id] ?? []))
        }
        self.screens = screens
    }
}
