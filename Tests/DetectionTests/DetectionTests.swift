import Boxes
@testable import Detection
import Engine
import Foundation
import Layers
import Optimizers
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
    /// The census walks the model itself: the spec's shapes and parameter count for `bench`.
    func testConvolutionCensusFollowsTheSpec() {
        var g = SeededGenerator(seed: 1)
        let convs = SSDModel(config: .bench, generator: &g).convolutions(batch: 8)
        let stem = convs[0]
        XCTAssertEqual(stem.name, "backbone.stem")
        XCTAssertEqual([stem.height, stem.width, stem.inChannels, stem.outChannels, stem.stride], [512, 256, 3, 16, 2])
        XCTAssertFalse(stem.inputNeedsGradient, "the image needs no gradient")
        // C3, C4, C5 at strides 8, 16, 32 of a 512 x 256 (H x W) input.
        func named(_ n: String) -> ConvShape { convs.first { $0.name == n }! }
        let (b5, b11, b13) = (named("backbone.b5.pointwise"), named("backbone.b11.pointwise"), named("backbone.b13.pointwise"))
        XCTAssertEqual([b5.outHeight, b5.outWidth, b5.outChannels], [64, 32, 128])
        XCTAssertEqual([b11.outHeight, b11.outWidth, b11.outChannels], [32, 16, 256])
        XCTAssertEqual([b13.outHeight, b13.outWidth, b13.outChannels], [16, 8, 512])
        // Anchors: 8 per location on P3..P6 = (64*32 + 32*16 + 16*8 + 8*4) * 8.
        let classOuts = convs.filter { $0.name.hasPrefix("class_head.out") }
        XCTAssertEqual(classOuts.map { $0.outHeight * $0.outWidth * 8 }.reduce(0, +), 21_760)
        XCTAssertEqual(classOuts.first!.outChannels, 104)
        // Heads run on every level with the same weights: count them once (P3), batch norm beside the backbone's convs.
        let once = convs.filter { !$0.name.contains("_head.") || $0.name.hasSuffix("P3") }
        let batchNorm = 2 * convs.filter { $0.name.hasPrefix("backbone.") }.reduce(0) { $0 + $1.outChannels }
        XCTAssertEqual(once.reduce(0) { $0 + $1.parameters } + batchNorm, 1_250_024)
    }

    /// The model's flattened outputs, checked against its own head run on one level: the row of
    /// anchor j holds the head's output at that anchor's level, row, column and anchor index.
    func testHeadOutputsLieInTheAnchorGeneratorsOrder() {
        var c = SSDConfig()
        c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 8; c.headLayers = 1; c.numClasses = 3
        var g = SeededGenerator(seed: 4)
        let model = SSDModel(config: c, generator: &g)
        let images = Tensor.randomUniform([2, 128, 64, 3], in: -1...1, using: &g)
        let (logits, deltas) = Autodiff.withoutTape { model.outputs(images: images, mode: .inference) }
        var eager = TensorInterpreter(mode: .inference)
        let levels = Autodiff.withoutTape { model.fpn.run(&eager, model.backbone.run(&eager, images, name: "backbone"), name: "fpn") }
        let classMaps = Autodiff.withoutTape { levels.enumerated().map { model.classHead.run(&eager, $1, name: "class_head", level: $0 + 3) } }
        let boxMaps = Autodiff.withoutTape { levels.enumerated().map { model.boxHead.run(&eager, $1, name: "box_head", level: $0 + 3) } }
        let anchors = AnchorGenerator(config: c).anchors()
        let (k, a) = (c.numClasses, c.anchorsPerLocation)
        for j in [0, 1, 7, 8, 9, 100, 1023, 1024, 1200, 1300, anchors.count - 9, anchors.count - 1] {
            // Where anchor j sits, from its geometry alone.
            let box = anchors[j]
            let size = (Double(box.width) * Double(box.height)).squareRoot() / c.anchorScale
            let level = Int(log2(size * 1.0001).rounded(.down))
            let scale = Int((log2(size) - Double(level)) * Double(c.scalesPerOctave) + 0.5)
            let ratio = c.aspectRatios.firstIndex { abs($0 - Double(box.width / box.height)) < 1e-3 }!
            let stride = Float(1 << level)
            let (row, column) = (Int(box.centerY / stride), Int(box.centerX / stride))
            let anchor = scale * c.aspectRatios.count + ratio
            let map = classMaps[level - 3], boxMap = boxMaps[level - 3]
            let (h, w) = (map.shape[1], map.shape[2])
            for n in 0..<2 {
                for cls in 0..<k {
                    let expected = map.scalars[((n * h + row) * w + column) * a * k + anchor * k + cls]
                    XCTAssertEqual(logits.scalars[(n * anchors.count + j) * k + cls], expected, "anchor \(j): level \(level) row \(row) column \(column) anchor \(anchor)")
                }
                for d in 0..<4 {
                    XCTAssertEqual(deltas.scalars[(n * anchors.count + j) * 4 + d], boxMap.scalars[((n * h + row) * w + column) * a * 4 + anchor * 4 + d])
                }
            }
        }
    }

    /// The post-processing as ssd-model.md states it, step by step: the reference the fast one must equal.
    func referencePostProcess(_ logits: [Float], _ deltas: [Float], config c: SSDConfig, settings p: PostProcessing) -> [DetectedBox] {
        let anchors = AnchorGenerator(config: c).anchors(), k = c.numClasses, coder = BoxCoder()
        var candidates: [(anchor: Int, label: Int, score: Float)] = []
        var start = 0
        for l in c.minLevel...c.maxLevel {
            let count = (c.inputHeight >> l) * (c.inputWidth >> l) * c.anchorsPerLocation
            var level: [(anchor: Int, label: Int, score: Float)] = []
            for j in start..<(start + count) { for cls in 0..<k where stableSigmoid(logits[j * k + cls]) > p.scoreFloor {
                level.append((j, cls, stableSigmoid(logits[j * k + cls])))
            } }
            level.sort { $0.score != $1.score ? $0.score > $1.score : ($0.anchor, $0.label) < ($1.anchor, $1.label) }
            candidates += level.prefix(p.candidatesPerLevel)
            start += count
        }
        var byClass: [Int: [(Box, Float)]] = [:]
        for cand in candidates {
            let d = Array(deltas[(cand.anchor * 4)..<(cand.anchor * 4 + 4)])
            let box = coder.decode((d[0], d[1], d[2], d[3]), anchor: anchors[cand.anchor]).clipped(to: c.inputSize)
            if box.isValid { byClass[cand.label, default: []].append((box, cand.score)) }
        }
        var kept: [DetectedBox] = []
        for (label, items) in byClass.sorted(by: { $0.key < $1.key }) {
            kept += nonMaxSuppression(items.map(\.0), scores: items.map(\.1), iouThreshold: p.nmsIoU).map { DetectedBox(box: items[$0].0, label: label, score: items[$0].1) }
        }
        // A stable sort: equal scores of one class keep their NMS order.
        kept = kept.enumerated().sorted { x, y in
            x.element.score != y.element.score ? x.element.score > y.element.score : (x.element.label != y.element.label ? x.element.label < y.element.label : x.offset < y.offset)
        }.map(\.element)
        return Array(kept.prefix(p.maxDetections))
    }

    func testFastPostProcessingEqualsTheSpecsSteps() {
        var g = SeededGenerator(seed: 12)
        var c = SSDConfig()
        c.inputWidth = 128; c.inputHeight = 256; c.alpha = 0.25; c.fpnDepth = 8; c.headLayers = 0
        let model = SSDModel(config: c, generator: &g)
        let a = AnchorGenerator(config: c).count
        for (bias, settings) in [(Float(-2.5), PostProcessing()), (-1, { var p = PostProcessing(); p.candidatesPerLevel = 50; p.maxDetections = 30; return p }()),
                                 (-4, PostProcessing())] {
            // Scores around the floor and many overlapping boxes; a few exact ties.
            var logits = (0..<(a * c.numClasses)).map { _ in bias + Float(g.uniform(-2...2)) }
            for t in stride(from: 0, to: logits.count, by: 997) { logits[t] = 1.5 }
            let deltas = (0..<(a * 4)).map { _ in Float(g.uniform(-1...1)) }
            let fast = SSDDetector(model: model, postProcessing: settings)
                .postProcess(logits: Tensor(shape: [1, a, c.numClasses], values: logits), deltas: Tensor(shape: [1, a, 4], values: deltas), image: 0)
            let reference = referencePostProcess(logits, deltas, config: c, settings: settings)
            XCTAssertGreaterThan(reference.count, 10)
            XCTAssertEqual(fast, reference, "bias \(bias)")
        }
    }

    /// Batch norm folded into the convolutions computes what the model computes in inference mode.
    func testFoldedInferenceMatchesTheModel() {
        var c = SSDConfig()
        c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 16; c.headLayers = 2; c.maxLevel = 7; c.minLevel = 3
        c.inputWidth = 128; c.inputHeight = 256
        var g = SeededGenerator(seed: 8)
        let model = modelAwayFromItsInitialValues(c, generator: &g)
        let images = Tensor.randomUniform([2, 256, 128, 3], in: -1...1, using: &g)
        let (logits, deltas) = Autodiff.withoutTape { model.outputs(images: images, mode: .inference) }
        let (foldedLogits, foldedDeltas) = SSDDetector(model: model).outputs(images: images)
        for (a, b) in [(logits, foldedLogits), (deltas, foldedDeltas)] {
            XCTAssertEqual(a.shape, b.shape)
            let scale = a.scalars.map(abs).max()!
            let worst = zip(a.scalars, b.scalars).map { abs($0 - $1) }.max()!
            XCTAssertLessThan(worst, 1e-5 * max(1, scale), "folded inference differs by \(worst)")
        }
    }

    /// Equal IoUs: an anchor takes the first box; a box's best anchors that tie all become positive,
    /// each for the box it overlaps most itself.
    func testMatcherTies() {
        let boxes = [Box(xMin: 0, yMin: 0, xMax: 10, yMax: 10), Box(xMin: 10, yMin: 0, xMax: 20, yMax: 10), Box(xMin: 40, yMin: 0, xMax: 44, yMax: 4)]
        let anchors = [
            Box(xMin: 5, yMin: 0, xMax: 15, yMax: 10),   // IoU 1/3 with boxes 0 and 1: box 0's and box 1's best (tie) -> low-quality match, first box
            Box(xMin: 38, yMin: 0, xMax: 47, yMax: 4),   // IoU 16/36 with box 2 (ignored zone), box 2's best: positive
            Box(xMin: 37, yMin: 0, xMax: 46, yMax: 4),   // the same IoU: a tie for box 2's best, positive as well
            Box(xMin: 100, yMin: 100, xMax: 110, yMax: 110),
        ]
        XCTAssertEqual(Matcher().match(anchors: anchors, boxes: boxes), [0, 2, 2, Matcher.negative])
    }

    /// The matcher's column-wise pass gives what the rule says, pair by pair with `Box.iou`, on
    /// random boxes over the anchors of a real model (grid-aligned anchors make exact IoU ties).
    func testMatcherEqualsThePlainRuleOnRandomBoxes() {
        let anchors = AnchorGenerator(config: .bench).anchors()
        var g = SeededGenerator(seed: 7)
        for _ in 0..<6 {
            let boxes = (0..<g.int(0...25)).map { _ in
                let (x, y) = (g.uniform(-20...250), g.uniform(-20...500))
                return Box(xMin: x, yMin: y, xMax: x + g.uniform(2...200), yMax: y + g.uniform(2...120))
            } + [anchors[4000], anchors[17]]  // boxes equal to anchors: IoU 1, and ties among neighbours
            XCTAssertEqual(Matcher().match(anchors: anchors, boxes: boxes), plainMatch(anchors: anchors, boxes: boxes))
        }
    }

    /// An anchor with a NaN coordinate overlaps nothing, and does not hide the other anchors of its
    /// block of 64 from the matcher's pruning (a block's bounds skip NaN).
    func testAnAnchorWithANaNCoordinateHidesNoOtherAnchor() {
        var anchors: [Box] = (0..<100).map { (i: Int) -> Box in
            let x = Float(i % 10) * 10, y = Float(i / 10) * 10
            return Box(xMin: x, yMin: y, xMax: x + 10, yMax: y + 10)
        }
        anchors[0] = Box(xMin: .nan, yMin: 0, xMax: 10, yMax: 10)
        let boxes = [anchors[1], anchors[70], Box(xMin: 30, yMin: 30, xMax: 30, yMax: 40)]  // the last of zero width
        let matched = Matcher().match(anchors: anchors, boxes: boxes)
        XCTAssertEqual(matched[1], 0)
        XCTAssertEqual(matched[70], 1)
        XCTAssertEqual(matched[0], Matcher.negative)
        XCTAssertEqual(matched.filter { $0 >= 0 }.count, 2)
    }

    /// ssd-model.md's matching, written as plainly as it reads.
    private func plainMatch(anchors: [Box], boxes: [Box]) -> [Int] {
        let iou = anchors.map { a in boxes.map { a.iou($0) } }
        let boxBest = boxes.indices.map { b in anchors.indices.map { iou[$0][b] }.max()! }
        return anchors.indices.map { a in
            let best = iou[a].max()!, bestBox = iou[a].firstIndex(of: best)!
            if best >= 0.5 { return bestBox }
            if boxes.indices.contains(where: { boxBest[$0] > 0 && iou[a][$0] == boxBest[$0] }) { return bestBox }
            return best < 0.4 ? Matcher.negative : Matcher.ignored
        }
    }

    /// Post-processing on planted logits: the score floor, the per-level cap on candidates, and the
    /// cap on detections per image, with boxes that do not overlap (zero deltas: the anchors).
    func testPostProcessingFloorCandidatesPerLevelAndCap() {
        var g = SeededGenerator(seed: 1)
        let c = SSDConfig.bench
        let model = SSDModel(config: c, generator: &g)
        let anchors = AnchorGenerator(config: c).anchors()
        let k = c.numClasses
        func logit(_ p: Float) -> Float { logf(p / (1 - p)) }
        // Level 3 (64 rows x 32 columns, 8 anchors each): anchor index 0 (16 x 32 px) every other column and every other row never overlaps.
        let spread = (0..<32).flatMap { y in (0..<16).map { x in ((2 * y) * 32 + 2 * x) * 8 } }
        var values = [Float](repeating: -20, count: anchors.count * k)
        for (rank, j) in spread.enumerated() { values[j * k] = logit(0.9 - Float(rank) * 0.001) }
        values[spread[0] * k + 1] = logit(0.049)  // under the floor
        values[spread[1] * k + 1] = logit(0.051)  // over it
        let logits = Tensor(shape: [1, anchors.count, k], values: values)
        let deltas = Tensor.zeros([1, anchors.count, 4])
        var settings = PostProcessing()
        let all = SSDDetector(model: model, postProcessing: settings).postProcess(logits: logits, deltas: deltas, image: 0)
        XCTAssertEqual(all.count, 100, "capped at 100 per image")
        XCTAssertEqual(all.map(\.score), (0..<100).map { 0.9 - Float($0) * 0.001 }.map { 1 / (1 + expf(-logit($0))) }, "the best 100, best first")
        XCTAssertEqual(all[0].box, anchors[spread[0]].clipped(to: c.inputSize), "zero deltas decode to the anchor, clipped to the input")
        settings.maxDetections = 1000
        let uncapped = SSDDetector(model: model, postProcessing: settings).postProcess(logits: logits, deltas: deltas, image: 0)
        let second = uncapped.filter { $0.label == 1 }
        XCTAssertEqual(second.count, 1, "0.049 is under the floor of 0.05")
        XCTAssertEqual(second.first?.score ?? 0, 0.051, accuracy: 1e-6)
        XCTAssertEqual(uncapped.count, spread.count + 1)
        settings.candidatesPerLevel = 5
        let perLevel = SSDDetector(model: model, postProcessing: settings).postProcess(logits: logits, deltas: deltas, image: 0)
        XCTAssertEqual(perLevel.count, 5, "at most 5 candidates on the one level that has any")
        XCTAssertEqual(perLevel.map(\.label), [0, 0, 0, 0, 0])
    }
}

final class DetectorTests: XCTestCase {
    func tinyConfig() -> SSDConfig {
        var c = SSDConfig()
        c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 16; c.headLayers = 1; c.numClasses = 2
        return c
    }

    func testClassBalanceWeights() {
        let counts = [100, 10, 0, 1]
        XCTAssertEqual(ClassBalance.none.weights(counts: counts), [1, 1, 0, 1])
        let inv = ClassBalance.inverseFrequency.weights(counts: counts)
        XCTAssertEqual(inv[2], 0)
        XCTAssertEqual(inv.reduce(0, +), 3, accuracy: 1e-5, "weights of present classes sum to their number")
        XCTAssertEqual(inv[0] / inv[1], 0.1, accuracy: 1e-5)
        let eff = ClassBalance.effectiveNumber(beta: 0.999).weights(counts: counts)
        let raw = counts.map { $0 > 0 ? (1 - 0.999) / (1 - pow(0.999, Double($0))) : 0 }
        XCTAssertEqual(Double(eff[0] / eff[3]), raw[0] / raw[3], accuracy: 1e-4)
        XCTAssertEqual(ClassBalance.explicit([2, 3]).weights(counts: [5, 5]), [2, 3])
    }

    func testNMSKeepsTheBestOfOverlappingBoxes() {
        let boxes = [Box(xMin: 0, yMin: 0, xMax: 10, yMax: 10), Box(xMin: 1, yMin: 0, xMax: 11, yMax: 10), Box(xMin: 20, yMin: 0, xMax: 30, yMax: 10)]
        XCTAssertEqual(nonMaxSuppression(boxes, scores: [0.8, 0.9, 0.5], iouThreshold: 0.5), [1, 2])
        XCTAssertEqual(nonMaxSuppression(boxes, scores: [0.8, 0.9, 0.5], iouThreshold: 0.9), [1, 0, 2])
    }

    /// What learning guarantees on any correct GEMM, not where one trajectory ends: the loss
    /// falls far below its start, and every true box is found with its class above a score,
    /// the best detection of each screen being one of them. Without head layers the task has
    /// no ReLU that AdamW can kill, and the cosine decay lets the batch-norm running statistics
    /// catch up with the weights; over 24 runs (12 seeds x 2 OpenBLAS kernel sets) the weakest
    /// true box scored 0.60 and the strongest false one 0.42.
    func testLossFallsWhileFittingTwoScreensAndDetectFindsTheBoxes() throws {
        var g = SeededGenerator(seed: 3)
        var c = tinyConfig()
        c.headLayers = 0
        let model = SSDModel(config: c, generator: &g)
        let lossFunction = SSDLoss(model: model, config: LossConfig(), classWeights: [1, 1])
        // Two screens with bright rectangles of two kinds on a dark background.
        var pixels = [Float](repeating: -1, count: 2 * 128 * 64 * 3)
        let targets: [(boxes: [Box], labels: [Int32])] = [
            ([Box(xMin: 8, yMin: 16, xMax: 40, yMax: 32), Box(xMin: 16, yMin: 80, xMax: 32, yMax: 96)], [0, 1]),
            ([Box(xMin: 24, yMin: 40, xMax: 56, yMax: 56)], [0]),
        ]
        for (i, t) in targets.enumerated() {
            for (b, l) in zip(t.boxes, t.labels) {
                for y in Int(b.yMin)..<Int(b.yMax) { for x in Int(b.xMin)..<Int(b.xMax) {
                    let p = ((i * 128 + y) * 64 + x) * 3
                    pixels[p] = 1; pixels[p + 1] = l == 0 ? 1 : -1; pixels[p + 2] = -1
                } }
            }
        }
        let images = Tensor(shape: [2, 128, 64, 3], values: pixels)
        let optimizer = AdamW(parameters: model.parameters, weightDecay: 0)
        let steps = 120
        var first: Float = 0, last: Float = 0
        for step in 0..<steps {
            optimizer.zeroGrad()
            let loss = lossFunction(images: images, targets: targets)
            XCTAssertGreaterThan(loss.positives, 0)
            loss.total.backward()
            optimizer.step(learningRate: 0.01 * 0.5 * (1 + cos(Float.pi * Float(step) / Float(steps))))
            if step == 0 { first = loss.total.item }
            last = loss.total.item
        }
        XCTAssertLessThan(last, 0.05 * first, "loss \(first) -> \(last)")
        // A detector folds the weights it is given: made once training is done.
        let found = SSDDetector(model: model).detect(images: images)
        XCTAssertEqual(found.count, 2)
        func isTrue(_ d: DetectedBox, screen i: Int) -> Bool {
            zip(targets[i].boxes, targets[i].labels).contains { d.label == Int($0.1) && d.box.iou($0.0) >= 0.5 }
        }
        for (i, t) in targets.enumerated() {
            for (box, label) in zip(t.boxes, t.labels) {
                let best = found[i].filter { $0.label == Int(label) && $0.box.iou(box) >= 0.5 }.map(\.score).max() ?? 0
                XCTAssertGreaterThan(best, 0.4, "screen \(i): \(box) of class \(label) not found above 0.4: \(found[i].prefix(5))")
            }
            let top = try XCTUnwrap(found[i].first)
            XCTAssertTrue(isTrue(top, screen: i), "screen \(i): the best detection \(top) is not a true box")
        }
    }
}


final class DeploymentFilterTests: XCTestCase {
    func testSimilarClassesSuppressEachOtherAndThresholdsApply() {
        let names = ["icon", "picture", "text", "container", "text_field"]
        let a = Box(xMin: 0, yMin: 0, xMax: 10, yMax: 10), nearlyA = Box(xMin: 0, yMin: 0, xMax: 10, yMax: 10.5)
        let dets = [
            DetectedBox(box: a, label: 0, score: 0.9),        // icon
            DetectedBox(box: nearlyA, label: 1, score: 0.6),  // picture on it, IoU .95: suppressed
            DetectedBox(box: nearlyA, label: 2, score: 0.5),  // text: not a similar class, kept
            DetectedBox(box: Box(xMin: 20, yMin: 0, xMax: 40, yMax: 10), label: 3, score: 0.4),   // container
            DetectedBox(box: Box(xMin: 20, yMin: 0, xMax: 40, yMax: 12), label: 4, score: 0.7),   // text_field, IoU .83 with it: wins
        ]
        let kept = DeploymentFilter().apply(dets, classNames: names)
        XCTAssertEqual(kept.map(\.label), [0, 4, 2])
        // Thresholds come before the similar-class step (ssd-model.md): the icon, under its
        // threshold, is not shown, so it no longer removes the picture it overlaps.
        let filter = DeploymentFilter(thresholds: ["icon": 0.95])
        XCTAssertEqual(filter.apply(dets, classNames: names).map(\.label), [4, 1, 2], "the icon is under its threshold; text has none")
    }
}
