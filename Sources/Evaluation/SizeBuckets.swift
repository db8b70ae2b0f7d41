import Foundation

/// A box's size class on its screen.
public enum SizeBucket: Int, CaseIterable, Sendable, CustomStringConvertible {
    case small, medium, large

    public var description: String {
        switch self {
        case .small: return "small"
        case .medium: return "medium"
        case .large: return "large"
        }
    }
}

/// Small, medium and large boxes by their area as a share of their screen's area, so that the
/// same element is in the same bucket on a 256x512 render and on a 1170x2532 screenshot (COCO's
/// absolute 32² and 96² pixels are not). Buckets are half-open and cover every share:
/// small `[0, smallBelow)`, medium `[smallBelow, largeFrom)`, large `[largeFrom, ∞)`.
public struct SizeBuckets: Equatable, Sendable {
    /// Shares below this are small.
    public var smallBelow: Double
    /// Shares at or above this are large.
    public var largeFrom: Double

    public init(smallBelow: Double, largeFrom: Double) {
        precondition(smallBelow >= 0 && largeFrom >= smallBelow, "size buckets need 0 <= smallBelow <= largeFrom")
        self.smallBelow = smallBelow
        self.largeFrom = largeFrom
    }

    /// The default: small under 0.5% of the screen (a 44x44 pt touch target is 0.64% of a
    /// 375x812 pt iPhone screen: icons, glyphs, checkboxes, switches, page dots, single words),
    /// large from 5% (a full-width bar 40 pt tall is 4.9%: pictures, cards, lists, dialogs),
    /// medium between (lines of text, buttons, text fields, sliders, segmented controls).
    public static let screenShare = SizeBuckets(smallBelow: 0.005, largeFrom: 0.05)

    /// The bucket of a box covering `share` of its screen.
    @inline(__always)
    public func bucket(share: Double) -> SizeBucket {
        share < smallBelow ? .small : (share < largeFrom ? .medium : .large)
    }

    /// `[lower, upper)` of `bucket`; nil upper for large.
    public func range(_ bucket: SizeBucket) -> (lower: Double, upper: Double?) {
        switch bucket {
        case .small: return (0, smallBelow)
        case .medium: return (smallBelow, largeFrom)
        case .large: return (largeFrom, nil)
        }
    }

    /// "< 0.5%", "0.5%-5%", ">= 5%" of the screen.
    public func label(_ bucket: SizeBucket) -> String {
        func pct(_ v: Double) -> String { String(format: "%g%%", 100 * v) }
        switch bucket {
        case .small: return "< " + pct(smallBelow)
        case .medium: return pct(smallBelow) + "-" + pct(largeFrom)
        case .large: return ">= " + pct(largeFrom)
        }
    }
}

/// One value per size bucket.
public struct BySize<Value> {
    public var small: Value
    public var medium: Value
    public var large: Value

    public init(small: Value, medium: Value, large: Value) {
        self.small = small
        self.medium = medium
        self.large = large
    }

    /// The value of each bucket from `value`.
    public init(_ value: (SizeBucket) -> Value) {
        self.init(small: value(.small), medium: value(.medium), large: value(.large))
    }

    public subscript(bucket: SizeBucket) -> Value {
        get {
            switch bucket {
            case .small: return small
            case .medium: return medium
            case .large: return large
            }
        }
        set {
            switch bucket {
            case .small: small = newValue
            case .medium: medium = newValue
            case .large: large = newValue
            }
        }
    }
}

extension BySize: Equatable where Value: Equatable {}
extension BySize: Sendable where Value: Sendable {}
