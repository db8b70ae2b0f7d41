import Boxes
import Foundation
import Interchange

/// Reads a COCO instances file: `images` (id, file_name), `annotations` (image_id, category_id,
/// bbox = [x, y, width, height] in pixels) and `categories` (id, name); images are looked up in
/// `imagesFolder`, which their `file_name`s must not lead out of. Crowd annotations (`iscrowd: 1`)
/// are not objects and are left out. A screen's id is the image's `uidetect_image_id` when it has one
/// (files `export-data coco` wrote), else its file name without extension, made distinct
/// (`COCOInstances.ourImageIDs`); `x_max = x + width` is computed in double precision, so boxes that
/// were float32 when exported come back bit for bit.
public struct COCOSource {
    public let classNames: [String]
    public let screens: [SourceScreen]
    /// Annotations of an image the file does not list, dropped: reported, not lost in silence.
    public let problems: [ImportProblem]

    /// Reads `json`; images with one id, or categories with one id or name, are refused (`COCOInstances.checkIDs`).
    public init(json url: URL, imagesFolder: URL) throws {
        let instances = try COCOInstances(contentsOf: url)
        let root = try DataSetRoot(imagesFolder)
        var categoryNames: [Int: String] = [:]
        for c in instances.categories { categoryNames[c.id] = c.name }
        classNames = categoryNames.keys.sorted().map { categoryNames[$0]! }
        let listed = Set(instances.images.map(\.id))
        var byImage: [Int: [SourceBox]] = [:]
        var problemsByImage: [Int: [ImportProblem]] = [:]
        var orphans: [ImportProblem] = []
        for (i, a) in instances.annotations.enumerated() where a.iscrowd != 1 {
            guard listed.contains(a.imageID) else {
                orphans.append(ImportProblem(file: url.lastPathComponent, kind: .orphanAnnotation,
                                             detail: "annotations[\(i)] (id \(a.id.map(String.init) ?? "none")): image_id \(a.imageID) is not in images"))
                continue
            }
            let v = a.bbox
            guard v.count == 4 else {
                problemsByImage[a.imageID, default: []].append(ImportProblem(file: url.lastPathComponent, kind: .badLine, detail: "annotations[\(i)]: bbox \(v)"))
                continue
            }
            let name = categoryNames[a.categoryID] ?? "category \(a.categoryID)"
            let box = Box(xMin: Float(v[0]), yMin: Float(v[1]), xMax: Float(v[0] + v[2]), yMax: Float(v[1] + v[3]))
            byImage[a.imageID, default: []].append(SourceBox(box: box, className: name, origin: "annotations[\(i)]"))
        }
        problems = orphans
        var screens: [SourceScreen] = []
        for (i, (image, id)) in zip(instances.images, instances.ourImageIDs()).enumerated() {
            let imageURL = imagesFolder.appendingPathComponent(image.fileName)
            if let why = root.escape(imageURL) { throw ImportError(path: url.path, problem: "images[\(i)].file_name '\(image.fileName)' refused: \(why)") }
            var problems = problemsByImage[image.id] ?? []
            let base = image.uidetectImageID ?? imageURL.deletingPathExtension().lastPathComponent
            if id != base {
                problems.append(ImportProblem(file: image.fileName, kind: .renamed, detail: "images[\(i)] is '\(id)' ('\(base)' is another image's)"))
            }
            screens.append(SourceScreen(imageURL: imageURL, imageID: id, groupID: image.uidetectGroupID ?? id,
                                        boxes: byImage[image.id] ?? [], problems: problems))
        }
        self.screens = screens
    }
}
