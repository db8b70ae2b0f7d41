import Boxes
import Images
import SeededRandom

/// The platform conventions a synthetic app follows.
enum Idiom {
    /// UIKit: status bar with the time at the left, centred or large titles, tab bars, grouped tables, alerts.
    case iOS
    /// Material: coloured app bars, left-aligned titles, bottom navigation, FABs, chips, cards with elevation.
    case android
}

/// Light, dark, or a saturated brand colour behind everything.
enum Appearance {
    case light, dark, colourful
}

/// How an app draws its icons.
enum IconStyle: CaseIterable {
    /// Stroked line art.
    case outline
    /// Solid shapes.
    case filled
    /// White glyphs on coloured rounded squares (iOS settings rows).
    case squircle
    /// Tinted glyphs on a pale disc of the same tint (Material list avatars).
    case disc
}

/// The font families the synthesizer draws with (Debian's fonts-dejavu-core).
enum FontFamily {
    case sans, serif, mono

    static let directory = "/usr/share/fonts/truetype/dejavu/"
    var regularPath: String {
        switch self {
        case .sans: return Self.directory + "DejaVuSans.ttf"
        case .serif: return Self.directory + "DejaVuSerif.ttf"
        case .mono: return Self.directory + "DejaVuSansMono.ttf"
        }
    }
    var boldPath: String {
        switch self {
        case .sans: return Self.directory + "DejaVuSans-Bold.ttf"
        case .serif: return Self.directory + "DejaVuSerif-Bold.ttf"
        case .mono: return Self.directory + "DejaVuSansMono-Bold.ttf"
        }
    }
}

/// The look shared by every screen of one synthetic app: platform, palette, appearance, type,
/// shapes and wording, so that splits by app are meaningful.
struct AppStyle {
    let idiom: Idiom
    let appearance: Appearance
    var dark: Bool { appearance == .dark }
    /// The screen's base colour, the raised surfaces (cards, grouped sections), and the page behind them.
    let background: RGB
    let surface: RGB
    let separator: RGB
    let label: RGB
    let secondaryLabel: RGB
    /// The brand colour: tints, selected items, filled buttons; `onAccent` is legible on it.
    let accent: RGB
    let onAccent: RGB
    /// A second brand colour (FABs, chips, badges).
    let secondaryAccent: RGB
    /// Track of toggles, segmented controls, filled text fields.
    let fill: RGB
    /// Android: the app bar is `accent` (true) or `background` (false). iOS: a tinted navigation bar.
    let colouredBar: Bool
    let barColour: RGB
    let onBar: RGB
    let cornerRadius: Float
    let textScale: Float
    /// Spacing multiplier: crowded apps below 1, airy ones above.
    let spacing: Float
    let squareCheckboxes: Bool
    let largeTitle: Bool
    let uppercaseButtons: Bool
    let iconStyle: IconStyle
    /// Which icon package the app's icons come from, and how heavy their strokes are.
    let glyphs: GlyphLook
    /// Titles in this family (a serif for news and books), body text in `bodyFamily`.
    let titleFamily: FontFamily
    let bodyFamily: FontFamily
    let language: Language
    /// Ellipsis ("…") on truncated text, or a hard cut.
    let ellipsis: Bool
    /// Pictures have a photo, a gradient or a flat colour behind the whole screen (login, onboarding).
    let backdrop: Backdrop

    enum Backdrop { case none, gradient, photo }

    static let iOSAccents: [UInt32] = [0x007AFF, 0x34C759, 0xFF9500, 0xAF52DE, 0xFF3B30, 0x5AC8FA, 0xFF2D55, 0x5856D6, 0x00A39A, 0xD4A017]
    /// Material 500 colours.
    static let materialAccents: [UInt32] = [0xF44336, 0xE91E63, 0x9C27B0, 0x673AB7, 0x3F51B5, 0x2196F3, 0x03A9F4, 0x00BCD4, 0x009688,
                                            0x4CAF50, 0x8BC34A, 0xCDDC39, 0xFFC107, 0xFF9800, 0xFF5722, 0x795548, 0x607D8B, 0x1DB954, 0x6200EE]

    init(app: Int, seed: UInt64) {
        var g = SeededGenerator(seed: seed ^ 0xA99, index: UInt64(app))
        idiom = g.chance(0.45) ? .iOS : .android
        let r = g.nextUnitDouble()
        appearance = r < 0.55 ? .light : r < 0.8 ? .dark : .colourful
        let base: RGB
        if g.chance(0.2) {
            base = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.55...0.9), value: g.uniform(0.55...0.9))
        } else {
            base = RGB(hex: g.pick(idiom == .iOS && g.chance(0.7) ? Self.iOSAccents : Self.materialAccents))
        }
        let tint = base.mixed(with: g.chance(0.5) ? RGB(0, 0, 0) : RGB(255, 255, 255), g.uniform(0...0.2))
        accent = tint
        onAccent = tint.luminance > 0.62 ? RGB(20, 20, 20) : RGB(255, 255, 255)
        secondaryAccent = g.chance(0.5) ? tint : RGB(hex: g.pick(Self.materialAccents))
        switch appearance {
        case .dark:
            let v = UInt8(g.int(0...30))
            background = RGB(v, v, UInt8(min(255, Int(v) + g.int(0...8))))
            surface = RGB(UInt8(Int(v) + 24), UInt8(Int(v) + 24), UInt8(Int(v) + 27))
            separator = RGB(62, 62, 66)
            label = RGB(UInt8(g.int(225...255)), UInt8(g.int(225...255)), UInt8(g.int(225...255)))
            secondaryLabel = RGB(150, 150, 158)
            fill = RGB(58, 58, 62)
        case .light:
            let grouped = idiom == .iOS ? g.chance(0.5) : g.chance(0.25)
            background = grouped ? RGB(242, 242, 247).mixed(with: tint, g.uniform(0...0.03)) : RGB(255, 255, 255).mixed(with: tint, g.uniform(0...0.04))
            surface = grouped ? RGB(255, 255, 255) : RGB(246, 246, 249)
            separator = RGB(UInt8(g.int(196...224)), UInt8(g.int(196...224)), UInt8(g.int(198...226)))
            label = RGB(UInt8(g.int(0...50)), UInt8(g.int(0...50)), UInt8(g.int(0...50)))
            secondaryLabel = RGB(UInt8(g.int(110...145)), UInt8(g.int(110...145)), UInt8(g.int(110...150)))
            fill = RGB(226, 226, 232)
        case .colourful:
            // A saturated page (purple, teal, orange ...) with white type, as in many games, fitness and login screens.
            let page = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.45...0.85), value: g.uniform(0.35...0.7))
            background = page
            surface = page.mixed(with: RGB(255, 255, 255), g.uniform(0.08...0.2))
            separator = page.mixed(with: RGB(255, 255, 255), 0.3)
            label = RGB(255, 255, 255)
            secondaryLabel = page.mixed(with: RGB(255, 255, 255), 0.65)
            fill = page.mixed(with: RGB(0, 0, 0), 0.25)
        }
        if idiom == .android {
            colouredBar = appearance != .dark && g.chance(0.65)
        } else {
            colouredBar = appearance == .light && g.chance(0.15)
        }
        barColour = colouredBar ? accent : (appearance == .dark ? surface : background)
        onBar = colouredBar ? onAccent : label
        cornerRadius = idiom == .iOS ? g.pick([6, 8, 10, 12, 14, 16]) : g.pick([0, 2, 4, 4, 8, 12, 16, 24])
        textScale = g.uniform(0.85...1.25)
        spacing = g.uniform(0.7...1.35)
        squareCheckboxes = idiom == .android ? g.chance(0.85) : g.chance(0.3)
        largeTitle = idiom == .iOS && g.chance(0.4)
        uppercaseButtons = idiom == .android && g.chance(0.6)
        let s = g.nextUnitDouble()
        iconStyle = s < 0.4 ? .outline : s < 0.75 ? .filled : s < 0.88 ? .squircle : .disc
        let f = g.nextUnitDouble()
        bodyFamily = f < 0.88 ? .sans : f < 0.97 ? .serif : .mono
        titleFamily = g.chance(0.15) ? .serif : bodyFamily
        language = Language.pick(&g)
        ellipsis = g.chance(0.7)
        let b = g.nextUnitDouble()
        backdrop = b < 0.86 ? .none : b < 0.94 ? .gradient : .photo
        glyphs = GlyphLook(app: app, seed: seed)
    }

    /// Colour for text drawn over `background`: the label colour, or white/black where it would not read.
    func ink(on background: RGB) -> RGB {
        abs(background.luminance - label.luminance) > 0.35 ? label : (background.luminance > 0.55 ? RGB(20, 20, 20) : RGB(255, 255, 255))
    }
}
