import Boxes
import IconVocabulary
import Images

/// One annotated screen: its image, boxes and labels, as a shard stores them.
///
/// The seven optional arrays are the ground truth of screen descriptions
/// (screen-description.md, "Ground truth in shards") and of icon types
/// (icon-recognition.md): one value per box, nil when the screen does not have
/// that dataset. `-1` means none, not applicable
/// or unknown, as in the file.
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
    /// `group_index`: the group a box belongs to within its screen; boxes with the same index form one element.
    public var groupIndex: [Int32]?
    /// `nav_order`: the rank of the box's top-level element in the reference navigation order (members of a
    /// group share it); `-1` outside the order (behind a shown dialog).
    public var navOrder: [Int32]?
    /// `selected`: 1 selected, 0 not, -1 not applicable.
    public var selected: [Int8]?
    /// `interactive`: 1 can be activated, 0 cannot, -1 unknown.
    public var interactive: [Int8]?
    /// `texts`: the string a text box shows, lines joined by `\n`; empty for other classes.
    public var texts: [String]?
    /// `group_kinds`: `tab_button` or `group` for a grouped box, empty for none.
    public var groupKinds: [String]?
    /// `icon_types`: the vocabulary name of an icon box's meaning (`other` for none of ours), empty
    /// for boxes of other classes and icons of unknown type.
    public var iconTypes: [String]?

    public init(imageID: String, groupID: String, image: RGBImage?, boxes: [Box], labels: [Int32],
                scores: [Float]? = nil, originalSize: Size? = nil,
                groupIndex: [Int32]? = nil, navOrder: [Int32]? = nil, selected: [Int8]? = nil, interactive: [Int8]? = nil,
                texts: [String]? = nil, groupKinds: [String]? = nil, iconTypes: [String]? = nil) {
        precondition(boxes.count == labels.count, "\(boxes.count) boxes, \(labels.count) labels")
        self.imageID = imageID
        self.groupID = groupID
        self.image = image
        self.boxes = boxes
        self.labels = labels
        self.scores = scores
        self.originalSize = originalSize
        self.groupIndex = groupIndex
        self.navOrder = navOrder
        self.selected = selected
        self.interactive = interactive
        self.texts = texts
        self.groupKinds = groupKinds
        self.iconTypes = iconTypes
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
        let content = Letterbox(original: original, target: image.size).content
        return image.cropped(x0: 0, y0: 0, x1: content.width, y1: content.height).resized(to: original)
    }
}

/// The rules of the optional description datasets (screen-description.md, "Ground truth in shards"),
/// in one place for the writer and the reader.
enum DescriptionDatasets {
    /// The group kinds a shard may name; the empty string means no group.
    static let kindNames: Set<String> = ["", "tab_button", "group"]

    /// The first value that breaks the rules, as (dataset, row, reason), or nil. Rows count from 0 in the
    /// arrays given; every array given must have the same length (callers check lengths first).
    static func fault(groupIndex: [Int32]?, navOrder: [Int32]?, selected: [Int8]?, interactive: [Int8]?,
                      groupKinds: [String]?, iconTypes: [String]?) -> (dataset: String, row: Int, reason: String)? {
        if let types = iconTypes, let i = types.firstIndex(where: { !$0.isEmpty && IconVocabulary.type(named: $0) == nil }) {
            return ("icon_types", i, "\"\(types[i])\" is not a type of the icon vocabulary (version \(IconVocabulary.version)) or empty")
        }
        if let i = groupIndex?.firstIndex(where: { $0 < -1 }) { return ("group_index", i, "\(groupIndex![i]) is below -1 (-1 means no group)") }
        if let i = navOrder?.firstIndex(where: { $0 < -1 }) { return ("nav_order", i, "\(navOrder![i]) is below -1 (-1 means outside the order)") }
        if let i = selected?.firstIndex(where: { !(-1...1).contains($0) }) { return ("selected", i, "\(selected![i]) is not -1, 0 or 1") }
        if let i = interactive?.firstIndex(where: { !(-1...1).contains($0) }) { return ("interactive", i, "\(interactive![i]) is not -1, 0 or 1") }
        if let kinds = groupKinds {
            if let i = kinds.firstIndex(where: { !kindNames.contains($0) }) {
                return ("group_kinds", i, "\"\(kinds[i])\" is not tab_button, group or empty")
            }
            if let index = groupIndex, let i = kinds.indices.first(where: { kinds[$0].isEmpty != (index[$0] == -1) }) {
                return ("group_kinds", i, index[i] == -1 ? "\"\(kinds[i])\" names the group of a box without one (group_index -1)"
                                                       : "is empty for a box of group \(index[i]) (a grouped box names its group's kind)")
            }
        }
        return nil
    }
}
