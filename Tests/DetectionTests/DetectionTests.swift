import Boxes
import Detection
import Engine
import Layers
import TestSupport
import XCTest

final class DetectionTests: XCTestCase {
    func testParameterCountsAndAnchorsMatchTheSpec() {
        var g = SeededGenerator(seed: 1)
        XCTAssertEqual(SSDModel(config: .bench, generator: &g).parameterCount, 1_250_024)
        XCTAssertEqual(SSDModel(config: .paperSize, generator: &g).parameterCount, 5_512_136)
        XCTAssertEqual(AnchorGenerator(config: .bench).count, 21_760)
        XCTAssertEqual(AnchorGenerator(config: .bench).anchors().count, 21_760)
    }

    func testOutputShapesAndOrderOnASmallNonSquareInput() {
        var c = SSDConfig()
        c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 16; c.headLayers = 1; c.numClasses = 3
        var g = SeededGenerator(seed: 2)
        let model = SSDModel(config: c, generator: &g)
        let images = Tensor.randomUniform([2, 128, 64, 3], in: -1...1, using: &g)
        let (logits, deltas) = Autodiff.withoutTape { model.outputs(images: images, mode: .inference) }
        let anchors = AnchorGenerator(config: c)
        XCTAssertEqual(logits.shape, [2, anchors.count, 3])
        XCTAssertEqual(deltas.shape, [2, anchors.count, 4])
        // Class bias starts at -log(99): sigmoid 0.01 everywhere, nearly (weights are N(0, 0.01)).
        XCTAssertEqual(logits.scalars.reduce(0, +) / Float(logits.count), -logf(99), accuracy: 0.05)
        XCTAssertTrue(c.problems().isEmpty)
        var bad = c
        bad.inputWidth = 100
        XCTAssertEqual(bad.problems().first?.key, "input_width")
    }

    func testAnchorsFollowTheSpecLayout() {
        let anchors = AnchorGenerator(config: .bench).anchors()
        // Level 3, row 0, column 0: scale index 0, ratio 0.5 first: base 16, w = 16 * sqrt(.5), h = 16 / sqrt(.5), centre (4, 4).
        let first = anchors[0]
        XCTAssertEqual(first.centerX, 4, accuracy: 1e-5)
        XCTAssertEqual(first.width, 16 * Float(0.5).squareRoot(), accuracy: 1e-4)
        XCTAssertEqual(first.height, 16 / Float(0.5).squareRoot(), accuracy: 1e-4)
        // Anchor 5 of the first location: scale index 1 (2^0.5), ratio 1.
        XCTAssertEqual(anchors[5].width, 16 * Float(2).squareRoot(), accuracy: 1e-4)
        // Next location is the next column (x), same row: centre (12, 4).
        XCTAssertEqual(anchors[8].centerX, 12, accuracy: 1e-5)
        XCTAssertEqual(anchors[8].centerY, 4, accuracy: 1e-5)
        // Row 1 of level 3 starts after 32 columns x 8 anchors.
        XCTAssertEqual(anchors[32 * 8].centerY, 12, accuracy: 1e-5)
        // The last anchor is level 6's last location: centre (256 - 32, 512 - 32).
        XCTAssertEqual(anchors.last!.centerX, 224, accuracy: 1e-4)
        XCTAssertEqual(anchors.last!.centerY, 480, accuracy: 1e-4)
    }

    func testBoxCoderRoundTripAndClamp() {
        let coder = BoxCoder()
        let anchor = Box(xMin: 10, yMin: 20, xMax: 30, yMax: 60)
        let box = Box(xMin: 12, yMin: 18, xMax: 40, yMax: 50)
        let d = coder.encode(box, anchor: anchor)
        XCTAssertEqual(d.0, 10 * (26 - 20) / 20, accuracy: 1e-5)
        XCTAssertEqual(d.2, 5 * logf(28 / 20), accuracy: 1e-5)
        let back = coder.decode(d, anchor: anchor)
        XCTAssertEqual(back.xMin, box.xMin, accuracy: 1e-4)
        XCTAssertEqual(back.yMax, box.yMax, accuracy: 1e-4)
        let huge = coder.decode((0, 0, 1000, 0), anchor: anchor)
        XCTAssertEqual(huge.width, 20 * 1000 / 16, accuracy: 0.01)
    }

    func testMatcherThresholdsAndLowQualityMatches() {
        let boxes = [Box(xMin: 0, yMin: 0, xMax: 10, yMax: 10), Box(xMin: 100, yMin: 100, xMax: 103, yMax: 103)]
        let anchors = [
            Box(xMin: 0, yMin: 0, xMax: 10, yMax: 10),       // IoU 1 -> box 0
            Box(xMin: 0, yMin: 0, xMax: 10, yMax: 22),       // IoU 100/220 = .45 -> ignored
            Box(xMin: 50, yMin: 50, xMax: 60, yMax: 60),     // 0 -> negative
            Box(xMin: 100, yMin: 100, xMax: 110, yMax: 110), // IoU 9/100 with box 1: its best -> positive (low quality)
            Box(xMin: 0, yMin: 0, xMax: 10, yMax: 30),       // .33 -> negative
        ]
        XCTAssertEqual(Matcher().match(anchors: anchors, boxes: boxes), [0, Matcher.ignored, Matcher.negative, 1, Matcher.negative])
        XCTAssertEqual(Matcher().match(anchors: anchors, boxes: []), [Int](repeating: Matcher.negative, count: 5))
    }
}
