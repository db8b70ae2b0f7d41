import Boxes
import Images
import SeededRandom

/// The device a synthetic screenshot is taken on: its pixels, its width in points (dp on
/// Android), which sets the density, and its system bars.
struct Device {
    let pixels: Size
    /// Logical width: 375 points on an iPhone 8, 360 dp on many Android phones, 768+ on tablets.
    let points: Float
    let tablet: Bool
    /// iPhones with a notch or island: a taller status bar and a home indicator.
    let notch: Bool

    static let iPhones = [
        Device(pixels: Size(width: 750, height: 1334), points: 375, tablet: false, notch: false),
        Device(pixels: Size(width: 1242, height: 2208), points: 414, tablet: false, notch: false),
        Device(pixels: Size(width: 1125, height: 2436), points: 375, tablet: false, notch: true),
        Device(pixels: Size(width: 1170, height: 2532), points: 390, tablet: false, notch: true),
        Device(pixels: Size(width: 1179, height: 2556), points: 393, tablet: false, notch: true),
        Device(pixels: Size(width: 1284, height: 2778), points: 428, tablet: false, notch: true),
    ]
    /// 9:16 dominates older Android screenshots (the real screens we test on), then taller phones up to 9:21.
    static let androidPhones = [
        Device(pixels: Size(width: 1080, height: 1920), points: 360, tablet: false, notch: false),
        Device(pixels: Size(width: 1080, height: 1920), points: 411, tablet: false, notch: false),
        Device(pixels: Size(width: 720, height: 1280), points: 360, tablet: false, notch: false),
        Device(pixels: Size(width: 1440, height: 2560), points: 411, tablet: false, notch: false),
        Device(pixels: Size(width: 1080, height: 2160), points: 360, tablet: false, notch: false),
        Device(pixels: Size(width: 1080, height: 2340), points: 393, tablet: false, notch: false),
        Device(pixels: Size(width: 1080, height: 2400), points: 411, tablet: false, notch: false),
        Device(pixels: Size(width: 1080, height: 2520), points: 411, tablet: false, notch: false),
    ]
    static let iPads = [
        Device(pixels: Size(width: 1536, height: 2048), points: 768, tablet: true, notch: false),
        Device(pixels: Size(width: 1668, height: 2388), points: 834, tablet: true, notch: false),
        Device(pixels: Size(width: 2048, height: 2732), points: 1024, tablet: true, notch: false),
    ]
    static let androidTablets = [
        Device(pixels: Size(width: 1200, height: 1920), points: 600, tablet: true, notch: false),
        Device(pixels: Size(width: 1600, height: 2560), points: 800, tablet: true, notch: false),
    ]

    /// A device of `idiom`: phones mostly, a tablet one time in sixteen or so.
    static func pick(_ idiom: Idiom, _ g: inout SeededGenerator) -> Device {
        let tablet = g.chance(0.06)
        switch idiom {
        case .iOS: return g.pick(tablet ? iPads : iPhones)
        case .android:
            if tablet { return g.pick(androidTablets) }
            return g.chance(0.45) ? androidPhones[g.int(0...3)] : g.pick(androidPhones)
        }
    }

    /// Where the screenshot lands in a stored image of `storage` size: scaled by
    /// min(W_s / W, H_s / H) and padded right and bottom, as the importers letterbox real ones.
    func content(in storage: Size) -> Size {
        Letterbox(original: pixels, target: storage).content
    }
}
