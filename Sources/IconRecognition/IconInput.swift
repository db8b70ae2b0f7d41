import Boxes
import Engine
import Foundation
import Images

/// What the icon classifier sees of an icon: its crop made grey-free and polarity-free. The
/// background (the median colour of the crop's border) is taken away, each pixel becomes its
/// distance from it (the largest difference over the three channels, so that a red glyph on a
/// green disc of the same brightness still shows), scaled so that the crop's strongest ink is 1,
/// and the crop is letterboxed, centred, into `side` x `side`. Light on dark and dark on light,
/// any tint, give the same input: the network learns shapes, not colours.
public enum IconInput {
    /// The crop of an icon's `box` in `image` with `margin` (a share of the box's longer side) on
    /// each side, clipped to the image: how `describe` and the training crops cut icons.
    public static func crop(_ image: RGBImage, box: Box, margin: Float = 0.25) -> RGBImage {
        let m = margin * max(box.width, box.height)
        return image.cropped(x0: Int((box.xMin - m).rounded(.down)), y0: Int((box.yMin - m).rounded(.down)),
                             x1: Int((box.xMax + m).rounded(.up)), y1: Int((box.yMax + m).rounded(.up)))
    }

    /// The network's input for `crops`: (N, side, side, 1).
    public static func tensor(_ crops: [RGBImage], side: Int) -> Tensor {
        var values = [Float](repeating: 0, count: crops.count * side * side)
        values.withUnsafeMutableBufferPointer { out in
            for (k, crop) in crops.enumerated() { inkMap(crop, side: side, into: out.baseAddress! + k * side * side) }
        }
        return Tensor(shape: [crops.count, side, side, 1], values: values)
    }

    /// Writes `crop`'s ink map (side x side floats, 0 background to 1 strongest ink) to `out`.
    static func inkMap(_ crop: RGBImage, side: Int, into out: UnsafeMutablePointer<Float>) {
        out.update(repeating: 0, count: side * side)
        guard crop.width > 0, crop.height > 0 else { return }
        let background = borderMedian(crop)
        let scale = Float(side) / Float(max(crop.width, crop.height))
        let w = max(1, min(side, Int((Float(crop.width) * scale).rounded()))), h = max(1, min(side, Int((Float(crop.height) * scale).rounded())))
        let fitted = crop.size == Size(width: w, height: h) ? crop : crop.resized(to: Size(width: w, height: h))
        let (x0, y0) = ((side - w) / 2, (side - h) / 2)
        var strongest: Float = 0
        fitted.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                for x in 0..<w {
                    let i = (y * w + x) * 3
                    let d = max(abs(Float(p[i]) - background.0), abs(Float(p[i + 1]) - background.1), abs(Float(p[i + 2]) - background.2))
                    out[(y0 + y) * side + x0 + x] = d
                    strongest = max(strongest, d)
                }
            }
        }
        // A crop with hardly any contrast stays faint rather than having its noise blown up to full ink.
        let norm = 1 / max(strongest, 48)
        for i in 0..<(side * side) { out[i] *= norm }
    }

    /// The per-channel median of the crop's outermost ring of pixels: the colour around the icon.
    static func borderMedian(_ crop: RGBImage) -> (Float, Float, Float) {
        var r: [UInt8] = [], g: [UInt8] = [], b: [UInt8] = []
        func add(_ x: Int, _ y: Int) {
            let i = (y * crop.width + x) * 3
            r.append(crop.pixels[i]); g.append(crop.pixels[i + 1]); b.append(crop.pixels[i + 2])
        }
        for x in 0..<crop.width { add(x, 0); if crop.height > 1 { add(x, crop.height - 1) } }
        for y in 1..<max(1, crop.height - 1) { add(0, y); if crop.width > 1 { add(crop.width - 1, y) } }
        func median(_ v: [UInt8]) -> Float { Float(v.sorted()[v.count / 2]) }
        return (median(r), median(g), median(b))
    }
}
