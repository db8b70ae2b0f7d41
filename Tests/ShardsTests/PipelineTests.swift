import Boxes
import Foundation
import Images
import SeededRandom
@testable import Shards
import TestSupport
import XCTest

final class PipelineTests: XCTestCase {
    /// A grey screen with solid patches of distinct colours exactly where its boxes are.
    func patchedSample() -> Sample {
        var image = RGBImage(size: Size(width: 64, height: 128), fill: RGB(128, 128, 128))
        let boxes = [Box(xMin: 4, yMin: 6, xMax: 24, yMax: 20), Box(xMin: 30, yMin: 50, xMax: 60, yMax: 90), Box(xMin: 10, yMin: 100, xMax: 20, yMax: 124)]
        let colours = [RGB(255, 0, 0), RGB(0, 255, 0), RGB(0, 0, 255)]
        for (b, c) in zip(boxes, colours) { image.fill(b, color: c) }
        return Sample(image: image, boxes: boxes, labels: [0, 1, 2], imageID: "patches")
    }

    func assertBoxesEncloseTheirPatch(_ s: Sample, file: StaticString = #filePath, line: UInt = #line) {
        let colours = [RGB(255, 0, 0), RGB(0, 255, 0), RGB(0, 0, 255)]
        func near(_ a: RGB, _ b: RGB) -> Bool { abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) < 60 }
        for (b, l) in zip(s.boxes, s.labels) {
            let colour = colours[Int(l)]
            var inside = 0, matching = 0, ring = 0, ringMatching = 0
            for y in 0..<s.image.height { for x in 0..<s.image.width {
                let (cx, cy) = (Float(x) + 0.5, Float(y) + 0.5)
                let isIn = cx > b.xMin + 1 && cx < b.xMax - 1 && cy > b.yMin + 1 && cy < b.yMax - 1
                let isRing = !(cx > b.xMin - 0.5 && cx < b.xMax + 0.5 && cy > b.yMin - 0.5 && cy < b.yMax + 0.5)
                    && cx > b.xMin - 2.5 && cx < b.xMax + 2.5 && cy > b.yMin - 2.5 && cy < b.yMax + 2.5
                if isIn { inside += 1; if near(s.image.pixel(x: x, y: y), colour) { matching += 1 } }
                if isRing { ring += 1; if near(s.image.pixel(x: x, y: y), colour) { ringMatching += 1 } }
            } }
            XCTAssertGreaterThan(Double(matching), 0.95 * Double(inside), "box \(b) does not hold its patch", file: file, line: line)
            XCTAssertLessThan(Double(ringMatching), 0.1 * Double(max(1, ring)), "patch \(l) leaks outside box \(b)", file: file, line: line)
        }
    }

    func testGeometricAugmentationKeepsBoxesOnTheirPixels() {
        for trial in 0..<40 {
            var g = SeededGenerator(seed: UInt64(trial))
            var s = patchedSample()
            Augment.scaleCrop(&s, scale: g.uniform(0.7...1.4), minVisible: 0.5, g: &g)
            if trial % 2 == 0 { Augment.flipHorizontally(&s) }
            assertBoxesEncloseTheirPatch(s)
            XCTAssertTrue(s.boxes.allSatisfy { $0.isValid && $0.xMax <= 64 && $0.yMax <= 128 })
        }
    }

    func testScaleCropDropsBoxesLeftMostlyOutside() {
        var g = SeededGenerator(seed: 1)
        var s = patchedSample()
        s.boxes = [Box(xMin: 0, yMin: 0, xMax: 64, yMax: 128)]
        s.labels = [0]
        Augment.scaleCrop(&s, scale: 1.0, minVisible: 0.5, g: &g)
        XCTAssertEqual(s.boxes.count, 1)
        var big = patchedSample()
        big.boxes = [Box(xMin: 0, yMin: 0, xMax: 64, yMax: 128)]
        big.labels = [0]
        Augment.scaleCrop(&big, scale: 2.5, minVisible: 0.5, g: &g)  // at most 1/6.25 of it stays in view
        XCTAssertEqual(big.boxes.count, 0)
    }

    func testRepeatFactorSamplingFrequencies() throws {
        // 100 screens: screen 0 alone holds class 0 (f = 0.01); the rest hold class 1 (f = 0.99).
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let records = sampleRecords(count: 100).enumerated().map { i, r -> ScreenRecord in
            var r = r
            r.boxes = [Box(xMin: 1, yMin: 1, xMax: 5, yMax: 5)]
            r.labels = [i == 0 ? 0 : 1]
            return r
        }
        let set = try ShardSet([writeShard(records, to: dir.appendingPathComponent("rf.h5")).path])
        var options = AugmentationOptions.none
        options.repeatFactorThreshold = 0.1
        let pipeline = InputPipeline(set: set, batchSize: 4, seed: 3, options: options)
        XCTAssertEqual(pipeline.repeatFactors[0], (0.1 / 0.01).squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(pipeline.repeatFactors[1], 1)
        XCTAssertEqual(pipeline.rareClasses, [0])
        let epochs = 3000
        var rare = 0, common = 0
        for e in 0..<epochs {
            let order = pipeline.epochOrder(e)
            rare += order.filter { $0 == 0 }.count
            common += order.filter { $0 == 1 }.count
        }
        XCTAssertEqual(Double(rare) / Double(epochs), 10.0.squareRoot(), accuracy: 0.03)
        XCTAssertEqual(common, epochs)
    }

    func testPipelineReproducesExactlyForAnyWorkerCount() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let set = try ShardSet([writeShard(sampleRecords(count: 10, size: Size(width: 32, height: 64)), to: dir.appendingPathComponent("p.h5")).path])
        var options = AugmentationOptions()
        options.repeatFactorThreshold = 0.5
        func batches(workers: Int, seed: UInt64, cacheBytes: Int = 0) throws -> [[Float]] {
            let p = InputPipeline(set: set, batchSize: 4, seed: seed, options: options, workers: workers, prefetch: 2, cacheBytes: cacheBytes)
            defer { p.stop() }
            return try (0..<5).map { _ in
                let b = try p.next()
                return b.images.flatMap { $0.pixels.map(Float.init) } + b.boxes.flatMap { $0.flatMap { [$0.xMin, $0.yMax] } }
            }
        }
        let one = try batches(workers: 1, seed: 7)
        XCTAssertEqual(one, try batches(workers: 2, seed: 7))
        XCTAssertNotEqual(one, try batches(workers: 2, seed: 8))
        // Five batches of 4 from 10 screens visit most twice: screens kept decoded (all of them, or
        // the 3 a small budget holds) give the same stream, and augmenting a kept screen leaves it as read.
        XCTAssertEqual(one, try batches(workers: 2, seed: 7, cacheBytes: 1 << 30))
        XCTAssertEqual(one, try batches(workers: 1, seed: 7, cacheBytes: 3 * 32 * 64 * 3))
        // What the worker prepares is what next() hands out, batch by batch.
        let p = InputPipeline(set: set, batchSize: 4, seed: 7, options: options, workers: 2) { batch in
            (index: batch.index, sizes: batch.images.map(\.size), ids: batch.imageIDs)
        }
        defer { p.stop() }
        for k in 0..<3 {
            let b = try p.next()
            XCTAssertEqual(b.index, k)
            XCTAssertEqual(b.sizes, [Size](repeating: Size(width: 32, height: 64), count: 4))
            XCTAssertEqual(b.ids.count, 4)
        }
    }

    func testWaitUntilPrefetchedLeavesNoBatchInTheMaking() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let set = try ShardSet([writeShard(sampleRecords(count: 6, size: Size(width: 32, height: 64)), to: dir.appendingPathComponent("p.h5")).path])
        final class Count: @unchecked Sendable {
            private let lock = NSLock()
            private var n = 0
            func add() { lock.lock(); n += 1; lock.unlock() }
            var value: Int { lock.lock(); defer { lock.unlock() }; return n }
        }
        let prepared = Count()
        let p = InputPipeline(set: set, batchSize: 2, seed: 1, options: AugmentationOptions(), prefetch: 3) { batch in
            prepared.add()
            return batch.index
        }
        // The queue full and one more batch prepared, held until there is room.
        p.waitUntilPrefetched()
        XCTAssertEqual(prepared.value, 4)
        XCTAssertEqual(try p.next(), 0)
        p.waitUntilPrefetched()
        XCTAssertEqual(prepared.value, 5)
        XCTAssertEqual(try p.next(), 1)
        p.stop()
        p.waitUntilPrefetched()  // returns at once once stopped
    }

    /// Donors are stored at their shard's size; pasted into a screen letterboxed to the model's input,
    /// they must come at the scale their own screen has there, not at stored-pixel scale.
    func testCopyPasteBringsDonorsToTheInputScale() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let records = sampleRecords(count: 20, size: Size(width: 64, height: 128)).enumerated().map { i, r -> ScreenRecord in
            var r = r
            r.boxes = [Box(xMin: 4, yMin: 4, xMax: 16, yMax: 16)]
            r.labels = [i == 0 ? 5 : 9]
            return r
        }
        let set = try ShardSet([writeShard(records, to: dir.appendingPathComponent("scale.h5")).path])
        var options = AugmentationOptions.none
        options.copyPaste = true
        options.copyPasteMaxPerImage = 2
        options.repeatFactorThreshold = 0.1
        let pipeline = InputPipeline(set: set, batchSize: 1, seed: 1, options: options, inputSize: Size(width: 32, height: 64))
        var pasted = 0
        for k in 0..<40 {
            let s = try pipeline.sample(1 + k % 19, stream: k)
            XCTAssertEqual(s.image.size, Size(width: 32, height: 64))
            XCTAssertEqual(s.boxes[0], Box(xMin: 2, yMin: 2, xMax: 8, yMax: 8), "the screen's own box, letterboxed by 1/2")
            for (b, l) in zip(s.boxes, s.labels) where l == 5 {
                XCTAssertEqual(b.width, 6, "a 12-pixel donor at half scale")
                XCTAssertEqual(b.height, 6)
                pasted += 1
            }
        }
        XCTAssertGreaterThan(pasted, 10)
    }

    func testCopyPasteAddsRareInstancesInFreeSpace() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        // Class 5 is rare (1 screen in 20); copy-paste should add it to other screens.
        let records = sampleRecords(count: 20).enumerated().map { i, r -> ScreenRecord in
            var r = r
            r.boxes = [Box(xMin: 2, yMin: 2, xMax: 8, yMax: 8)]
            r.labels = [i == 0 ? 5 : 9]
            return r
        }
        let set = try ShardSet([writeShard(records, to: dir.appendingPathComponent("cp.h5")).path])
        var options = AugmentationOptions.none
        options.copyPaste = true
        options.copyPasteMaxPerImage = 2
        options.repeatFactorThreshold = 0.1
        let pipeline = InputPipeline(set: set, batchSize: 1, seed: 1, options: options)
        var pasted = 0
        for k in 0..<40 {
            let s = try pipeline.sample(1 + k % 19, stream: k)
            let added = s.labels.filter { $0 == 5 }.count
            pasted += added
            // Pasted boxes never overlap what was there.
            for (b, l) in zip(s.boxes, s.labels) where l == 5 { XCTAssertEqual(b.intersectionArea(s.boxes[0]), 0) }
        }
        XCTAssertGreaterThan(pasted, 10)
    }
}
