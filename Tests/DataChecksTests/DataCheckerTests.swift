import Boxes
import DataChecks
import Foundation
import Images
import Shards
import TestSupport
import XCTest

/// A screen-like picture: a background and a few filled rectangles, all from `seed`.
func sketch(seed: UInt64, size: Size = Size(width: 48, height: 96)) -> RGBImage {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func next(_ n: Int) -> Int { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return Int(state % UInt64(n)) }
    var image = RGBImage(size: size, fill: RGB(UInt8(next(256)), UInt8(next(256)), UInt8(next(256))))
    for _ in 0..<8 {
        let x0 = next(size.width - 4), y0 = next(size.height - 4)
        let x1 = x0 + 2 + next(size.width - x0 - 1), y1 = y0 + 2 + next(size.height - y0 - 1)
        let c = [UInt8(next(256)), UInt8(next(256)), UInt8(next(256))]
        for y in y0..<min(y1, size.height) { for x in x0..<min(x1, size.width) { for k in 0..<3 { image.pixels[(y * size.width + x) * 3 + k] = c[k] } } }
    }
    return image
}

/// `image` a little brighter with a faint speckle: what re-encoding and retouching leave of a copy.
func retouched(_ image: RGBImage) -> RGBImage {
    var copy = image
    for i in copy.pixels.indices { copy.pixels[i] = UInt8(min(255, Int(copy.pixels[i]) + 3 + (i % 7 == 0 ? 2 : 0))) }
    return copy
}

/// A screen of `image` with the given boxes (all class `label` unless `labels` says otherwise).
func screen(_ id: String, group: String? = nil, image: RGBImage, boxes: [Box] = [Box(xMin: 4, yMin: 4, xMax: 20, yMax: 20)], labels: [Int32]? = nil) -> ScreenRecord {
    ScreenRecord(imageID: id, groupID: group ?? id, image: image, boxes: boxes, labels: labels ?? boxes.map { _ in 0 })
}

/// The classes of these tests' shards.
let checkedClasses = ["button", "text"]

final class PerceptualHashTests: XCTestCase {
    func testCopiesStayCloseAndDifferentScreensFar() {
        let a = sketch(seed: 1)
        XCTAssertEqual(PerceptualHash(a), PerceptualHash(a))
        XCTAssertLessThanOrEqual(PerceptualHash(a).distance(to: PerceptualHash(retouched(a))), 4)
        // A copy stored at another size (as another import would store it) stays close too.
        XCTAssertLessThanOrEqual(PerceptualHash(a).distance(to: PerceptualHash(a.resized(to: Size(width: 96, height: 192)))), 12)
        for seed in 2...20 as ClosedRange<UInt64> {
            XCTAssertGreaterThan(PerceptualHash(a).distance(to: PerceptualHash(sketch(seed: seed))), 3 * DataCheckOptions().maxHashDistance, "seed \(seed)")
        }
    }

    func testBitsFollowBrightness() {
        // Brightness falling to the right, rising downwards: in every pair the left and the lower cell are brighter.
        var ramp = RGBImage(size: Size(width: 80, height: 160))
        for y in 0..<160 { for x in 0..<80 { for k in 0..<3 { ramp.pixels[(y * 80 + x) * 3 + k] = UInt8(160 - 2 * x + y / 2) } } }
        let bits = PerceptualHash(ramp).words.flatMap { w in (0..<64).map { (w >> UInt64($0)) & 1 } }
        let horizontal = 7 * 16
        for k in 0..<horizontal { XCTAssertEqual(bits[2 * k], 1, "left brighter, comparison \(k)"); XCTAssertEqual(bits[2 * k + 1], 0) }
        for k in horizontal..<(horizontal + 8 * 15) { XCTAssertEqual(bits[2 * k], 0); XCTAssertEqual(bits[2 * k + 1], 1, "lower brighter, comparison \(k)") }
        XCTAssertEqual(PerceptualHash.bitCount, 464)
        // A flat image sets no bit, whatever faint noise it carries.
        var flat = RGBImage(size: Size(width: 80, height: 160), fill: RGB(90, 90, 90))
        for i in stride(from: 0, to: flat.pixels.count, by: 5) { flat.pixels[i] = 91 }
        XCTAssertEqual(PerceptualHash(flat).words, [UInt64](repeating: 0, count: PerceptualHash.wordCount))
        // Smaller than the 8 x 16 grid: still a hash, no trap.
        _ = PerceptualHash(RGBImage(size: Size(width: 3, height: 2), fill: RGB(1, 2, 3)))
    }
}

final class DataCheckerTests: XCTestCase {
    func testACopyInTheTestSplitIsLeakageNamingBothScreens() throws {
        let dir = try scratchFolder(prefix: "datachecks-leak")
        let train = try writeShard((0..<4).map { screen("tr-\($0)", image: sketch(seed: UInt64($0))) }, to: dir.appendingPathComponent("train/a.h5"), classNames: checkedClasses)
        let test = try writeShard([screen("te-0", image: retouched(sketch(seed: 2))), screen("te-1", image: sketch(seed: 50))],
                                  to: dir.appendingPathComponent("test/b.h5"), classNames: checkedClasses)
        var options = DataCheckOptions()
        options.minBoxesPerClass = 0
        let report = try DataChecker(options: options).check([
            CheckedSplit(name: "train", set: try ShardSet([train.path])), CheckedSplit(name: "test", set: try ShardSet([test.path])),
        ])
        let leaks = report.findings(.nearDuplicate)
        XCTAssertEqual(leaks.count, 1, "\(leaks)")
        XCTAssertEqual(leaks.first?.screens.map(\.imageID), ["tr-2", "te-0"])
        XCTAssertEqual(leaks.first?.screens.map(\.shard), [train.path, test.path])
        XCTAssertEqual(leaks.first?.screens.map(\.index), [2, 0])
        XCTAssertEqual(leaks.first?.severity, .error)
        XCTAssertFalse(report.passed)
        XCTAssertEqual(report.errors, 1)
        XCTAssertTrue(report.text().contains("'te-0' (\(test.path) screen 0)"), report.text())
        XCTAssertTrue(report.text().contains("FAILED"))

        // The same screens within one split are not leakage.
        let alone = try DataChecker(options: options).check([CheckedSplit(name: "all", set: try ShardSet([train.path, test.path]))])
        XCTAssertTrue(alone.passed, "\(alone.findings)")
    }

    func testBoxAndScreenChecksFindEachHandMadeFault() throws {
        let dir = try scratchFolder(prefix: "datachecks-boxes")
        let image = sketch(seed: 7)  // 48 x 96
        let good = Box(xMin: 4, yMin: 4, xMax: 20, yMax: 20)
        let records = [
            screen("dup", image: image, boxes: [good, good, Box(xMin: 4.1, yMin: 4, xMax: 20, yMax: 20), good], labels: [0, 0, 1, 1]),
            screen("near-dup", image: image, boxes: [good, Box(xMin: 4, yMin: 4, xMax: 20, yMax: 20.2)]),
            screen("same-place-other-class", image: image, boxes: [good, good], labels: [0, 1]),
            screen("tiny", image: image, boxes: [Box(xMin: 5, yMin: 5, xMax: 7, yMax: 30)]),
            screen("cut", image: image, boxes: [Box(xMin: 30, yMin: 80, xMax: 53, yMax: 96.4)]),
            screen("empty", image: image, boxes: []),
        ]
        let shard = try writeShard(records, to: dir.appendingPathComponent("s.h5"), classNames: checkedClasses)
        var options = DataCheckOptions()
        options.minBoxesPerClass = 4
        let report = try DataChecker(options: options).check([CheckedSplit(name: "train", set: try ShardSet([shard.path]))])
        func ids(_ kind: CheckKind) -> [String] { report.findings(kind).flatMap(\.screens).map(\.imageID) }
        XCTAssertEqual(ids(.duplicateBox), ["dup", "dup", "near-dup"], "\(report.findings(.duplicateBox))")
        XCTAssertEqual(ids(.tinyBox), ["tiny"])
        XCTAssertEqual(ids(.boxOutsideImage), ["cut"], "5 px beyond the right edge; 0.4 px below the bottom is rounding")
        XCTAssertEqual(ids(.emptyScreen), ["empty"])
        XCTAssertEqual(report.findings(.emptyScreen).first?.screens.first?.index, 5)
        // 'button' has 7 boxes, 'text' 3: only 'text' is under 4.
        XCTAssertEqual(report.findings(.rareClass).map(\.message), ["split 'train': class 'text' has 3 boxes, fewer than 4"])
        XCTAssertTrue(report.passed, "warnings do not fail the check")
        XCTAssertEqual(report.warnings, report.findings.count)
        XCTAssertEqual(report.splits.first?.classes, ["button": 7, "text": 3])
        XCTAssertEqual(report.imageSizes.stored, [SizeCount(size: "48x96", screens: 6)])
        XCTAssertEqual(report.imageSizes.aspectRange, [2, 2])
    }

    func testAGroupOnTwoSidesIsAnError() throws {
        let dir = try scratchFolder(prefix: "datachecks-groups")
        let a = try writeShard([screen("a0", group: "mail", image: sketch(seed: 1)), screen("a1", group: "maps", image: sketch(seed: 2))],
                               to: dir.appendingPathComponent("a.h5"), classNames: checkedClasses)
        let b = try writeShard([screen("b0", group: "notes", image: sketch(seed: 3)), screen("b1", group: "mail", image: sketch(seed: 4))],
                               to: dir.appendingPathComponent("b.h5"), classNames: checkedClasses)
        let report = try DataChecker().check([CheckedSplit(name: "train", set: try ShardSet([a.path])), CheckedSplit(name: "val", set: try ShardSet([b.path]))])
        XCTAssertEqual(report.findings(.groupInTwoSplits).map(\.message), ["group 'mail' has screens in 'train' and 'val'"])
        XCTAssertEqual(report.findings(.groupInTwoSplits).first?.screens.map(\.imageID), ["a0", "b1"])
        XCTAssertFalse(report.passed)
        XCTAssertTrue(report.findings(.nearDuplicate).isEmpty)
    }

    func testTheSameShardInTwoSplitsIsRefusedNamingIt() throws {
        let dir = try scratchFolder(prefix: "datachecks-twice")
        let a = try writeShard([screen("a0", image: sketch(seed: 1))], to: dir.appendingPathComponent("a.h5"), classNames: checkedClasses)
        XCTAssertThrowsError(try DataChecker().check([CheckedSplit(name: "train", set: try ShardSet([dir.path])), CheckedSplit(name: "test", set: try ShardSet([a.path]))])) {
            XCTAssertEqual($0 as? DataCheckError, .shardInTwoSplits(path: a.path, first: "train", second: "test"))
            XCTAssertTrue("\($0)".contains("a.h5: given in split 'train' and again in split 'test'"), "\($0)")
        }
    }

    func testThousandsOfScreensHashInSeconds() throws {
        let dir = try scratchFolder(prefix: "datachecks-speed")
        // 2,000 screens of 64 x 128 in two splits: the hashing, not the pair comparison, dominates.
        let images = (0..<20).map { sketch(seed: UInt64($0), size: Size(width: 64, height: 128)) }
        for part in ["train", "test"] {
            _ = try writeShard((0..<1000).map { screen("\(part)-\($0)", image: images[($0 * 7 + (part == "test" ? 3 : 0)) % 20]) },
                               to: dir.appendingPathComponent("\(part)/s.h5"), classNames: checkedClasses)
        }
        let start = Date()
        let report = try DataChecker().check(["train", "test"].map { CheckedSplit(name: $0, set: try! ShardSet([dir.appendingPathComponent($0).path])) })
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(report.findings(.nearDuplicate).count, 1000 * 50, "each screen matches the 50 copies of its picture in the other split")
        XCTAssertLessThan(seconds, 20, "debug build, shared machine: generous")
    }
}
