import CBLAS
import Engine
import Foundation
import Layers

/// What `uidetect bench engine` measures, all in one run so that ratios cancel machine noise.
public struct EngineBenchmarkReport: Codable {
    /// What it was measured on (CPU model and family, vector registers, OpenBLAS kernels, threads).
    public var machine = Machine.current()
    /// The network whose shapes were timed ("bench", or the run config's name).
    public var network: String
    public struct Conv: Codable {
        public var name, kind, shape: String
        public var forwardMilliseconds, forwardBackwardMilliseconds: Double
        public var forwardGFLOPS, forwardBackwardGFLOPS: Double
        /// forward + backward GFLOP/s over the sgemm reference timed just before this conv.
        public var ratioToSGEMM: Double
    }
    public struct Bandwidth: Codable {
        public var name, shape: String
        public var forwardGBps, backwardGBps, memcpyGBps: Double
        public var forwardRatio, backwardRatio: Double
        /// Batch norm only: what gathering its statistics adds to the conv before it, in ms (included
        /// in the forward figures), and the ratios of batch norm finding its sums in passes of its own.
        public var gatherMilliseconds, ownPassForwardRatio, ownPassBackwardRatio: Double?
    }
    /// A 3x3 stride-1 conv's passes by im2col + GEMM, by Winograd F(2x2, 3x3) and by
    /// Winograd F(4x4, 3x3), timed alternately.
    public struct WinogradComparison: Codable {
        public var name, shape: String
        /// F(2x2, 3x3) in `winograd`, F(4x4, 3x3) in `winograd4x4`.
        public var im2col, winograd, winograd4x4: PassMilliseconds
        /// im2col time over Winograd time, per pass: F(2x2) and F(4x4).
        public var speedup, speedup4x4: PassMilliseconds
        /// Effective GFLOP/s of each algorithm (the direct conv's FLOPs: 2 x MACs per pass).
        public var im2colGFLOPS, winogradGFLOPS, winograd4x4GFLOPS: PassMilliseconds
        /// The passes `.automatic` runs by Winograd on this shape ("forward", "backward_data", "backward_weight").
        public var automatic: [String]
        /// The tile of those passes: "F(2x2)" or "F(4x4)" (none when `automatic` is empty).
        public var automaticTile: String?

        enum CodingKeys: String, CodingKey {
            case name, shape, im2col, winograd, speedup, automatic
            case winograd4x4 = "winograd_4x4", speedup4x4 = "speedup_4x4", automaticTile = "automatic_tile"
            case im2colGFLOPS = "im2col_gflops", winogradGFLOPS = "winograd_gflops", winograd4x4GFLOPS = "winograd_4x4_gflops"
        }
    }
    /// Milliseconds (or a figure derived from them) of each pass of a conv.
    public struct PassMilliseconds: Codable {
        public var forward, backwardData, backwardWeight: Double

        enum CodingKeys: String, CodingKey {
            case forward, backwardData = "backward_data", backwardWeight = "backward_weight"
        }
    }
    public var threads: Int
    public var repeats: Int
    public var batch, width, height: Int
    /// cblas_sgemm on OpenBLAS's own threads, once at the start, for information.
    public var openBLASThreadedGFLOPS: Double
    public var sgemmShape: String
    /// Median of the sgemm references timed beside each conv (row blocks over the engine's workers).
    public var sgemmGFLOPS: Double
    public var convolutions: [Conv]
    public var depthwise: [Bandwidth]
    public var batchNorm: [Bandwidth]
    /// Every dense 3x3 stride-1 conv shape of the network, per pass, by both algorithms.
    public var winograd: [WinogradComparison]
    /// Smallest forward+backward ratio to sgemm over the dense 3x3 and 1x1 convs.
    public var convMinRatio: Double

    enum CodingKeys: String, CodingKey {
        case machine, network
        case threads, repeats, batch, width, height
        case openBLASThreadedGFLOPS = "openblas_threaded_sgemm_gflops"
        case sgemmShape = "sgemm_shape", sgemmGFLOPS = "sgemm_gflops"
        case convolutions, depthwise
        case batchNorm = "batch_norm"
        case winograd = "winograd_vs_im2col"
        case convMinRatio = "conv_min_ratio"
    }
}

/// Times the engine's ops on the shapes of a network against raw sgemm and memcpy.
public struct EngineBenchmark {
    /// The network's convolutions (`SSDModel.convolutions(batch:)`); each distinct geometry is timed once.
    public var convolutions: [ConvShape]
    /// The network's name in the report.
    public var network: String
    public var repeats: Int
    public var sgemmSize: Int

    public init(convolutions: [ConvShape], network: String = "bench", repeats: Int = 5, sgemmSize: Int = 2048) {
        self.convolutions = convolutions
        self.network = network
        self.repeats = repeats
        self.sgemmSize = sgemmSize
    }

    /// Runs every measurement; `progress` is told what is being timed and the fraction done.
    public func run(progress: (_ what: String, _ fractionDone: Double) -> Void = { _, _ in }) -> EngineBenchmarkReport {
        _ = Parallel.threadCount  // settles OpenBLAS to one thread before anything is timed
        progress("sgemm \(sgemmSize)^3 on OpenBLAS's own threads", 0)
        let openBLASThreaded = measureSGEMM(openBLASThreads: true)
        Thread.sleep(forTimeInterval: 0.5)  // OpenBLAS's workers spin for a while after a call
        var convs: [EngineBenchmarkReport.Conv] = []
        var depthwise: [EngineBenchmarkReport.Bandwidth] = []
        var references: [Double] = []
        let shapes = convolutions.distinctGeometries()
        for (index, shape) in shapes.enumerated() {
            // A reference timed right beside each conv: the machines are shared, and a
            // neighbour's load drifts over a run; the ratio of adjacent timings does not.
            // Convs take about 85% of the run, batch norm the rest.
            progress("conv \(index + 1)/\(shapes.count): sgemm reference beside \(shape.name)", 0.85 * Double(index) / Double(shapes.count))
            let sgemmGFLOPS = measureSGEMM()
            references.append(sgemmGFLOPS)
            progress("conv \(index + 1)/\(shapes.count): \(shape.name)", 0.85 * (Double(index) + 0.5) / Double(shapes.count))
            let (fwd, fwdBwd) = timeConv(shape)
            convs.append(.init(
                name: shape.name, kind: shape.kind, shape: describe(shape),
                forwardMilliseconds: fwd * 1e3, forwardBackwardMilliseconds: fwdBwd * 1e3,
                forwardGFLOPS: shape.forwardFLOPs / fwd / 1e9, forwardBackwardGFLOPS: shape.forwardBackwardFLOPs / fwdBwd / 1e9,
                ratioToSGEMM: shape.forwardBackwardFLOPs / fwdBwd / 1e9 / sgemmGFLOPS))
            if shape.groups > 1 {
                // Minimal traffic: forward reads x, writes y; backward reads dy and x, writes dx (dW is tiny).
                let inBytes = Double(shape.batch * shape.height * shape.width * shape.inChannels * 4)
                let outBytes = Double(shape.batch * shape.outHeight * shape.outWidth * shape.outChannels * 4)
                let memcpy = measureMemcpy(bytes: Int(inBytes))
                let bwd = fwdBwd - fwd  // timed alone (timeConv)
                depthwise.append(.init(
                    name: shape.name, shape: describe(shape),
                    forwardGBps: (inBytes + outBytes) / fwd / 1e9, backwardGBps: (2 * inBytes + outBytes) / bwd / 1e9,
                    memcpyGBps: memcpy, forwardRatio: (inBytes + outBytes) / fwd / 1e9 / memcpy,
                    backwardRatio: (2 * inBytes + outBytes) / bwd / 1e9 / memcpy))
            }
        }
        var comparisons: [EngineBenchmarkReport.WinogradComparison] = []
        let winogradShapes = shapes.filter { $0.kernel == 3 && $0.stride == 1 && $0.groups == 1 && $0.inChannels > 4 }
        for (index, shape) in winogradShapes.enumerated() {
            progress("Winograd vs im2col \(index + 1)/\(winogradShapes.count): \(shape.name)", 0.85)
            comparisons.append(compareWinograd(shape))
        }
        var norms: [EngineBenchmarkReport.Bandwidth] = []
        var seen = Set<[Int]>()
        for shape in convolutions where shape.groups == 1 && !shape.bias {
            let dims = [shape.batch, shape.outHeight, shape.outWidth, shape.outChannels]
            guard seen.insert(dims).inserted else { continue }
            progress("batch norm \(dims)", 0.85 + 0.15 * Double(norms.count) / 6)
            norms.append(timeBatchNorm(after: shape, name: shape.name + ".bn"))
        }
        let gemmLike = convs.filter { $0.kind == "1x1" || $0.kind == "3x3" }
        let sgemmGFLOPS = references.isEmpty ? 0 : references.sorted()[references.count / 2]
        return EngineBenchmarkReport(
            network: network, threads: Parallel.threadCount, repeats: repeats,
            batch: convolutions.first?.batch ?? 0, width: convolutions.first?.width ?? 0, height: convolutions.first?.height ?? 0,
            openBLASThreadedGFLOPS: openBLASThreaded, sgemmShape: "\(sgemmSize)x\(sgemmSize)x\(sgemmSize)",
            sgemmGFLOPS: sgemmGFLOPS, convolutions: convs, depthwise: depthwise, batchNorm: norms, winograd: comparisons,
            convMinRatio: gemmLike.map(\.ratioToSGEMM).min() ?? 0)
    }

    private func describe(_ s: ConvShape) -> String {
        "\(s.batch)x\(s.height)x\(s.width)x\(s.inChannels) -> \(s.outChannels), k\(s.kernel) s\(s.stride)\(s.groups > 1 ? " dw" : "")"
    }

    /// Raw cblas_sgemm GFLOP/s on a square product.
    ///
    /// `openBLASThreads`: OpenBLAS's own threading. Otherwise the product is split
    /// in row blocks over the engine's workers, one single-threaded cblas_sgemm
    /// each, as the engine runs its GEMMs; on this machine both reach the same
    /// rate, and only the split leaves no OpenBLAS workers spinning afterwards
    /// to slow down whatever is timed next.
    private func measureSGEMM(openBLASThreads: Bool = false) -> Double {
        let n = sgemmSize
        var g = SeededGenerator(seed: 1)
        let a = Tensor.randomUniform([n, n], in: -1...1, using: &g), b = Tensor.randomUniform([n, n], in: -1...1, using: &g)
        let c = Tensor.zeros([n, n])
        let seconds = medianSeconds(repeats: repeats) {
            if openBLASThreads {
                referenceSGEMM(threads: Parallel.threadCount, m: n, n: n, k: n, a: a.pointer, b: b.pointer, c: c.mutablePointer)
            } else {
                sgemm(m: n, n: n, k: n, a: a.pointer, lda: n, b: b.pointer, ldb: n, beta: 0, c: c.mutablePointer, ldc: n)
            }
        }
        return 2 * Double(n * n * n) / seconds / 1e9
    }

    /// memcpy of `bytes`, split over the engine's threads as the ops are; read + write counted.
    private func measureMemcpy(bytes: Int) -> Double {
        let count = bytes / 4
        let src = Tensor(shape: [count], repeating: 1), dst = Tensor.zeros([count])
        let (s, d) = (src.pointer, dst.mutablePointer)
        let seconds = medianSeconds(repeats: repeats) {
            Parallel.forEachBlock(count: count, blockSize: Parallel.blockSize(count: count, minimum: 1 << 14)) { _, r in
                (d + r.lowerBound).update(from: s + r.lowerBound, count: r.count)
            }
        }
        return 2 * Double(bytes) / seconds / 1e9
    }

    private func timeConv(_ s: ConvShape) -> (forward: Double, forwardBackward: Double) {
        var g = SeededGenerator(seed: 2)
        let x = Tensor.randomUniform([s.batch, s.height, s.width, s.inChannels], in: -1...1, requiresGrad: s.inputNeedsGradient, using: &g)
        let w = Tensor.randomUniform([s.kernel, s.kernel, s.inChannels / s.groups, s.outChannels], in: -0.1...0.1, requiresGrad: true, using: &g)
        let b = s.bias ? Tensor.zeros([s.outChannels], requiresGrad: true) : nil
        let forward = medianSeconds(repeats: repeats) {
            _ = x.conv2d(weight: w, bias: b, stride: s.stride, padding: s.padding, groups: s.groups)
        }
        let dy = Tensor.randomUniform([s.batch, s.outHeight, s.outWidth, s.outChannels], in: -1...1, using: &g)
        // The backward pass alone, after an untimed forward (as the difference of two medians it was noisy).
        let backward = medianSeconds(repeats: repeats, setup: { () -> Tensor in
            x.zeroGrad(); w.zeroGrad(); b?.zeroGrad()
            return x.conv2d(weight: w, bias: b, stride: s.stride, padding: s.padding, groups: s.groups)
        }) { y in y.backward(gradient: dy) }
        return (forward, forward + backward)
    }

    /// Each pass of `s` by im2col + GEMM, Winograd F(2x2) and Winograd F(4x4), alternating the three
    /// in every repeat so that all see the same load; backward passes are timed alone (dX with the weight
    /// frozen, dW with the input frozen), after an untimed forward.
    private func compareWinograd(_ s: ConvShape) -> EngineBenchmarkReport.WinogradComparison {
        var g = SeededGenerator(seed: 4)
        let x = Tensor.randomUniform([s.batch, s.height, s.width, s.inChannels], in: -1...1, requiresGrad: true, using: &g)
        let w = Tensor.randomUniform([3, 3, s.inChannels, s.outChannels], in: -0.1...0.1, requiresGrad: true, using: &g)
        let b = s.bias ? Tensor.zeros([s.outChannels], requiresGrad: true) : nil
        let dy = Tensor.randomUniform([s.batch, s.outHeight, s.outWidth, s.outChannels], in: -1...1, using: &g)
        let algorithms: [ConvolutionAlgorithm] = [.im2col, .winograd, .winograd4x4]
        var times = [[[Double]]](repeating: [[], [], []], count: algorithms.count)
        for repeatIndex in 0...repeats {  // the first round warms up
            for (a, algorithm) in algorithms.enumerated() {
                func conv() -> Tensor { x.conv2d(weight: w, bias: b, stride: 1, padding: 1, algorithm: algorithm) }
                let forward = seconds { _ = Autodiff.withoutTape { conv() } }
                w.setRequiresGradient(false); b?.setRequiresGradient(false)
                var y = conv()
                let data = seconds { y.backward(gradient: dy) }
                x.setRequiresGradient(false); w.setRequiresGradient(true)
                y = conv()
                let weight = seconds { y.backward(gradient: dy) }
                x.setRequiresGradient(true); b?.setRequiresGradient(true); w.zeroGrad()
                if repeatIndex > 0 {
                    times[a][0].append(forward); times[a][1].append(data); times[a][2].append(weight)
                }
            }
        }
        let ms = times.map {
            EngineBenchmarkReport.PassMilliseconds(forward: median($0[0]) * 1e3, backwardData: median($0[1]) * 1e3, backwardWeight: median($0[2]) * 1e3)
        }
        let flops = s.forwardFLOPs / 1e6  // per pass, in units that turn milliseconds into GFLOP/s
        func rate(_ m: EngineBenchmarkReport.PassMilliseconds) -> EngineBenchmarkReport.PassMilliseconds {
            .init(forward: flops / m.forward, backwardData: flops / m.backwardData, backwardWeight: flops / m.backwardWeight)
        }
        func speedup(_ m: EngineBenchmarkReport.PassMilliseconds) -> EngineBenchmarkReport.PassMilliseconds {
            .init(forward: ms[0].forward / m.forward, backwardData: ms[0].backwardData / m.backwardData,
                  backwardWeight: ms[0].backwardWeight / m.backwardWeight)
        }
        let (passes, tile) = automaticWinogradPasses(s)
        return .init(
            name: s.name, shape: describe(s), im2col: ms[0], winograd: ms[1], winograd4x4: ms[2],
            speedup: speedup(ms[1]), speedup4x4: speedup(ms[2]),
            im2colGFLOPS: rate(ms[0]), winogradGFLOPS: rate(ms[1]), winograd4x4GFLOPS: rate(ms[2]),
            automatic: passes, automaticTile: tile)
    }

    private func automaticWinogradPasses(_ s: ConvShape) -> (passes: [String], tile: String?) {
        let geo = ConvGeometry(batch: s.batch, height: s.height, width: s.width, inChannels: s.inChannels,
                               kernelHeight: s.kernel, kernelWidth: s.kernel, outChannels: s.outChannels,
                               stride: s.stride, padding: s.padding, groups: s.groups)
        let chosen = geo.winogradPasses(.automatic)
        let passes = [("forward", chosen.forward), ("backward_data", chosen.backwardData), ("backward_weight", chosen.backwardWeight)]
            .filter(\.1).map(\.0)
        return (passes, passes.isEmpty ? nil : chosen.tile == .f2x2 ? "F(2x2)" : "F(4x4)")
    }

    /// Batch norm after the conv `s` as `ConvBNActivation` runs it in training: ReLU6 fused, its
    /// statistics gathered by `s` as it writes, its gradient sums by the conv after it (a 3x3
    /// depthwise, as in the backbone) as that one writes batch norm's output gradient. Forward: `s`
    /// gathering then batch norm, less `s` alone; backward: batch norm then the depthwise, less the
    /// depthwise alone; each in the order the network runs them, alternated in every round with
    /// "own": batch norm finding its sums in passes of its own (no fusion).
    private func timeBatchNorm(after s: ConvShape, name: String) -> EngineBenchmarkReport.Bandwidth {
        var g = SeededGenerator(seed: 3)
        let dims = [s.batch, s.outHeight, s.outWidth, s.outChannels]
        let c = dims[3]
        let input = Tensor.randomUniform([s.batch, s.height, s.width, s.inChannels], in: -1...1, using: &g)
        let w = Tensor.randomUniform([s.kernel, s.kernel, s.inChannels, c], in: -0.1...0.1, using: &g)
        let x = Tensor.randomUniform(dims, in: -2...2, requiresGrad: true, using: &g)
        let scale = Tensor(shape: [c], repeating: 1, requiresGrad: true), shift = Tensor.zeros([c], requiresGrad: true)
        let rm = Tensor.zeros([c]), rv = Tensor(shape: [c], repeating: 1)
        let next = Tensor.randomUniform([3, 3, 1, c], in: -0.3...0.3, requiresGrad: true, using: &g)
        let dz = Tensor.randomUniform(dims, in: -1...1, using: &g)
        func bn(_ x: Tensor, _ moments: ChannelMoments?) -> Tensor {
            x.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1),
                        clampedTo: 0...6, moments: moments)
        }
        func depthwise(_ y: Tensor) -> Tensor { y.conv2d(weight: next, padding: 1, groups: c) }
        // Per round: s alone, then batch norm finding its statistics; s gathering, then batch norm on them;
        // backward of batch norm + depthwise with and without fusion, and of the depthwise alone.
        var t = [[Double]](repeating: [], count: 7)
        for round in 0...repeats {  // the first round warms up
            var times: [Double] = []
            var plain = Tensor.zeros([1]), fused = plain
            var moments: ChannelMoments?
            // The first pass of a kind in a round ran slow (the backward below by 1.2-2.5x on the 2-4 MB
            // layers): an untimed one goes first, so that each timed pass follows one of its kind. (Timed
            // first, the conv alone had made gathering the moments look cheaper: b1 0.2 ms, now 0.3-0.4.)
            _ = input.conv2d(weight: w, stride: s.stride, padding: s.padding)
            times.append(seconds { plain = input.conv2d(weight: w, stride: s.stride, padding: s.padding) })
            times.append(seconds { _ = bn(plain, nil) })
            times.append(seconds { (fused, moments) = input.conv2dGatheringMoments(weight: w, stride: s.stride, padding: s.padding) })
            times.append(seconds { _ = bn(fused, moments) })
            (plain, fused) = (x, x)
            let leaf = Tensor.randomUniform(dims, in: -2...2, requiresGrad: true, using: &g)
            // Each backward runs right after its own (untimed) forward, and the first after an untimed
            // backward: on the 2-4 MB layers, where fusion changes nothing (it starts at
            // `minimumGatheredGradientBytes`), the first backward of a round ran 1.2-2.5x slower than the
            // same code timed second. x's gradient dropped first each time: batch norm writes a fresh one,
            // as in the network.
            var z = depthwise(leaf)
            z.backward(gradient: dz)
            z = depthwise(bn(x, nil))
            times.append(seconds { x.zeroGrad(); z.backward(gradient: dz) })
            z = BatchNormFusion.withoutFusion { depthwise(bn(x, nil)) }
            times.append(seconds { x.zeroGrad(); BatchNormFusion.withoutFusion { z.backward(gradient: dz) } })
            z = depthwise(leaf)
            times.append(seconds { leaf.zeroGrad(); z.backward(gradient: dz) })  // a fresh gradient, as the other two
            z = x  // release the graph before the next round
            if round > 0 { for (k, v) in times.enumerated() { t[k].append(v) } }
        }
        let m = t.map(median)
        let gather = max(0, m[2] - m[0])
        // Differences of medians: floored at a twentieth of the unfused time so that noise cannot make them vanish.
        let (forward, ownForward) = (max(0.05 * m[1], gather + m[3]), m[1])
        let (backward, ownBackward) = (max(0.05 * (m[5] - m[6]), m[4] - m[6]), max(1e-9, m[5] - m[6]))
        let bytes = Double(x.count * 4)
        let memcpy = measureMemcpy(bytes: Int(bytes))
        // Minimal traffic: forward reads x, writes y; backward reads dy and x, writes dx.
        func ratio(_ traffic: Double, _ seconds: Double) -> Double { traffic * bytes / seconds / 1e9 / memcpy }
        return .init(name: name, shape: dims.map(String.init).joined(separator: "x"),
                     forwardGBps: 2 * bytes / forward / 1e9, backwardGBps: 3 * bytes / backward / 1e9,
                     memcpyGBps: memcpy, forwardRatio: ratio(2, forward), backwardRatio: ratio(3, backward),
                     gatherMilliseconds: gather * 1e3, ownPassForwardRatio: ratio(2, ownForward), ownPassBackwardRatio: ratio(3, ownBackward))
    }
}
