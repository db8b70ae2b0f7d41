import Boxes

/// A box from its corners, as tests write them: `box(xMin, yMin, xMax, yMax)`.
public func box(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Box { Box(xMin: a, yMin: b, xMax: c, yMax: d) }
