import Boxes
import IconVocabulary
import Images

/// One detection as the describer takes it: already through the deployment filter (step 1).
public struct ElementDetection: Equatable, Sendable {
    /// In the original screenshot's pixels.
    public var box: Box
    public var className: String
    public var score: Float
    /// An icon's type as the icon classifier names it (nil: below its threshold, `other`, or no classifier).
    public var iconType: IconType?
    /// The classifier's most probable type for an icon, named or not: the interactivity model's feature.
    public var iconGuess: IconType?

    /// A detection with every field given.
    public init(box: Box, className: String, score: Float, iconType: IconType? = nil, iconGuess: IconType? = nil) {
        self.box = box
        self.className = className
        self.score = score
        self.iconType = iconType
        self.iconGuess = iconGuess
    }
}

/// What the describer needs of one screen.
public struct ScreenInput: Sendable {
    public var imageID: String
    /// The original screenshot: selection state and page dots are read from its colours.
    public var image: RGBImage
    public var detections: [ElementDetection]
    /// nil when no OCR ran (texts keep empty labels and no text is added).
    public var textLines: [TextLine]?
    /// Whether the icon classifier ran (an icon without `iconType` then has no name, rather than an unknown one).
    public var iconsNamed: Bool

    /// A screen with every field given.
    public init(imageID: String, image: RGBImage, detections: [ElementDetection], textLines: [TextLine]?, iconsNamed: Bool = false) {
        self.imageID = imageID
        self.image = image
        self.detections = detections
        self.textLines = textLines
        self.iconsNamed = iconsNamed
    }
}

/// Describes the picture in a box of a screenshot (a caption model; none ships yet).
public protocol PictureDescriber: Sendable {
    /// A short description, or nil when there is none.
    func describePicture(in image: RGBImage, frame: Box) -> String?
}
