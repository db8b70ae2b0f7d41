import Foundation

/// A COCO instances file (object detection) as pycocotools, FiftyOne and detectron2 read it.
///
/// Fields other tools add are ignored on reading. `uidetect_image_id` and `uidetect_group_id` on an
/// image are ours (COCO tolerates extra fields): the screen's id and app when uidetect exported it,
/// since an id need not be a file name.
public struct COCOInstances: Codable, Equatable {
    /// One image: COCO's integer id, its file (relative to the images folder) and size.
    public struct Image: Codable, Equatable {
        public var id: Int
        public var fileName: String
        public var width: Int?
        public var height: Int?
        /// Our image id, written by `export-data coco`.
        public var uidetectImageID: String?
        /// Our group (app) id, written by `export-data coco`.
        public var uidetectGroupID: String?

        public init(id: Int, fileName: String, width: Int?, height: Int?, uidetectImageID: String? = nil, uidetectGroupID: String? = nil) {
            self.id = id
            self.fileName = fileName
            self.width = width
            self.height = height
            self.uidetectImageID = uidetectImageID
            self.uidetectGroupID = uidetectGroupID
        }

        enum CodingKeys: String, CodingKey {
            case id, width, height, fileName = "file_name", uidetectImageID = "uidetect_image_id", uidetectGroupID = "uidetect_group_id"
        }
    }

    /// One box: `bbox` is `[x, y, width, height]` in pixels, top-left origin; `iscrowd` 1 marks a crowd region.
    public struct Annotation: Codable, Equatable {
        public var id: Int?
        public var imageID: Int
        public var categoryID: Int
        public var bbox: [Double]
        public var area: Double?
        public var iscrowd: Int?

        public init(id: Int?, imageID: Int, categoryID: Int, bbox: [Double], area: Double?, iscrowd: Int?) {
            self.id = id
            self.imageID = imageID
            self.categoryID = categoryID
            self.bbox = bbox
            self.area = area
            self.iscrowd = iscrowd
        }

        enum CodingKeys: String, CodingKey { case id, bbox, area, iscrowd, imageID = "image_id", categoryID = "category_id" }
    }

    /// One class.
    public struct Category: Codable, Equatable {
        public var id: Int
        public var name: String
        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The file's `info` (only its description is kept).
    public struct Info: Codable, Equatable {
        public var description: String?
        public init(description: String?) { self.description = description }
    }

    public var info: Info?
    public var images: [Image]
    public var annotations: [Annotation]
    public var categories: [Category]

    public init(info: Info? = nil, images: [Image], annotations: [Annotation], categories: [Category]) {
        self.info = info
        self.images = images
        self.annotations = annotations
        self.categories = categories
    }

    /// Reads an instances file; a missing or mistyped field, or an id given twice (`checkIDs`), is an
    /// `InterchangeError` naming it.
    public init(contentsOf url: URL) throws {
        self = try InterchangeJSON.read(COCOInstances.self, from: url)
        try checkIDs(path: url.path)
    }

    /// Refuses ids a reader cannot tell apart: two images with one id (annotations name images by
    /// id, so each would get both's boxes), two categories with one id, or two with one name (one
    /// class to every reader of the shards).
    public func checkIDs(path: String) throws {
        var imageAt: [Int: Int] = [:]
        for (i, image) in images.enumerated() {
            if let j = imageAt.updateValue(i, forKey: image.id) {
                throw InterchangeError(path: path, field: "images[\(i)].id",
                                       problem: "\(image.id) is also the id of images[\(j)] ('\(images[j].fileName)' and '\(image.fileName)'): their annotations cannot be told apart")
            }
        }
        var categoryAt: [Int: Int] = [:], nameAt: [String: Int] = [:]
        for (k, c) in categories.enumerated() {
            if let j = categoryAt.updateValue(k, forKey: c.id) {
                throw InterchangeError(path: path, field: "categories[\(k)].id", problem: "\(c.id) is also the id of categories[\(j)] ('\(categories[j].name)' and '\(c.name)')")
            }
            if let j = nameAt.updateValue(k, forKey: c.name) {
                throw InterchangeError(path: path, field: "categories[\(k)].name",
                                       problem: "categories \(categories[j].id) and \(c.id) are both named '\(c.name)': one name must be one class")
            }
        }
    }

    /// Writes the file atomically (compact JSON, sorted keys).
    public func write(to url: URL) throws { try InterchangeJSON.write(self, to: url) }

    /// Our image id of each image, in order: its `uidetect_image_id`, else its file name without folder and
    /// extension (as `import coco` names screens); a name already taken gets `-2`, `-3`, ... (`UniqueNames`).
    public func ourImageIDs() -> [String] {
        let bases = images.map { $0.uidetectImageID ?? (($0.fileName as NSString).lastPathComponent as NSString).deletingPathExtension }
        var names = UniqueNames(reserving: bases)
        return bases.map { names.claim($0) }
    }
}

/// How our screens and classes meet COCO's integer ids, both ways.
public struct COCOIDMap: Equatable {
    /// Our image id -> COCO image id.
    public private(set) var cocoImageIDs: [String: Int] = [:]
    /// COCO image id -> our image id.
    public private(set) var imageIDs: [Int: String] = [:]
    /// Class name -> COCO category id.
    public private(set) var categoryIDs: [String: Int] = [:]
    /// COCO category id -> class name.
    public private(set) var classNames: [Int: String] = [:]

    /// The numbering `export-data coco` gives: screens 1, 2, ... in data-set order, classes 1, 2, ... in vocabulary order.
    public init(numbering imageIDs: [String], classNames: [String]) {
        for (k, id) in imageIDs.enumerated() where cocoImageIDs[id] == nil {
            cocoImageIDs[id] = k + 1
            self.imageIDs[k + 1] = id
        }
        for (k, name) in classNames.enumerated() where categoryIDs[name] == nil {
            categoryIDs[name] = k + 1
            self.classNames[k + 1] = name
        }
    }

    /// The ids of an instances file (our image ids as `COCOInstances.ourImageIDs` gives them); a repeated
    /// image or category id, or a repeated category name, is an error naming it.
    public init(_ instances: COCOInstances, path: String) throws {
        try instances.checkIDs(path: path)
        for (image, ours) in zip(instances.images, instances.ourImageIDs()) {
            imageIDs[image.id] = ours
            cocoImageIDs[ours] = image.id
        }
        for c in instances.categories {
            classNames[c.id] = c.name
            categoryIDs[c.name] = c.id
        }
    }

    /// The ids of the instances file at `url`.
    public init(contentsOf url: URL) throws { try self.init(COCOInstances(contentsOf: url), path: url.path) }
}

/// One record of COCO's detection results format: `{"image_id", "category_id", "bbox": [x, y, w, h], "score"}`.
public struct COCOResult: Codable, Equatable {
    public var imageID: Int
    public var categoryID: Int
    public var bbox: [Double]
    public var score: Double

    public init(imageID: Int, categoryID: Int, bbox: [Double], score: Double) {
        self.imageID = imageID
        self.categoryID = categoryID
        self.bbox = bbox
        self.score = score
    }

    enum CodingKeys: String, CodingKey { case bbox, score, imageID = "image_id", categoryID = "category_id" }
}
