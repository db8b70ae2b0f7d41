import Images
import SeededRandom

/// The look shared by every screen of one synthetic app: palette, appearance, shapes.
struct AppStyle {
    let dark: Bool
    let background: RGB
    let secondaryBackground: RGB
    let separator: RGB
    let label: RGB
    let secondaryLabel: RGB
    let accent: RGB
    let fill: RGB
    let cornerRadius: Float
    let textScale: Float
    let squareCheckboxes: Bool
    let largeTitle: Bool

    static let accents: [UInt32] = [0x007AFF, 0x34C759, 0xFF9500, 0xAF52DE, 0xFF3B30, 0x5AC8FA, 0xFF2D55, 0x5856D6, 0x00A39A, 0xD4A017]

    init(app: Int, seed: UInt64) {
        var g = SeededGenerator(seed: seed ^ 0xA99, index: UInt64(app))
        dark = g.chance(0.35)
        let tint = RGB(hex: g.pick(Self.accents))
        accent = tint.mixed(with: g.chance(0.5) ? RGB(0, 0, 0) : RGB(255, 255, 255), g.uniform(0...0.25))
        if dark {
            let base = UInt8(g.int(0...28))
            background = RGB(base, base, UInt8(min(255, Int(base) + g.int(0...8))))
            secondaryBackground = RGB(UInt8(Int(base) + 28), UInt8(Int(base) + 28), UInt8(Int(base) + 30))
            separator = RGB(70, 70, 74)
            label = RGB(255, 255, 255)
            secondaryLabel = RGB(152, 152, 159)
            fill = RGB(58, 58, 60)
        } else {
            let grouped = g.chance(0.4)
            background = grouped ? RGB(242, 242, 247) : RGB(255, 255, 255).mixed(with: tint, g.uniform(0...0.05))
            secondaryBackground = grouped ? RGB(255, 255, 255) : RGB(242, 242, 247)
            separator = RGB(198, 198, 200)
            label = RGB(UInt8(g.int(0...40)), UInt8(g.int(0...40)), UInt8(g.int(0...40)))
            secondaryLabel = RGB(138, 138, 142)
            fill = RGB(229, 229, 234)
        }
        cornerRadius = g.pick([4, 8, 10, 12, 16])
        textScale = g.uniform(0.9...1.15)
        squareCheckboxes = g.chance(0.4)
        largeTitle = g.chance(0.4)
    }
}
