import Boxes
import Images

/// One annotated screen: its image, boxes and labels, as a shard stores them.
public struct ScreenRecord: Equatable, Sendable {
    public var imageID: String
    /// The app the screen comes from; splits keep each group on one side.
    public var groupID: String
    /// The pixels; nil in a detection shard written without images.
    public var image: RGBImage?
    public var boxes: [Box]
    /// Index into the shard's `class_names`, one per box.
    public var labels: [Int32]
    /// Confidence per box, in detection shards only.
    public var scores: [Float]?
    /// Width and height before the screenshot was resized for storage.
    public var originalSize: Size?

    public init(imageID: String, groupID: String, image: RGBImage?, boxes: [Box], labels: [Int32],
                scores: [Float]? = nil, originalSize: Size? = nil) {
        precondition(boxes.count == labels.count, "\(boxes.count) boxes, \(labels.count) labels")
        self.imageID = imageID
        self.groupID = groupID
        self.image = image
        self.boxes = boxes
        self.labels = labels
        self.scores = scores
        self.originalSize = originalSize
    }
}

/// The default vocabulary: the 13 classes of the Screen Recognition paper, in order.
public let defaultClassNames = [
    "checkbox_unselected", "checkbox_selected", "container", "dialog", "icon",
    "page_control", "picture", "segmented_control", "slider", "text", "text_field",
    "toggle_unselected", "toggle_selected",
]

extension ScreenRecord {
    /// The screenshot as it was before storage: the stored image is letterboxed (top-left,
    /// padded right and bottom), so its scaled region is cropped and resized back to
    /// `originalSize`. Without an original size (or an image) the stored image is returned.
    public func originalImage() -> RGBImage? {
        guard let image else { return nil }
        guard let original = originalSize, original != image.size, original.width > 0, original.height > 0 else { return image }
        let scale = Letterbox(original: original, target: image.size).scale
        let width = max(1, min(image.width, Int((Float(original.width) * scale).rounded())))
        let height = max(1, min(image.height, Int((Float(original.height) * scale).rounded())))
        return image.cropped(x0: 0, y0: 0, x1: width, y1: height).resized(to: original)
    }
}
