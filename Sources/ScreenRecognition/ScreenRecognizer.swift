import Boxes
import ConfigFiles
import Detection
import Engine
import Foundation
import IconRecognition
import Images
import OCR
import ScreenDescription
import VocabularyMaps

/// From a screenshot to what a screen reader needs (the Screen Recognition paper end to end):
/// the detector with the deployment filter (step 1), OCR, and the description heuristics
/// (steps 2-8). The one path `uidetect describe` and the description benchmarks use.
public struct ScreenRecognizer {
    /// Finds the elements; nil when they are given (true boxes standing in for detections).
    public let detector: SSDDetector?
    public let classNames: [String]
    public let filter: DeploymentFilter
    /// Nil when OCR is off or Tesseract could not start: labels stay empty.
    public let textRecognizer: (any TextRecognizer)?
    /// Names the icons (icon-recognition.md); nil leaves their type unknown.
    public let iconClassifier: IconClassifier?
    public let describer: ScreenDescriber

    public init(detector: SSDDetector?, classNames: [String], filter: DeploymentFilter, textRecognizer: (any TextRecognizer)?,
                iconClassifier: IconClassifier? = nil, describer: ScreenDescriber) {
        self.detector = detector
        self.classNames = classNames
        self.filter = filter
        self.textRecognizer = textRecognizer
        self.iconClassifier = iconClassifier
        self.describer = describer
    }

    /// Where each stage's time went for one screen.
    public struct Timing: Sendable {
        public var detector = 0.0, icons = 0.0, ocr = 0.0, heuristics = 0.0
        public var total: Double { detector + icons + ocr + heuristics }
        public init(detector: Double = 0, icons: Double = 0, ocr: Double = 0, heuristics: Double = 0) {
            (self.detector, self.icons, self.ocr, self.heuristics) = (detector, icons, ocr, heuristics)
        }
    }

    /// `image`'s description, the elements it started from, and the time each stage took. The
    /// elements are `given` (in `image`'s pixels) or, without them, the detector's after the deployment filter.
    public func describe(imageID: String, image: RGBImage, given: [ElementDetection]? = nil) throws -> (screen: DescribedScreen, elements: [ElementDetection], timing: Timing) {
        var timing = Timing()
        var start = monotonicSeconds()
        var elements: [ElementDetection]
        if let given {
            elements = given
        } else {
            guard let detector else { preconditionFailure("ScreenRecognizer without a detector needs the elements given") }
            let found = detector.detect(screens: [image]) { filter.apply($0, classNames: classNames) }[0]
            elements = found.map { ElementDetection(box: $0.box, className: classNames[$0.label], score: $0.score) }
        }
        timing.detector = monotonicSeconds() - start
        start = monotonicSeconds()
        if let iconClassifier { name(&elements, in: image, with: iconClassifier) }
        timing.icons = monotonicSeconds() - start
        start = monotonicSeconds()
        let lines = try textRecognizer?.recognise(image)
        timing.ocr = monotonicSeconds() - start
        start = monotonicSeconds()
        let screen = describer.describe(ScreenInput(imageID: imageID, image: image, detections: elements, textLines: lines, iconsNamed: iconClassifier != nil))
        timing.heuristics = monotonicSeconds() - start
        return (screen, elements, timing)
    }

    /// The icons' types (every class the vocabulary map makes `icon`: an `ImageButton` too), from
    /// crops of the screenshot's own pixels (not the detector's letterboxed input), classified in one batch.
    func name(_ elements: inout [ElementDetection], in image: RGBImage, with classifier: IconClassifier) {
        let icons = elements.indices.filter { describer.vocabulary.entry(elements[$0].className)?.kind == .icon }
        let crops = icons.map { IconInput.crop(image, box: elements[$0].box) }
        for (k, p) in zip(icons, classifier.classify(crops.map { $0.width >= IconCrops.minimumSide && $0.height >= IconCrops.minimumSide ? $0 : RGBImage(size: Size(width: 4, height: 4)) })) {
            elements[k].iconType = p.type
            elements[k].iconGuess = p.top[0].type
        }
    }
}

/// Description configs (YAML, the run configs' conventions): laid over the paper's defaults,
/// unknown keys and impossible values refused naming the key.
public enum DescriptionConfigLoader {
    static let strict = StrictConfig(defaults: DescriptionConfig()) { $0.problems() }
    static let paperOnly = StrictConfig(defaults: DescriptionConfig.paper) { $0.problems() }

    /// The config of `url` with `overrides` ("dotted.key=value") applied after it, both laid over the
    /// defaults, or over the paper's steps alone (`DescriptionConfig.paper`) when `paper` is true.
    public static func load(_ url: URL?, overrides: [String] = [], paper: Bool = false) throws -> DescriptionConfig {
        try (paper ? paperOnly : strict).load(url, overrides: overrides)
    }

    /// The config as YAML, every key written out.
    public static func yaml(_ config: DescriptionConfig) throws -> String { try StrictConfig<DescriptionConfig>.yaml(config) }
}
