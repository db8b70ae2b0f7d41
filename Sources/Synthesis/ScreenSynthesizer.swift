import Boxes
import Foundation
import Images
import SeededRandom
import Shards

/// Renders plausible phone and tablet screens, iOS and Android, with exact boxes for the 13 classes of
/// the default vocabulary (`defaultClassNames`) and the ground truth of screen descriptions: groups,
/// navigation order, selection, interactivity and the strings drawn (screen-description.md,
/// "Ground truth in shards").
///
/// Each screen belongs to one of `appCount` apps (its `groupID`); an app fixes the platform, palette,
/// appearance, fonts, icon style, shapes and language, so that splits by app are meaningful. Each
/// screen is taken on a device of the app's platform (9:16 to 9:21 phones, tablets) and letterboxed
/// into `size` like an imported screenshot (scaled, padded right and bottom), with the device's pixels
/// as its original size. Screen `i` depends only on (seed, i): generation can run in any order or in
/// parallel and give the same bytes.
///
/// Section weights make class frequencies imbalanced as in the paper (paper-facts.md): text most,
/// then icon, container, picture; slider least. Tab-bar items are labelled as their icon and text, as
/// the paper remapped them; segmented controls one box per segment, as in the paper's data.
public final class ScreenSynthesizer {
    public let size: Size
    public let seed: UInt64
    public let appCount: Int
    private let fonts: FontSet
    private let glyphs: GlyphPainter

    /// Classes by name, as indices into `defaultClassNames`.
    enum Kind: Int32 {
        case checkboxUnselected = 0, checkboxSelected, container, dialog, icon, pageControl, picture,
             segmentedControl, slider, text, textField, toggleUnselected, toggleSelected
    }

    public init(size: Size = Size(width: 256, height: 512), seed: UInt64, appCount: Int) throws {
        precondition(size.width >= 64 && size.height >= 64, "screens must be at least 64x64")
        self.size = size
        self.seed = seed
        self.appCount = max(1, appCount)
        fonts = try FontSet()
        glyphs = try GlyphPainter()
    }

    /// Screen `index`: image, boxes, labels and description ground truth.
    public func screen(index: Int) -> ScreenRecord {
        var g = SeededGenerator(seed: seed, index: UInt64(index))
        let app = Int(g.next() % UInt64(appCount))
        let style = AppStyle(app: app, seed: seed)
        let device = Device.pick(style.idiom, &g)
        let content = device.content(in: size)
        var canvas = Canvas(size: content, device: device, style: style, fonts: fonts, glyphs: glyphs, generator: g)
        canvas.compose()
        let truth = canvas.groundTruth()
        var image = canvas.image
        if content != size {
            // Letterboxed: black right and bottom, as the importers pad.
            image = RGBImage(size: size, pixels: [UInt8](repeating: 0, count: size.width * size.height * 3))
            image.composite(canvas.image, x: 0, y: 0, radius: 0)
        }
        // Ids carry the seed, so that screens and apps of two synthetic sets never collide.
        return ScreenRecord(imageID: "synth-s\(seed)-" + String(format: "%08d", index), groupID: "app-s\(seed)-" + String(format: "%05d", app),
                            image: image, boxes: truth.boxes, labels: truth.labels, originalSize: device.pixels,
                            groupIndex: truth.groupIndex, navOrder: truth.navOrder, selected: truth.selected, interactive: truth.interactive,
                            texts: truth.texts, groupKinds: truth.groupKinds, iconTypes: truth.iconTypes)
    }
}

/// A finished screen's annotations as a shard stores them.
struct GroundTruth {
    var boxes: [Box] = [], labels: [Int32] = []
    var groupIndex: [Int32] = [], navOrder: [Int32] = []
    var selected: [Int8] = [], interactive: [Int8] = []
    var texts: [String] = [], groupKinds: [String] = [], iconTypes: [String] = []
}

extension Canvas {
    /// The screen's boxes and their description ground truth: what the screen edges hide is dropped or
    /// clipped like any cover; a group left with one box is no group (a tab button stays one); groups are
    /// numbered in box order; visited top-level elements are ranked by layer, then by drawing order.
    mutating func groundTruth() -> GroundTruth {
        let far: Float = 4 * max(width, height)
        occlude(Box(xMin: -far, yMin: -far, xMax: far, yMax: 0))
        occlude(Box(xMin: -far, yMin: height, xMax: far, yMax: far))
        occlude(Box(xMin: -far, yMin: -far, xMax: 0, yMax: far))
        occlude(Box(xMin: width, yMin: -far, xMax: far, yMax: far))
        let size = image.size
        let kept = annotations.compactMap { a -> Annotation? in
            var a = a
            a.box = a.box.clipped(to: size)
            return a.box.width >= 1 && a.box.height >= 1 ? a : nil
        }
        var members = [Int](repeating: 0, count: elements.count)
        for a in kept { members[a.element] += 1 }
        var grouping = elements.map(\.grouping)
        for e in grouping.indices where grouping[e] == .group && members[e] < 2 { grouping[e] = .single }
        var groupNumber = [Int32](repeating: -1, count: elements.count)
        var groups: Int32 = 0
        for a in kept where grouping[a.element] != .single && groupNumber[a.element] == -1 {
            groupNumber[a.element] = groups
            groups += 1
        }
        let ordered = elements.indices.filter { members[$0] > 0 && elements[$0].visited }.sorted { (elements[$0].layer, $0) < (elements[$1].layer, $1) }
        var rank = [Int32](repeating: -1, count: elements.count)
        for (r, e) in ordered.enumerated() { rank[e] = Int32(r) }
        var t = GroundTruth()
        for a in kept {
            t.boxes.append(a.box)
            t.labels.append(a.kind.rawValue)
            t.groupIndex.append(groupNumber[a.element])
            t.navOrder.append(rank[a.element])
            // Behind a shown dialog a box is out of a screen reader's reach: its state is not applicable
            // (screen-description.md: only the dialog is in the order), as for any box outside the order.
            t.selected.append(elements[a.element].visited ? a.selected : -1)
            t.interactive.append(a.interactive)
            t.texts.append(a.text)
            t.groupKinds.append(grouping[a.element] == .tabButton ? "tab_button" : grouping[a.element] == .group ? "group" : "")
            t.iconTypes.append(a.iconType)
        }
        return t
    }
}
