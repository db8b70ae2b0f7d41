import Boxes
import FileKeys
import Foundation
import Images
import SeededRandom

/// The augmentations of the input pipeline, each switchable in a run config.
/// Defaults follow the paper's aim: help the rare UI types (copy-paste,
/// repeat-factor sampling) and keep geometry honest (no flips by default:
/// user interfaces are not mirror-symmetric).
public struct AugmentationOptions: Codable, Equatable, Sendable {
    /// Photometric jitter: brightness and contrast (fractions), saturation (fraction), hue (fraction of a turn).
    public var photometric = true
    public var brightness: Float = 0.2
    public var contrast: Float = 0.2
    public var saturation: Float = 0.3
    public var hue: Float = 0.03
    /// Scale-and-crop jitter: zoom by a factor in [scaleMin, scaleMax], crop or pad back to size.
    public var scaleCrop = true
    public var scaleMin: Float = 0.8
    public var scaleMax: Float = 1.25
    /// A box keeps at least this fraction of its area inside the crop, or is dropped.
    public var minVisibleFraction: Float = 0.5
    public var horizontalFlip = false
    /// Copy-paste: up to this many instances of rare classes pasted into free space of each screen.
    public var copyPaste = true
    public var copyPasteMaxPerImage = 3
    /// Repeat-factor sampling threshold t (LVIS): a screen repeats max(1, sqrt(t / f)) times an epoch,
    /// f the fraction of screens holding its rarest class. nil turns it off. Rare classes (f < t) are
    /// also the ones copy-paste takes instances of.
    @Nullable public var repeatFactorThreshold: Double? = 0.1

    public init() {}

    /// No augmentation at all (validation, benchmarks of the reader alone).
    public static let none: AugmentationOptions = {
        var o = AugmentationOptions()
        o.photometric = false; o.scaleCrop = false; o.horizontalFlip = false; o.copyPaste = false; o.repeatFactorThreshold = nil
        return o
    }()

    enum CodingKeys: String, CodingKey {
        case photometric, brightness, contrast, saturation, hue
        case scaleCrop = "scale_crop", scaleMin = "scale_min", scaleMax = "scale_max", minVisibleFraction = "min_visible_fraction"
        case horizontalFlip = "horizontal_flip", copyPaste = "copy_paste", copyPasteMaxPerImage = "copy_paste_max_per_image"
        case repeatFactorThreshold = "repeat_factor_threshold"
    }

    /// Impossible values, each naming its key in the section.
    public func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        for (key, value, limit) in [(CodingKeys.brightness, brightness, Float(1)), (.contrast, contrast, 1), (.saturation, saturation, 1), (.hue, hue, 0.5)]
        where !(value >= 0 && value <= limit) {
            found.add(key, "must lie in [0, \(limit)], got \(value)")
        }
        if !(scaleMax <= 8) { found.add(.scaleMax, "must be at most 8, got \(scaleMax)") }
        if copyPasteMaxPerImage > 100 { found.add(.copyPasteMaxPerImage, "must be at most 100") }
        if !(scaleMin > 0 && scaleMin <= scaleMax) { found.add(.scaleMin, "must be positive and at most scale_max") }
        if !(minVisibleFraction >= 0 && minVisibleFraction <= 1) { found.add(.minVisibleFraction, "must lie in [0, 1]") }
        if copyPasteMaxPerImage < 0 { found.add(.copyPasteMaxPerImage, "must be 0 or more") }
        if let t = repeatFactorThreshold, !(t > 0 && t <= 1) { found.add(.repeatFactorThreshold, "must lie in (0, 1] or be null") }
        return found.list
    }
}

/// A screen as the pipeline transforms it.
public struct Sample: Equatable, Sendable {
    public var image: RGBImage
    public var boxes: [Box]
    public var labels: [Int32]
    public var imageID: String
}

enum Augment {
    /// Letterboxes the screen into `size` (top-left, aspect kept); boxes follow.
    static func letterbox(_ s: inout Sample, to size: Size) {
        let (image, box) = s.image.letterboxed(into: size)
        var boxes: [Box] = [], labels: [Int32] = []
        for (b, l) in zip(s.boxes, s.labels) {
            let moved = box.forward(b).clipped(to: size)
            guard moved.isValid else { continue }
            boxes.append(moved)
            labels.append(l)
        }
        s = Sample(image: image, boxes: boxes, labels: labels, imageID: s.imageID)
    }

    /// Zooms by `scale` about a random point and crops or pads back to the same size.
    /// Boxes follow; a box keeping less than `minVisible` of its area is dropped.
    static func scaleCrop(_ s: inout Sample, scale: Float, minVisible: Float, g: inout SeededGenerator) {
        let size = s.image.size
        let scaled = Size(width: max(1, Int((Float(size.width) * scale).rounded())), height: max(1, Int((Float(size.height) * scale).rounded())))
        let sx = Float(scaled.width) / Float(size.width), sy = Float(scaled.height) / Float(size.height)
        // Offset of the resized image inside the output: negative when cropping, positive when padding.
        let dx = scaled.width >= size.width ? -g.int(0...(scaled.width - size.width)) : g.int(0...(size.width - scaled.width))
        let dy = scaled.height >= size.height ? -g.int(0...(scaled.height - size.height)) : g.int(0...(size.height - scaled.height))
        // Only the part of the zoomed picture that stays inside the output is resampled.
        let columns = max(0, -dx)..<min(scaled.width, size.width - dx), rows = max(0, -dy)..<min(scaled.height, size.height - dy)
        let out: RGBImage
        if columns.count == size.width && rows.count == size.height {
            // A zoom in covers the whole output: nothing to pad.
            out = scaled == size ? s.image : s.image.resized(to: scaled, columns: columns, rows: rows)
        } else {
            var padded = RGBImage(size: size, fill: RGB(114, 114, 114))
            if !columns.isEmpty && !rows.isEmpty { padded.paste(s.image.resized(to: scaled, columns: columns, rows: rows), x: max(0, dx), y: max(0, dy)) }
            out = padded
        }
        var boxes: [Box] = [], labels: [Int32] = []
        for (b, l) in zip(s.boxes, s.labels) {
            let moved = b.transformed(scaleX: sx, scaleY: sy, offsetX: Float(dx), offsetY: Float(dy))
            let kept = moved.clipped(to: size)
            guard kept.isValid, kept.area >= Double(minVisible) * moved.area else { continue }
            boxes.append(kept)
            labels.append(l)
        }
        s = Sample(image: out, boxes: boxes, labels: labels, imageID: s.imageID)
    }

    static func flipHorizontally(_ s: inout Sample) {
        let w = s.image.width
        var out = s.image
        s.image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<s.image.height {
                    for x in 0..<w { for c in 0..<3 { dst[(y * w + x) * 3 + c] = src[(y * w + (w - 1 - x)) * 3 + c] } }
                }
            }
        }
        s.image = out
        s.boxes = s.boxes.map { Box(xMin: Float(w) - $0.xMax, yMin: $0.yMin, xMax: Float(w) - $0.xMin, yMax: $0.yMax) }
    }

    /// Brightness, contrast, saturation and hue jitter in one pass over the pixels.
    static func photometric(_ s: inout Sample, _ o: AugmentationOptions, g: inout SeededGenerator) {
        let brightness = 1 + g.uniform(-o.brightness...o.brightness)
        let contrast = 1 + g.uniform(-o.contrast...o.contrast)
        let saturation = 1 + g.uniform(-o.saturation...o.saturation)
        let angle = g.uniform(-o.hue...o.hue) * 2 * .pi
        // Hue rotation about the grey axis (a rotation in YIQ), folded into one 3x3 matrix.
        let (c, sn) = (cosf(angle), sinf(angle))
        let m: [Float] = [
            0.299 + 0.701 * c + 0.168 * sn, 0.587 - 0.587 * c + 0.330 * sn, 0.114 - 0.114 * c - 0.497 * sn,
            0.299 - 0.299 * c - 0.328 * sn, 0.587 + 0.413 * c + 0.035 * sn, 0.114 - 0.114 * c + 0.292 * sn,
            0.299 - 0.300 * c + 1.250 * sn, 0.587 - 0.588 * c - 1.050 * sn, 0.114 + 0.886 * c - 0.203 * sn,
        ]
        // Hue, saturation, contrast and brightness are each affine in (r, g, b), so the pixel pass
        // applies their composition: one 3x3 matrix and one offset.
        let luma: (Float, Float, Float) = (0.299, 0.587, 0.114)
        let n = s.image.width * s.image.height
        let sums = s.image.channelSums
        let mean = (luma.0 * Float(sums.0) + luma.1 * Float(sums.1) + luma.2 * Float(sums.2)) / Float(max(1, n))
        // Saturation: sat * v + (1 - sat) * grey(v), grey = luma . v; then contrast and brightness scale it.
        let k = brightness * contrast
        var a = [Float](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                let mixed = saturation * m[3 * row + col] + (1 - saturation) * (luma.0 * m[col] + luma.1 * m[3 + col] + luma.2 * m[6 + col])
                a[3 * row + col] = k * mixed
            }
        }
        let offset = brightness * (1 - contrast) * mean
        s.image = s.image.colorMapped(matrix: a, offset: offset)
    }

    /// Pastes `patch` (an instance of class `label`) at a random place that overlaps no existing box.
    static func paste(_ patch: RGBImage, label: Int32, into s: inout Sample, g: inout SeededGenerator) {
        let w = patch.width, h = patch.height
        guard w >= 2, h >= 2, w < s.image.width, h < s.image.height else { return }
        for _ in 0..<12 {
            let x = g.int(0...(s.image.width - w)), y = g.int(0...(s.image.height - h))
            let box = Box(xMin: Float(x), yMin: Float(y), xMax: Float(x + w), yMax: Float(y + h))
            if s.boxes.contains(where: { $0.intersectionArea(box) > 0 }) { continue }
            s.image.paste(patch, x: x, y: y)
            s.boxes.append(box)
            s.labels.append(label)
            return
        }
    }
}
