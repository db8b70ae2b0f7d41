/// A width and a height in pixels. Written out in full because our screens
/// are not square (256 x 512): a swapped pair would not show on square inputs.
public struct Size: Equatable, Hashable, Codable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "WxH", e.g. "256x512".
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}

/// An axis-aligned box in pixels, origin top-left: `x` grows right, `y` down.
public struct Box: Equatable, Hashable, Codable, Sendable, CustomStringConvertible {
    public var xMin: Float
    public var yMin: Float
    public var xMax: Float
    public var yMax: Float

    public init(xMin: Float, yMin: Float, xMax: Float, yMax: Float) {
        self.xMin = xMin
        self.yMin = yMin
        self.xMax = xMax
        self.yMax = yMax
    }

    /// A box from its centre and size.
    public init(centerX: Float, centerY: Float, width: Float, height: Float) {
        self.init(xMin: centerX - width / 2, yMin: centerY - height / 2, xMax: centerX + width / 2, yMax: centerY + height / 2)
    }

    public var width: Float { xMax - xMin }
    public var height: Float { yMax - yMin }
    public var centerX: Float { (xMin + xMax) / 2 }
    public var centerY: Float { (yMin + yMax) / 2 }

    /// Area in double precision, as the evaluation spec defines it (no "+1").
    public var area: Double { Double(xMax - xMin) * Double(yMax - yMin) }

    /// True when every coordinate is finite and the box has positive width and height.
    public var isValid: Bool {
        xMin.isFinite && yMin.isFinite && xMax.isFinite && yMax.isFinite && xMax > xMin && yMax > yMin
    }

    /// Intersection over union on continuous coordinates, in double precision.
    public func iou(_ other: Box) -> Double {
        let iw = min(Double(xMax), Double(other.xMax)) - max(Double(xMin), Double(other.xMin))
        let ih = min(Double(yMax), Double(other.yMax)) - max(Double(yMin), Double(other.yMin))
        guard iw > 0, ih > 0 else { return 0 }
        let inter = iw * ih
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// Area of the overlap with `other`.
    public func intersectionArea(_ other: Box) -> Double {
        let iw = min(Double(xMax), Double(other.xMax)) - max(Double(xMin), Double(other.xMin))
        let ih = min(Double(yMax), Double(other.yMax)) - max(Double(yMin), Double(other.yMin))
        return iw > 0 && ih > 0 ? iw * ih : 0
    }

    /// The share of this box's area that lies within `other`; a box without area counts as inside when its centre is.
    public func fractionInside(_ other: Box) -> Double {
        let a = area
        guard a > 0 else { return other.contains(x: Double(centerX), y: Double(centerY)) ? 1 : 0 }
        return intersectionArea(other) / a
    }

    /// Whether at least `fraction` of this box lies within one of `boxes` (an element inside a bar the detector boxed).
    public func isInside(anyOf boxes: [Box], fraction: Double) -> Bool {
        boxes.contains { fractionInside($0) >= fraction }
    }

    /// Whether the point lies inside the box, edges included.
    public func contains(x: Double, y: Double) -> Bool {
        x >= Double(xMin) && x <= Double(xMax) && y >= Double(yMin) && y <= Double(yMax)
    }

    /// The box cut to 0...width, 0...height.
    public func clipped(to size: Size) -> Box {
        Box(xMin: min(max(xMin, 0), Float(size.width)), yMin: min(max(yMin, 0), Float(size.height)),
            xMax: min(max(xMax, 0), Float(size.width)), yMax: min(max(yMax, 0), Float(size.height)))
    }

    /// The box moved by `dx`, `dy`.
    public func offset(dx: Float = 0, dy: Float = 0) -> Box { Box(xMin: xMin + dx, yMin: yMin + dy, xMax: xMax + dx, yMax: yMax + dy) }

    /// The box under x' = x * sx + dx, y' = y * sy + dy.
    public func transformed(scaleX sx: Float, scaleY sy: Float, offsetX dx: Float = 0, offsetY dy: Float = 0) -> Box {
        Box(xMin: xMin * sx + dx, yMin: yMin * sy + dy, xMax: xMax * sx + dx, yMax: yMax * sy + dy)
    }

    public var description: String { "[\(xMin), \(yMin), \(xMax), \(yMax)]" }
}

/// Greedy non-maximum suppression: indices of `boxes` kept, best score first.
/// A box is dropped when its IoU with a kept, higher-scored box exceeds `iouThreshold`;
/// equal scores keep their input order.
public func nonMaxSuppression(_ boxes: [Box], scores: [Float], iouThreshold: Double, limit: Int = .max) -> [Int] {
    let order = boxes.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
    var kept: [Int] = []
    for i in order {
        if kept.count >= limit { break }
        if kept.allSatisfy({ boxes[$0].iou(boxes[i]) <= iouThreshold }) { kept.append(i) }
    }
    return kept
}
