import Boxes
import Images
import SeededRandom
import Shards
@testable import Synthesis
import XCTest

final class SynthesisTests: XCTestCase {
    func testSameSeedSameScreenAnyOrder() throws {
        let a = try ScreenSynthesizer(seed: 3, appCount: 5)
        let b = try ScreenSynthesizer(seed: 3, appCount: 5)
        let forward = (0..<6).map { a.screen(index: $0) }
        let backward = (0..<6).reversed().map { b.screen(index: $0) }.reversed()
        XCTAssertEqual(forward, Array(backward))
        XCTAssertNotEqual(try ScreenSynthesizer(seed: 4, appCount: 5).screen(index: 0).image, forward[0].image)
    }

    func testBoxesAreValidInsideTheImageAndCoverEveryClass() throws {
        let size = Size(width: 200, height: 440)  // not the default: layout must scale
        let synth = try ScreenSynthesizer(size: size, seed: 11, appCount: 20)
        var counts = [Int](repeating: 0, count: defaultClassNames.count)
        var groups = Set<String>()
        var letterboxed = 0
        for i in 0..<400 {
            let s = synth.screen(index: i)
            XCTAssertEqual(s.image?.size, size)
            groups.insert(s.groupID)
            // The device's screenshot, letterboxed: its scaled size fits the stored image.
            let original = try XCTUnwrap(s.originalSize)
            let scale = min(Float(size.width) / Float(original.width), Float(size.height) / Float(original.height))
            let content = (Float(original.width) * scale, Float(original.height) * scale)
            if content.0 < Float(size.width) - 1 || content.1 < Float(size.height) - 1 { letterboxed += 1 }
            for (b, l) in zip(s.boxes, s.labels) {
                XCTAssertTrue(b.isValid, "\(b)")
                XCTAssertTrue(b.xMin >= 0 && b.yMin >= 0 && b.xMax <= content.0 + 1 && b.yMax <= content.1 + 1, "\(b) outside the screen \(content) of \(size)")
                counts[Int(l)] += 1
            }
        }
        for (k, n) in counts.enumerated() { XCTAssertGreaterThan(n, 0, "no \(defaultClassNames[k]) in 400 screens") }
        // Imbalanced as in the paper: text most, slider least.
        XCTAssertEqual(counts.firstIndex(of: counts.max()!), defaultClassNames.firstIndex(of: "text"))
        XCTAssertEqual(counts.firstIndex(of: counts.min()!), defaultClassNames.firstIndex(of: "slider"))
        XCTAssertGreaterThan(groups.count, 10)
        XCTAssertGreaterThan(letterboxed, 100, "devices of other aspect ratios than the stored image")
    }

    func testTextBoxesHoldInkAndToggleBoxesHoldTheSwitch() throws {
        let synth = try ScreenSynthesizer(seed: 2, appCount: 3)
        var checked = 0
        for i in 0..<40 {
            let s = synth.screen(index: i)
            let image = try XCTUnwrap(s.image)
            for (b, l) in zip(s.boxes, s.labels) where defaultClassNames[Int(l)] == "text" || defaultClassNames[Int(l)].hasPrefix("toggle") {
                // The content differs from a flat fill: something is drawn inside the box.
                let crop = image.cropped(x0: Int(b.xMin), y0: Int(b.yMin), x1: Int(b.xMax.rounded(.up)), y1: Int(b.yMax.rounded(.up)))
                var colours = Set<Int>()
                for p in stride(from: 0, to: crop.pixels.count, by: 3) { colours.insert(Int(crop.pixels[p]) << 16 | Int(crop.pixels[p + 1]) << 8 | Int(crop.pixels[p + 2])) }
                XCTAssertGreaterThan(colours.count, 2, "box \(b) of \(defaultClassNames[Int(l)]) on screen \(i) is blank")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 200)
    }

    /// The description ground truth of many screens keeps the spec's invariants.
    func testGroundTruthIsConsistent() throws {
        let synth = try ScreenSynthesizer(size: Size(width: 256, height: 512), seed: 7, appCount: 30)
        let kind = { (name: String) in Int32(defaultClassNames.firstIndex(of: name)!) }
        var tabScreens = 0, tabScreensWithSelection = 0, segmentControls = 0, grouped = 0, behindDialogs = 0
        for i in 0..<300 {
            let s = synth.screen(index: i)
            let m = s.boxes.count
            let (groupIndex, navOrder, selected) = (try XCTUnwrap(s.groupIndex), try XCTUnwrap(s.navOrder), try XCTUnwrap(s.selected))
            let (interactive, texts, kinds) = (try XCTUnwrap(s.interactive), try XCTUnwrap(s.texts), try XCTUnwrap(s.groupKinds))
            XCTAssertEqual([groupIndex.count, navOrder.count, selected.count, interactive.count, texts.count, kinds.count], [Int](repeating: m, count: 6))
            // Every group's members share one rank and one kind; ranks of top-level elements are 0..<k.
            var rankOf: [String: Int32] = [:]
            for j in 0..<m {
                XCTAssertEqual(kinds[j].isEmpty, groupIndex[j] == -1, "screen \(i) box \(j)")
                let element = groupIndex[j] >= 0 ? "g\(groupIndex[j])" : "b\(j)"
                if let r = rankOf[element] { XCTAssertEqual(r, navOrder[j], "screen \(i): members of \(element) differ in nav_order") } else { rankOf[element] = navOrder[j] }
            }
            let ranks = rankOf.values.filter { $0 >= 0 }.sorted()
            XCTAssertEqual(ranks, (0..<Int32(ranks.count)).map { $0 }, "screen \(i): nav_order is not a permutation over top-level elements")
            for g in Set(groupIndex.filter { $0 >= 0 }) {
                let members = (0..<m).filter { groupIndex[$0] == g }
                XCTAssertEqual(Set(members.map { kinds[$0] }).count, 1)
                if kinds[members[0]] == "group" { XCTAssertGreaterThanOrEqual(members.count, 2, "screen \(i): a group of one") }
                grouped += 1
            }
            // Text boxes carry the string drawn, other classes none; states by class.
            for j in 0..<m {
                XCTAssertEqual(texts[j].isEmpty, s.labels[j] != kind("text"), "screen \(i) box \(j) '\(texts[j])'")
                XCTAssertTrue([0, 1].contains(interactive[j]))
                // Out of a screen reader's reach (behind a shown dialog) no state applies.
                if navOrder[j] < 0 { XCTAssertEqual(selected[j], -1, "screen \(i) box \(j): a state out of the order"); continue }
                if s.labels[j] == kind("toggle_selected") || s.labels[j] == kind("checkbox_selected") { XCTAssertEqual(selected[j], 1) }
                if s.labels[j] == kind("toggle_unselected") || s.labels[j] == kind("checkbox_unselected") { XCTAssertEqual(selected[j], 0) }
                if [kind("text_field"), kind("segmented_control"), kind("slider"), kind("page_control")].contains(s.labels[j]) { XCTAssertEqual(interactive[j], 1) }
                if s.labels[j] == kind("picture") { XCTAssertEqual(selected[j], -1) }
            }
            // Tab buttons: both members carry the state; one bar has exactly one selected.
            let tabs = Set((0..<m).filter { kinds[$0] == "tab_button" && navOrder[$0] >= 0 }.map { groupIndex[$0] })
            if !tabs.isEmpty {
                tabScreens += 1
                var on = 0
                for t in tabs {
                    let states = Set((0..<m).filter { groupIndex[$0] == t }.map { selected[$0] })
                    XCTAssertEqual(states.count, 1, "screen \(i): a tab button's members disagree")
                    if states == [1] { on += 1 }
                }
                // A drawer or sheet may hide the selected one; never two.
                XCTAssertLessThanOrEqual(on, 1, "screen \(i): \(on) selected tab buttons")
                if on == 1 { tabScreensWithSelection += 1 }
            }
            // Segments: one box each; the segments of a control (same row, touching) have exactly one selected.
            let segments = (0..<m).filter { s.labels[$0] == kind("segmented_control") && navOrder[$0] >= 0 }.sorted { s.boxes[$0].xMin < s.boxes[$1].xMin }
            var controls: [[Int]] = []
            for j in segments {
                if let k = controls.firstIndex(where: { c in let b = s.boxes[c.last!]; return abs(b.yMin - s.boxes[j].yMin) < 0.5 && abs(b.xMax - s.boxes[j].xMin) < 1.5 }) {
                    controls[k].append(j)
                } else { controls.append([j]) }
            }
            for c in controls where c.count >= 2 {
                // A control cut by the screen's edge or a cover may have lost its selected segment.
                if c.contains(where: { selected[$0] == 1 }) { XCTAssertEqual(c.filter { selected[$0] == 1 }.count, 1, "screen \(i)") }
                XCTAssertTrue(c.allSatisfy { selected[$0] == 0 || selected[$0] == 1 })
                segmentControls += 1
            }
            // Behind a shown dialog nothing is in the order but the dialog and what lies inside it.
            if let d = (0..<m).first(where: { s.labels[$0] == kind("dialog") && navOrder[$0] >= 0 }) {
                behindDialogs += 1
                for j in 0..<m where navOrder[j] >= 0 {
                    XCTAssertGreaterThan(s.boxes[j].intersectionArea(s.boxes[d]), 0.9 * s.boxes[j].area, "screen \(i): box \(j) in the order outside the dialog")
                }
            }
        }
        XCTAssertGreaterThan(tabScreens, 30)
        XCTAssertGreaterThan(tabScreensWithSelection, tabScreens * 9 / 10)
        XCTAssertGreaterThan(segmentControls, 10)
        XCTAssertGreaterThan(grouped, 1000)
        XCTAssertGreaterThan(behindDialogs, 5)
    }

    /// A screen built by hand from the synthesizer's pieces, its ground truth checked element by element.
    func testHandBuiltScreen() throws {
        let fonts = try FontSet()
        let style = AppStyle(app: 0, seed: 1)
        let device = Device.androidPhones[0]
        var c = Canvas(size: Size(width: 360, height: 640), device: device, style: style, fonts: fonts, glyphs: try GlyphPainter(), generator: SeededGenerator(seed: 9))
        // Content: a heading, a two-line paragraph, a segmented control of three, a checkbox row.
        let heading = c.text("Weather", x: 16, baseline: 120, points: 20, color: style.label, face: .bold)
        let lines = c.paragraph("one two three four five six seven eight nine ten eleven twelve", x: 16, baseline: 160, width: 150, points: 14, color: style.label, maxLines: 2)
        _ = c.segmentedControl(left: 16, right: 316, top: 220, labels: ["Day", "Week", "Month"])
        c.beginGroup()
        c.checkbox(x: 16, centerY: 300, checked: true)
        c.text("Remember me", x: 50, baseline: 305, points: 14, color: style.label)
        c.endGroup()
        // A bar drawn after the content still comes first; the tab bar last.
        c.layer = .topBar
        c.text("Title", x: 72, baseline: 50, points: 20, color: style.label, interactive: false)
        c.layer = .bottomBar
        c.tabButtons(top: 584, height: 56, background: style.background, coloured: false, ios: false)
        let t = c.groundTruth()

        let text = Int32(defaultClassNames.firstIndex(of: "text")!), segment = Int32(defaultClassNames.firstIndex(of: "segmented_control")!)
        XCTAssertNotNil(heading)
        XCTAssertGreaterThan(lines, 160 + 14, "two lines drawn")
        // The title is first, then heading, paragraph (one group), three segments, the checkbox row (one group), tab buttons.
        let titleRow = try XCTUnwrap(t.texts.firstIndex(of: "Title"))
        XCTAssertEqual(t.navOrder[titleRow], 0)
        XCTAssertEqual(t.navOrder[try XCTUnwrap(t.texts.firstIndex(of: "Weather"))], 1)
        let paragraph = t.texts.indices.filter { t.labels[$0] == text && t.navOrder[$0] == 2 }
        XCTAssertEqual(paragraph.count, 2)
        XCTAssertTrue(t.texts[paragraph[0]].hasPrefix("one two"))
        XCTAssertEqual(Set(paragraph.map { t.groupIndex[$0] }).count, 1)
        XCTAssertEqual(t.groupKinds[paragraph[0]], "group")
        let segments = t.labels.indices.filter { t.labels[$0] == segment }
        XCTAssertEqual(segments.count, 3, "one box per segment")
        XCTAssertEqual(segments.map { t.navOrder[$0] }, [3, 4, 5])
        XCTAssertEqual(segments.filter { t.selected[$0] == 1 }.count, 1)
        XCTAssertTrue(segments.allSatisfy { t.groupIndex[$0] == -1 && t.interactive[$0] == 1 })
        let remember = try XCTUnwrap(t.texts.firstIndex(of: "Remember me"))
        let checkbox = try XCTUnwrap(t.labels.firstIndex(of: Int32(defaultClassNames.firstIndex(of: "checkbox_selected")!)))
        XCTAssertEqual(t.groupIndex[remember], t.groupIndex[checkbox])
        XCTAssertEqual(t.navOrder[remember], 6)
        XCTAssertEqual(t.selected[checkbox], 1)
        let tabs = t.groupKinds.indices.filter { t.groupKinds[$0] == "tab_button" }
        XCTAssertGreaterThanOrEqual(Set(tabs.map { t.groupIndex[$0] }).count, 3)
        XCTAssertEqual(tabs.map { t.navOrder[$0] }.min(), 7, "the tab bar comes last")
        XCTAssertEqual(t.navOrder.max(), Int32(6 + Set(tabs.map { t.groupIndex[$0] }).count))
    }

    /// A text box's string is exactly what was drawn, truncation included: drawing the recorded string
    /// again at the same place gives the same pixels and the same ink box.
    func testTextRecordsTheStringDrawn() throws {
        let fonts = try FontSet()
        for app in 0..<6 {
            let style = AppStyle(app: app, seed: 4)
            var c = Canvas(size: Size(width: 300, height: 200), device: Device.iPhones[0], style: style, fonts: fonts, glyphs: try GlyphPainter(), generator: SeededGenerator(seed: 1))
            let long = "Notifications and privacy settings for every account"
            let ink = try XCTUnwrap(c.text(long, x: 20, baseline: 100, points: 16, color: style.label, maxWidth: 120))
            let t = c.groundTruth()
            let shown = try XCTUnwrap(t.texts.first)
            XCTAssertTrue(long.hasPrefix(shown.replacingOccurrences(of: "…", with: "")), shown)
            XCTAssertLessThan(shown.count, long.count)
            XCTAssertEqual(shown.hasSuffix("…"), style.ellipsis)
            var probe = RGBImage(size: c.image.size, fill: style.background)
            let again = probe.draw(text: shown, x: 20, baseline: 100, font: c.font(.regular), pixelSize: c.pixelSize(16), color: style.label)
            XCTAssertEqual(again, ink)
            XCTAssertEqual(t.boxes, [ink])
            XCTAssertEqual(probe, c.image)
        }
    }

    /// The fast rounded fill paints what `fillRounded` paints, up to a rounding step; with square corners
    /// (radius under half a pixel) it fills the inside fully (`fillRounded` paints it at half strength).
    func testPaintRoundedMatchesFillRounded() {
        let boxes = [Box(xMin: 3.3, yMin: 2.7, xMax: 40.2, yMax: 30.9), Box(xMin: -5, yMin: 10, xMax: 20, yMax: 14.5), Box(xMin: 10, yMin: 10, xMax: 10.8, yMax: 40)]
        for box in boxes {
            var square = RGBImage(size: Size(width: 48, height: 40), fill: RGB(30, 200, 90))
            square.paintRounded(box, radius: 0, color: RGB(250, 10, 120))
            XCTAssertEqual(square.pixel(x: 12, y: 12), box.width > 1 ? RGB(250, 10, 120) : square.pixel(x: 12, y: 12))
            for (radius, alpha) in [(Float(0.5), Float(1)), (4, 1), (0.8, 0.6), (20, 0.5), (7.5, 1)] {
                var a = RGBImage(size: Size(width: 48, height: 40), fill: RGB(30, 200, 90)), b = a
                a.fillRounded(box, radius: radius, color: RGB(250, 10, 120), alpha: alpha)
                b.paintRounded(box, radius: radius, color: RGB(250, 10, 120), alpha: alpha)
                let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max()!
                XCTAssertLessThanOrEqual(worst, 1, "\(box) radius \(radius)")
            }
        }
    }

    /// A cover drops what it hides and clips what it cuts; a modal one takes the rest out of the order.
    func testOcclusionDropsClipsAndTakesOutOfOrder() throws {
        let fonts = try FontSet()
        let style = AppStyle(app: 3, seed: 2)
        var c = Canvas(size: Size(width: 300, height: 600), device: Device.iPhones[0], style: style, fonts: fonts, glyphs: try GlyphPainter(), generator: SeededGenerator(seed: 1))
        c.annotate(Box(xMin: 10, yMin: 100, xMax: 290, yMax: 300), .picture)
        c.annotate(Box(xMin: 10, yMin: 400, xMax: 100, yMax: 420), .text, text: "Hidden")
        c.annotate(Box(xMin: 10, yMin: 330, xMax: 100, yMax: 350), .text, text: "Kept")
        c.occlude(Box(xMin: 0, yMin: 250, xMax: 300, yMax: 600), modal: false)
        c.annotate(Box(xMin: 0, yMin: 250, xMax: 300, yMax: 600), .dialog)
        var t = c.groundTruth()
        XCTAssertEqual(t.boxes, [Box(xMin: 10, yMin: 100, xMax: 290, yMax: 250), Box(xMin: 0, yMin: 250, xMax: 300, yMax: 600)])
        XCTAssertEqual(t.navOrder, [0, 1])
        c = Canvas(size: Size(width: 300, height: 600), device: Device.iPhones[0], style: style, fonts: fonts, glyphs: try GlyphPainter(), generator: SeededGenerator(seed: 1))
        c.annotate(Box(xMin: 10, yMin: 10, xMax: 100, yMax: 30), .text, text: "Behind")
        c.occlude(Box(xMin: 50, yMin: 200, xMax: 250, yMax: 400), modal: true)
        c.annotate(Box(xMin: 50, yMin: 200, xMax: 250, yMax: 400), .dialog)
        c.annotate(Box(xMin: 60, yMin: 210, xMax: 200, yMax: 230), .text, text: "Delete?")
        t = c.groundTruth()
        XCTAssertEqual(t.navOrder, [-1, 0, 1])
        XCTAssertEqual(t.texts, ["Behind", "", "Delete?"])
    }
}
