import Layers

extension Array where Element == ConvShape {
    /// One representative per distinct geometry, named after its first use: what the engine benchmark times.
    public func distinctGeometries() -> [ConvShape] {
        var seen = Set<String>()
        return filter { c in
            seen.insert("\(c.height)x\(c.width) \(c.inChannels)->\(c.outChannels) k\(c.kernel) s\(c.stride) g\(c.groups) \(c.inputNeedsGradient)").inserted
        }
    }
}
