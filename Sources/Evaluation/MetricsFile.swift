import Foundation

/// metrics.json (evaluation.md, "Files an evaluation writes"): per-class AP50 and AP-center and their means.
public struct MetricsFile: Codable, Equatable, Sendable {
    /// One class's figures; every class of the vocabulary has one, in vocabulary order.
    public struct ClassEntry: Codable, Equatable, Sendable {
        public var name: String
        public var gtCount: Int
        public var detections: Int
        /// nil (JSON null) for a class without ground truth.
        @Nullable public var ap50: Double?
        @Nullable public var apCenter: Double?

        /// An entry with every figure given.
        public init(name: String, gtCount: Int, detections: Int, ap50: Double?, apCenter: Double?) {
            self.name = name
            self.gtCount = gtCount
            self.detections = detections
            self.ap50 = ap50
            self.apCenter = apCenter
        }

        enum CodingKeys: String, CodingKey {
            case name, gtCount = "gt_count", detections, ap50, apCenter = "ap_center"
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

    /// The figures of `result`.
    public init(_ result: EvaluationResult) {
        iouThreshold = result.iouThreshold
        interpolation = result.interpolation
        images = result.images
        classes = result.classes.map { ClassEntry(name: $0.name, gtCount: $0.gtCount, detections: $0.detections, ap50: $0.ap50, apCenter: $0.apCenter) }
        map50 = result.map50
        map50Weighted = result.map50Weighted
        mapCenter = result.mapCenter
        mapCenterWeighted = result.mapCenterWeighted
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
    }
}
