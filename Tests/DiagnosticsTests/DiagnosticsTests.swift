import Boxes
import Detection
@testable import Diagnostics
import Engine
import Foundation
@testable import Layers
import Shards
import TestSupport
import XCTest

/// The self-check and the parts of the benchmarks that are logic, not speed: what is measured, how
/// it is summarised and what is refused. Speeds themselves are only required to be positive.
final class SelfCheckTests: XCTestCase {
    func testEveryCheckPassesAndIsReportedAsItFinishes() {
        var reported: [String] = []
        let outcomes = Parallel.withThreads(2) { SelfCheck().run { reported.append($0.name) } }
        XCTAssertEqual(outcomes.count, 13, "12 op families and the tiny network")
        XCTAssertEqual(reported, outcomes.map(\.name), "each outcome reported once, in order")
        for o in outcomes { XCTAssertTrue(o.passed, "\(o.name): \(o.detail)") }
        XCTAssertEqual(outcomes.last?.name, "tiny network fits a fixed target (SGD, 200 steps)")
        XCTAssertTrue(outcomes.dropLast().allSatisfy { $0.name.hasPrefix("gradient ") && $0.detail.hasPrefix("max |analytic - numeric| = ") })
    }
}

final class BenchmarkPartsTests: XCTestCase {
    func shape(_ name: String, _ size: Int, _ cin: Int, _ cout: Int, kernel: Int = 3, stride: Int = 1, groups: Int = 1, inputNeedsGradient: Bool = true) -> ConvShape {
        ConvShape(name: name, batch: 8, height: size, width: size, inChannels: cin, outChannels: cout, kernel: kernel, stride: stride, groups: groups,
                  bias: false, inputNeedsGradient: inputNeedsGradient)
    }

    /// A record names the CPU by family and model too (hosts name a Zen 3 and a Zen 4 both "AMD EPYC"),
    /// and the vector registers the build targets; records from before these keys still decode.
    func testMachineNamesFamilyModelAndVectorRegisters() throws {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n"
        XCTAssertEqual(Machine.cpuFamily(cpuinfo: cpuinfo), "family 25 model 1")
        XCTAssertEqual(Machine.cpuModel(cpuinfo: cpuinfo), "AMD EPYC")
        XCTAssertNil(Machine.cpuFamily(cpuinfo: "model name\t: Apple M2\n"))
        let machine = Machine(cpuModel: "AMD EPYC", cpuFamily: "family 25 model 1", vectorRegisters: "AVX2", blasKernels: "Zen", threads: 2)
        XCTAssertEqual(machine.description, "AMD EPYC (family 25 model 1), AVX2, OpenBLAS Zen kernels")
        let json = String(decoding: try JSONEncoder().encode(machine), as: UTF8.self)
        XCTAssertTrue(json.contains("\"cpu_family\":\"family 25 model 1\"") && json.contains("\"vector_registers\":\"AVX2\""), json)
        let old = try JSONDecoder().decode(Machine.self, from: Data(#"{"cpu_model": "AMD EPYC", "blas_kernels": "Cooperlake", "threads": 2}"#.utf8))
        XCTAssertEqual(old.description, "AMD EPYC, OpenBLAS Cooperlake kernels")
        XCTAssertFalse(Machine.current().vectorRegisters?.isEmpty ?? true)
    }

    /// One conv per geometry, named after its first use, in the order of first use; the batch and
    /// the name do not make a geometry, whether the input needs a gradient does.
    func testDistinctGeometriesKeepTheFirstOfEachShape() {
        var twin = shape("b", 16, 8, 8)
        twin.batch = 1
        let shapes = [shape("a", 16, 8, 8), twin, shape("c", 16, 8, 8, stride: 2), shape("d", 16, 8, 8, groups: 8),
                      shape("e", 16, 8, 8, inputNeedsGradient: false), shape("f", 16, 8, 8, kernel: 1), shape("g", 16, 8, 8)]
        XCTAssertEqual(shapes.distinctGeometries().map(\.name), ["a", "c", "d", "e", "f"])
        XCTAssertEqual([ConvShape]().distinctGeometries(), [])
    }

    /// `uidetect bench engine` times the spec's bench network's 35 distinct convolutions.
    func testTheBenchNetworkHasThirtyFiveDistinctConvolutions() {
        var g = SeededGenerator(seed: 1)
        let convs = SSDModel(config: .bench, generator: &g).convolutions(batch: 8)
        XCTAssertEqual(convs.distinctGeometries().count, 35)
        XCTAssertGreaterThan(convs.count, 35, "the FPN and heads repeat shapes")
    }

    /// The median of the timed calls, after one untimed warm-up call.
    func testMedianSecondsWarmsUpOnceThenTakesTheMedian() {
        var calls = 0
        let sleeps: [useconds_t] = [0, 1_000, 200_000, 20_000]  // warm-up, then three timed calls
        let median = medianSeconds(repeats: 3) {
            usleep(sleeps[calls])
            calls += 1
        }
        XCTAssertEqual(calls, 4)
        XCTAssertGreaterThanOrEqual(median, 0.020)
        XCTAssertLessThan(median, 0.200, "the middle one of 1, 200 and 20 ms")
        calls = 0
        _ = medianSeconds(repeats: 0) { calls += 1 }
        XCTAssertEqual(calls, 2, "at least one timed call")
    }

    func testTheTorchAnchorIsRefusedWithoutBenchPyOrForAnUnknownNetwork() throws {
        let dir = try scratchFolder(prefix: "uidetect-torch-anchor")
        XCTAssertThrowsError(try TorchAnchor(folder: dir, config: "bench")) { e in
            XCTAssertTrue("\(e)".contains("no bench.py there"), "\(e)")
        }
        try Data("print('torch_train_img_per_s=1')\n".utf8).write(to: dir.appendingPathComponent("bench.py"))
        XCTAssertThrowsError(try TorchAnchor(folder: dir, config: "huge")) { e in
            XCTAssertEqual("\(e)", "the PyTorch reference knows the networks bench and paper-size, not 'huge'")
        }
        XCTAssertEqual(try TorchAnchor(folder: dir, config: "paper-size").config, "paper-size")
    }

    /// Each network with each thread count, in that order, with positive times, and the screen's
    /// scores above the floor as many as asked for.
    func testPredictionLatencyIsMeasuredForEachNetworkAndThreadCount() throws {
        let tiny = try plantedConfig()
        let measured = try PredictionBenchmark(networks: [("tiny", tiny), ("tiny-again", tiny)], threadCounts: [1, 2], repeats: 1,
                                               candidates: 40).run()
        XCTAssertEqual(measured.map(\.network), ["tiny", "tiny", "tiny-again", "tiny-again"])
        XCTAssertEqual(measured.map(\.threads), [1, 2, 1, 2])
        XCTAssertTrue(measured.allSatisfy { $0.totalMilliseconds > 0 && $0.forwardMilliseconds > 0 })
        // The bias is rounded as it is added: a logit at the threshold may land on either side.
        XCTAssertTrue(measured.allSatisfy { (38...42).contains($0.candidates) }, "\(measured.map(\.candidates))")
        let json = String(decoding: try JSONEncoder().encode(measured[0]), as: UTF8.self)
        XCTAssertTrue(json.contains("\"total_ms\"") && json.contains("\"forward_ms\"") && json.contains("\"candidates\""), json)
    }

    /// The input pipeline timed on given shards: their screens counted, the three rates positive.
    func testTheDataBenchmarkReadsTheGivenShards() throws {
        let dir = try scratchFolder(prefix: "uidetect-bench-data")
        try writeSyntheticShard(to: dir.appendingPathComponent("s.h5"), screens: 0..<6, size: Size(width: 64, height: 128), seed: 2)
        let report = try DataBenchmark(shards: [dir.path], workers: 1, batchSize: 2, batches: 2, runs: 1).run()
        XCTAssertEqual(report.screens, 6)
        XCTAssertEqual(report.batchSize, 2)
        XCTAssertEqual(report.runs, 1)
        XCTAssertGreaterThan(report.readOnlyScreensPerSecond, 0)
        XCTAssertGreaterThan(report.augmentedScreensPerSecond, 0)
        XCTAssertGreaterThan(report.fromMemoryScreensPerSecond, 0)
    }
}

/// `bench train --layers`: layer times, their kinds, and the step that measures them.
final class LayerTimesTests: XCTestCase {
    private func time(_ name: String, _ f: Double, _ b: Double, torch: (Double, Double)? = nil) -> LayerTime {
        LayerTime(name: name, oursForwardMilliseconds: f, oursBackwardMilliseconds: b,
                  torchForwardMilliseconds: torch?.0, torchBackwardMilliseconds: torch?.1)
    }

    func testEveryLayerOfTheNetworksHasAKind() {
        for config in [SSDConfig.bench, .paperSize] {
            var g = SeededGenerator(seed: 0)
            for c in SSDModel(config: config, generator: &g).convolutions(batch: 1) {
                XCTAssertNotNil(LayerTime.kind(of: c.name), c.name)
            }
        }
        XCTAssertEqual(LayerTime.kind(of: "backbone.b7.depthwise"), "depthwise 3x3 + BN + ReLU6")
        XCTAssertEqual(LayerTime.kind(of: "fpn.lateral3"), "FPN laterals 1x1")
        XCTAssertEqual(LayerTime.kind(of: "fpn.extra7"), "FPN 3x3 (outputs, extra levels)")
        XCTAssertEqual(LayerTime.kind(of: "box_head.out.P6"), "head 3x3 convs, P6")
        XCTAssertNil(LayerTime.kind(of: "loss"))
    }

    func testKindsSumTheirLayersInTheOrderTheyFirstAppear() {
        let groups = LayerTime.groups([
            time("backbone.b1.depthwise", 1, 2, torch: (3, 4)), time("backbone.b1.pointwise", 5, 6, torch: (7, 8)),
            time("backbone.b2.depthwise", 0.5, 1.5, torch: (1, 1)), time("class_head.out.P3", 2, 2), time("loss", 9, 9, torch: (9, 9)),
        ])
        XCTAssertEqual(groups, [
            time("depthwise 3x3 + BN + ReLU6", 1.5, 3.5, torch: (4, 5)), time("pointwise 1x1 + BN + ReLU6", 5, 6, torch: (7, 8)),
            time("head 3x3 convs, P3", 2, 2),
        ])
        XCTAssertEqual(groups[0].speedup!, 9.0 / 5.0, accuracy: 1e-12, "PyTorch's forward + backward over ours")
        XCTAssertNil(groups[2].speedup, "no PyTorch time, no ratio")
        // A kind with a layer PyTorch gave no time for has no PyTorch time: a partial sum would flatter either side.
        XCTAssertNil(LayerTime.groups([time("fpn.output3", 1, 1, torch: (1, 1)), time("fpn.output4", 1, 1)])[0].torchForwardMilliseconds)
    }

    func testMediansAreTakenPerNameAndTimeAcrossRuns() {
        let ours: [[String: (forward: Double, backward: Double)]] = [["a": (1, 10)], ["a": (3, 30)], ["a": (2, 50)]]
        let torch: [[String: (forward: Double, backward: Double)]] = [["a": (5, 1)], ["b": (7, 7)], ["a": (6, 2)]]
        let m = LayerTime.medians(ours: ours, torch: torch, order: ["a", "b"])
        XCTAssertEqual(m, [time("a", 2, 30, torch: (5.5, 1.5)), time("b", 0, 0, torch: (7, 7))], "two values: their mean")
    }

    /// The reference must report exactly our layers, and tie most of its backward time to them.
    func testAProfileOfOtherLayersOrUntiedBackwardIsRefused() {
        func profile(_ layers: [String], unattributed: Double) -> TorchLayerTimes {
            TorchLayerTimes(stepMilliseconds: 10, parts: ["backbone": (forward: 2, backward: 9)],
                            layers: Dictionary(uniqueKeysWithValues: layers.map { ($0, (forward: 1.0, backward: 1.0)) }),
                            unattributedBackwardMilliseconds: unattributed, torchVersion: "2.x")
        }
        XCTAssertNoThrow(try TrainingBenchmark.check(profile(["a", "b"], unattributed: 1), layers: ["a", "b"]))
        XCTAssertThrowsError(try TrainingBenchmark.check(profile(["a", "c"], unattributed: 0), layers: ["a", "b"])) { e in
            XCTAssertEqual("\(e)", "the PyTorch reference's layers are not ours: only ours [\"b\"], only PyTorch's [\"c\"]")
        }
        XCTAssertThrowsError(try TrainingBenchmark.check(profile(["a"], unattributed: 9), layers: ["a"])) { e in
            XCTAssertTrue("\(e)".contains("tied only 50% of its backward time"), "\(e)")
        }
    }

    /// bench.py has no sizes of its own: the reference runs with model.py's config updated to ours.
    func testTheReferenceBuildsOurNetworkNotItsNamedSize() throws {
        let dir = try scratchFolder(prefix: "uidetect-torch-overrides")
        try Data("""
        CONFIGS = {"bench": dict(width=256, height=512), "paper-size": dict(width=320, height=640)}
        def make_config(name, **overrides):
            c = dict(CONFIGS[name]); c.update(overrides); return c
        """.utf8).write(to: dir.appendingPathComponent("model.py"))
        try Data("""
        import sys
        from model import make_config
        c = make_config(sys.argv[sys.argv.index("--config") + 1])
        print("torch_train_img_per_s=%d" % (c["width"] * 1000 + c["height"]))
        """.utf8).write(to: dir.appendingPathComponent("bench.py"))
        let anchor = try TorchAnchor(folder: dir, config: "paper-size")
        XCTAssertEqual(try anchor.trainImagesPerSecond(threads: 1, batch: 1, steps: 1, channelsLast: true), 320_640, "the reference's own size")
        XCTAssertEqual(try anchor.matching(.paperSize).trainImagesPerSecond(threads: 1, batch: 1, steps: 1, channelsLast: true), 384_768)
    }

    func testTheJSONNamesEveryTimeAndLeavesOutWhatPyTorchDidNotGive() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode([time("a", 1, 2, torch: (3, 3)), time("b", 1, 1)])) as! [[String: Any]]
        XCTAssertEqual(Set(object[0].keys), ["name", "ours_forward_ms", "ours_backward_ms", "torch_forward_ms", "torch_backward_ms", "speedup"])
        XCTAssertEqual(object[0]["speedup"] as? Double, 2)
        XCTAssertEqual(Set(object[1].keys), ["name", "ours_forward_ms", "ours_backward_ms"])
        XCTAssertEqual(try JSONDecoder().decode([LayerTime].self, from: JSONEncoder().encode([time("a", 1, 2, torch: (3, 3))])), [time("a", 1, 2, torch: (3, 3))])
    }

    /// A tiny network's step alone with layers timed (no PyTorch): every conv layer and every part has times.
    func testTheBenchmarkTimesEveryLayerAndPartOfTheStep() throws {
        var c = SSDConfig()
        c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 8; c.headLayers = 1
        let r = try TrainingBenchmark(config: c, name: "tiny", batchSize: 2, steps: 1, runs: 1, timesLayers: true).run()
        var g = SeededGenerator(seed: 0)
        let names = SSDModel(config: c, generator: &g).convolutions(batch: 1).map(\.name)
        let layers = try XCTUnwrap(r.layers)
        XCTAssertEqual(layers.map(\.name), names)
        for l in layers {
            XCTAssertGreaterThan(l.oursForwardMilliseconds, 0, l.name)
            XCTAssertGreaterThan(l.oursBackwardMilliseconds, 0, l.name)
            XCTAssertNil(l.torchForwardMilliseconds)
        }
        XCTAssertEqual(try XCTUnwrap(r.layerParts).map(\.name), ["backbone", "fpn", "heads", "loss", "optimizer"])
        for p in try XCTUnwrap(r.layerParts) where p.name != "optimizer" {
            XCTAssertGreaterThan(p.oursForwardMilliseconds, 0, p.name)
            XCTAssertGreaterThan(p.oursBackwardMilliseconds, 0, p.name)
        }
        let parts = try XCTUnwrap(r.layerParts).reduce(0) { $0 + $1.oursForwardMilliseconds + $1.oursBackwardMilliseconds }
        XCTAssertLessThanOrEqual(parts, try XCTUnwrap(r.layerStepMilliseconds) * 1.0001, "the parts are inside the step")
        XCTAssertEqual(try XCTUnwrap(r.layerKinds).first?.name, "stem: 3x3 conv + BN + ReLU6")
        XCTAssertNil(r.torchLayerStepMilliseconds)
    }
}
