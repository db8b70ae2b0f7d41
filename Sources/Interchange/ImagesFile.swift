import FileKeys
import Foundation

/// `images.json`, written by `predict` beside detections.json: for each image id, the screenshot's path
/// and size (detections.json's records are fixed by evaluation.md, so this is where they go) and the
/// COCO image id its detections.coco.json uses (null when the COCO ids of `--coco-ids` have none for it).
public struct ImagesFile: Codable, Equatable {
    /// One screenshot.
    public struct Entry: Codable, Equatable {
        public var imageID: String
        public var path: String
        public var width: Int
        public var height: Int
        @Nullable public var cocoID: Int?

        public init(imageID: String, path: String, width: Int, height: Int, cocoID: Int? = nil) {
            self.imageID = imageID
            self.path = path
            self.width = width
            self.height = height
            self.cocoID = cocoID
        }

        enum CodingKeys: String, CodingKey { case path, width, height, imageID = "image_id", cocoID = "coco_id" }
    }

    /// The file's name beside detections.json.
    public static let fileName = "images.json"

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Reads an images.json, naming the field at fault.
    public init(contentsOf url: URL) throws { entries = try InterchangeJSON.read([Entry].self, from: url) }

    /// Writes the file atomically: a JSON list, pretty-printed with sorted keys.
    public func write(to url: URL) throws { try InterchangeJSON.write(entries, to: url, pretty: true) }
}
