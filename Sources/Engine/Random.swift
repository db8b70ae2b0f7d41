import Foundation
// The engine's users get the seeded generator with it.
@_exported import SeededRandom

/// Fills `count` floats with N(mean, std^2) samples (Box-Muller in double precision).
func fillNormal<G: RandomNumberGenerator>(
    _ p: UnsafeMutablePointer<Float>, count: Int, mean: Float, std: Float, using g: inout G
) {
    var i = 0
    while i < count {
        let u1 = 1 - g.nextUnitDouble()  // (0, 1]: log is finite
        let u2 = g.nextUnitDouble()
        let r = (-2 * log(u1)).squareRoot()
        let a = 2 * Double.pi * u2
        p[i] = mean + std * Float(r * cos(a))
        if i + 1 < count { p[i + 1] = mean + std * Float(r * sin(a)) }
        i += 2
    }
}

