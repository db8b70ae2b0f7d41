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
