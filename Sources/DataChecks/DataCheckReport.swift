/// Where a screen lives: its split (as given), shard file, index in the shard and id.
public struct ScreenLocation: Codable, Hashable, Sendable, CustomStringConvertible {
    public var split: String
    public var shard: String
    public var index: Int
    public var imageID: String

    public init(split: String, shard: String, index: Int, imageID: String) {
        self.split = split
        self.shard = shard
        self.index = index
        self.imageID = imageID
    }

    enum CodingKeys: String, CodingKey {
        case split, shard, index
        case imageID = "image_id"
    }

    public var description: String { "'\(imageID)' (\(shard) screen \(index))" }
}

/// How much a finding matters: an error fails the check (and `uidetect check` exits non-zero).
public enum Severity: String, Codable, Sendable {
    case error, warning
}

/// The checks, each with a fixed severity.
public enum CheckKind: String, Codable, CaseIterable, Sendable {
    /// The same (or nearly the same) screenshot in two splits: test scores would measure memory.
    case nearDuplicate = "near_duplicate"
    /// One group (app) in two splits: the splits are meant to keep apps apart.
    case groupInTwoSplits = "group_in_two_splits"
    case duplicateBox = "duplicate_box"
    case tinyBox = "tiny_box"
    case boxOutsideImage = "box_outside_image"
    case rareClass = "rare_class"
    case emptyScreen = "empty_screen"

    /// Leakage between splits fails the check; the rest are worth a look but may be intended.
    public var severity: Severity {
        switch self {
        case .nearDuplicate, .groupInTwoSplits: return .error
        default: return .warning
        }
    }
}

/// One problem found, with the screens it concerns.
public struct Finding: Codable, Equatable, Sendable {
    public var kind: CheckKind
    public var severity: Severity
    /// What is wrong, with the numbers that show it.
    public var message: String
    public var screens: [ScreenLocation]

    public init(kind: CheckKind, message: String, screens: [ScreenLocation]) {
        self.kind = kind
        severity = kind.severity
        self.message = message
        self.screens = screens
    }
}

/// Screens of one size.
public struct SizeCount: Codable, Equatable, Sendable {
    /// "WxH".
    public var size: String
    public var screens: Int
    public init(size: String, screens: Int) {
        self.size = size
        self.screens = screens
    }
}

/// The spread of image sizes: as stored (one per shard) and before storage (when the shards keep it).
public struct ImageSizes: Codable, Equatable, Sendable {
    /// Most common first.
    public var stored: [SizeCount]
    /// Most common first; empty when no shard has `original_sizes`.
    public var original: [SizeCount]
    /// Smallest and largest height / width of the original sizes (else the stored ones).
    public var aspectRange: [Double]

    enum CodingKeys: String, CodingKey {
        case stored, original
        case aspectRange = "aspect_range"
    }
}

/// One split's size.
public struct SplitSummary: Codable, Equatable, Sendable {
    public var name: String
    public var shards: [String]
    public var screens: Int
    public var groups: Int
    public var boxes: Int
    /// Boxes per class name.
    public var classes: [String: Int]
}

/// Everything `DataChecker.check` found.
public struct DataCheckReport: Codable, Equatable, Sendable {
    public var splits: [SplitSummary]
    public var options: DataCheckOptions
    public var imageSizes: ImageSizes
    public var findings: [Finding]
    public var errors: Int
    public var warnings: Int

    enum CodingKeys: String, CodingKey {
        case splits, options, findings, errors, warnings
        case imageSizes = "image_sizes"
    }

    /// True when nothing fails the check (warnings allowed).
    public var passed: Bool { errors == 0 }

    /// The findings of one kind.
    public func findings(_ kind: CheckKind) -> [Finding] { findings.filter { $0.kind == kind } }
}
