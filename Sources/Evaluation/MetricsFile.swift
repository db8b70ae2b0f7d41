import FileKeys
import Foundation

/// metrics.json (evaluation.md, "Files an evaluation writes"): per-class AP50 and AP-center and their
/// means, and beside them (keys added, never renamed) AP50-95, AP50 by size, and the error kinds at the
/// picked thresholds with the AP50 each costs.
public struct MetricsFile: Codable, Equatable, Sendable {
    /// One class's figures; every class of the vocabulary has one, in vocabulary order.
    public struct ClassEntry: Codable, Equatable, Sendable {
        public var name: String
        public var gtCount: Int
        public var detections: Int
        /// nil (JSON null) for a class without ground truth.
        @Nullable public var ap50: Double?
        @Nullable public var apCenter: Double?
        /// The mean AP over IoU 0.50, 0.55, ..., 0.95.
        @Nullable public var ap50to95: Double?
        /// Ground-truth boxes per size bucket; null where screen sizes are unknown.
        @Nullable public var gtCountSmall: Int?
        @Nullable public var gtCountMedium: Int?
        @Nullable public var gtCountLarge: Int?
        /// AP at `iou_threshold` over each size bucket; null for a bucket without ground truth.
        @Nullable public var ap50Small: Double?
        @Nullable public var ap50Medium: Double?
        @Nullable public var ap50Large: Double?
        /// Records of each error kind at the class's threshold. Absent (not null) where errors were not
        /// analysed, so that a file written without them keeps its bytes; null never occurs.
        public var errors: ErrorCountsEntry?
        /// AP50 gained when each kind of error alone is fixed; absent without analysis, null-free: a
        /// class without ground truth has no AP to gain and leaves the key out too.
        public var ap50Gain: GainsEntry?

        /// An entry with the figures of evaluation.md's example; the others nil.
        public init(name: String, gtCount: Int, detections: Int, ap50: Double?, apCenter: Double?) {
            self.name = name
            self.gtCount = gtCount
            self.detections = detections
            self.ap50 = ap50
            self.apCenter = apCenter
        }

        /// The figures of `c`.
        public init(_ c: ClassResult) {
            self.init(name: c.name, gtCount: c.gtCount, detections: c.detections, ap50: c.ap50, apCenter: c.apCenter)
            ap50to95 = c.ap50to95
            (gtCountSmall, gtCountMedium, gtCountLarge) = (c.gtCountBySize?.small, c.gtCountBySize?.medium, c.gtCountBySize?.large)
            (ap50Small, ap50Medium, ap50Large) = (c.apBySize.small, c.apBySize.medium, c.apBySize.large)
        }

        enum CodingKeys: String, CodingKey {
            case name, gtCount = "gt_count", detections, ap50, apCenter = "ap_center", ap50to95 = "ap50_95"
            case gtCountSmall = "gt_count_small", gtCountMedium = "gt_count_medium", gtCountLarge = "gt_count_large"
            case ap50Small = "ap50_small", ap50Medium = "ap50_medium", ap50Large = "ap50_large"
            case errors, ap50Gain = "ap50_gain"
        }
    }

    /// One class's records of each error kind (README, "Where a detector fails") and the threshold they were counted at.
    public struct ErrorCountsEntry: Codable, Equatable, Sendable {
        public var threshold: Double
        /// false where the class has no picked threshold and 0.5 was used.
        public var thresholdPicked: Bool
        public var truePositive, background, duplicate, wrongClass, poorLocalization, missed: Int

        /// The counts of `e`.
        public init(_ e: ClassErrors) {
            (threshold, thresholdPicked) = (e.threshold, e.thresholdPicked)
            let c = e.counts
            (truePositive, background, duplicate, wrongClass, poorLocalization, missed) = (c.truePositive, c.background, c.duplicate, c.wrongClass, c.poorLocalization, c.missed)
        }

        enum CodingKeys: String, CodingKey {
            case threshold, thresholdPicked = "threshold_picked", truePositive = "true_positive", background, duplicate
            case wrongClass = "wrong_class", poorLocalization = "poor_localization", missed
        }
    }

    /// AP50 (a fraction) gained by fixing each kind of error alone.
    public struct GainsEntry: Codable, Equatable, Sendable {
        public var background, wrongClass, poorLocalization, duplicate, missed: Double

        /// The gains of `g`.
        public init(_ g: APGains) {
            (background, wrongClass, poorLocalization, duplicate, missed) = (g.background, g.wrongClass, g.poorLocalization, g.duplicate, g.missed)
        }

        enum CodingKeys: String, CodingKey {
            case background, wrongClass = "wrong_class", poorLocalization = "poor_localization", duplicate, missed
        }
    }

    /// The size buckets as written: each bucket's `[lower, upper)` share of the screen's area
    /// (`upper` null: no limit), and why shares.
    public struct SizeBucketsEntry: Codable, Equatable, Sendable {
        public var measure: String
        public var small: [Double?]
        public var medium: [Double?]
        public var large: [Double?]
        public var why: String

        /// The entry of `buckets`.
        public init(_ buckets: SizeBuckets) {
            measure = "box area / screen area (the screen in the pixels of its boxes, letterbox padding excluded); buckets are [lower, upper)"
            func range(_ b: SizeBucket) -> [Double?] { let r = buckets.range(b); return [r.lower, r.upper] }
            (small, medium, large) = (range(.small), range(.medium), range(.large))
            why = "shares of the screen, not COCO's absolute 32x32 and 96x96 pixels, so that an element is in the same bucket at any screen size; "
                + "by default small is below a 44x44 pt touch target (0.64% of a 375x812 pt phone screen) and large starts at a full-width bar 40 pt tall (4.9%)"
        }
    }

    /// The file's name in an evaluation folder.
    public static let fileName = "metrics.json"

    public var iouThreshold: Double
    public var interpolation: Interpolation
    public var images: Int
    public var classes: [ClassEntry]
    /// Means over the classes with ground truth; nil when no class has any.
    @Nullable public var map50: Double?
    @Nullable public var map50Weighted: Double?
    @Nullable public var mapCenter: Double?
    @Nullable public var mapCenterWeighted: Double?
    @Nullable public var map50to95: Double?
    /// Per size bucket, the mean over the classes with ground truth in it.
    @Nullable public var map50Small: Double?
    @Nullable public var map50Medium: Double?
    @Nullable public var map50Large: Double?
    /// null where screen sizes are unknown (and every figure by size with them).
    @Nullable public var sizeBuckets: SizeBucketsEntry?
    /// What was scored; null where the caller did not say.
    @Nullable public var source: EvaluationSource?
    /// Per kind, the mean over classes with ground truth of the AP50 with that kind fixed, minus `map50`;
    /// absent (not null) where errors were not analysed or no class has ground truth, as `errors` is.
    public var map50Gain: GainsEntry?

    /// The figures of `result`.
    public init(_ result: EvaluationResult) {
        iouThreshold = result.iouThreshold
        interpolation = result.interpolation
        images = result.images
        classes = result.classes.map(ClassEntry.init)
        map50 = result.map50
        map50Weighted = result.map50Weighted
        mapCenter = result.mapCenter
        mapCenterWeighted = result.mapCenterWeighted
        map50to95 = result.map50to95
        (map50Small, map50Medium, map50Large) = (result.map50BySize.small, result.map50BySize.medium, result.map50BySize.large)
        sizeBuckets = result.sizeBuckets.map(SizeBucketsEntry.init)
    }

    /// The figures of `summary` with what it scored and, if analysed, its errors.
    public init(_ summary: EvaluationSummary) {
        self.init(summary.result)
        source = summary.source
        if let errors = summary.errors {
            for (k, e) in errors.classes.enumerated() {
                classes[k].errors = ErrorCountsEntry(e)
                classes[k].ap50Gain = e.gains.map(GainsEntry.init)
            }
            map50Gain = errors.meanGains.map(GainsEntry.init)
        }
    }

    /// Reads a metrics.json.
    public init(contentsOf url: URL) throws {
        self = try JSONFile.read(Self.self, from: url)
    }

    /// Writes the file atomically.
    public func write(to url: URL) throws {
        try JSONFile.write(self, to: url)
    }

    enum CodingKeys: String, CodingKey {
        case iouThreshold = "iou_threshold", interpolation, images, classes
        case map50, map50Weighted = "map50_weighted", mapCenter = "map_center", mapCenterWeighted = "map_center_weighted"
        case map50to95 = "map50_95", map50Small = "map50_small", map50Medium = "map50_medium", map50Large = "map50_large"
        case sizeBuckets = "size_buckets", source, map50Gain = "map50_gain"
    }
}
