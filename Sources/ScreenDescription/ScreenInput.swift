import Boxes
import Images

/// One detection as the describer takes it: already through the deployment filter (step 1).
public struct ElementDetection: Equatable, Sendable {
    /// In the original screenshot's pixels.
    public var box: Box
    public var className: String
    public var score: Float

    /// A detection with every field given.
    public init(box: Box, className: String, score: Float) {
        self.box = box
        self.className = className
        self.score = score
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

    /// A screen with every field given.
    public init(imageID: String, image: RGBImage, detections: [ElementDetection], textLines: [TextLine]?) {
        self.imageID = imageID
        self.image = image
        self.detections = detections
        self.textLines = textLines
    }
}

/// An icon's meaning as a recogniser names it, e.g. "Back" with its index in the recogniser's list.
public struct IconType: Equatable, Sendable {
    /// What a screen reader speaks for the icon.
    public var name: String
    /// A stable index, fed to the interactivity model as a feature.
    public var index: Int

    /// A type with every field given.
    public init(name: String, index: Int) {
        self.name = name
        self.index = index
    }
}

/// Names the icon in a box of a screenshot (the paper's icon recogniser; none ships yet).
public protocol IconRecognizer: Sendable {
    /// The icon's type, or nil when the recogniser does not know it.
    func iconType(in image: RGBImage, frame: Box) -> IconType?
}

/// Describes the picture in a box of a screenshot (a caption model; none ships yet).
public protocol PictureDescriber: Sendable {
    /// A short description, or nil when there is none.
    func describePicture(in image: RGBImage, frame: Box) -> String?
}
