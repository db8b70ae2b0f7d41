import Foundation

/// Winograd F(2x2, 3x3) and F(4x4, 3x3) for dense 3x3 convolutions with stride 1 and
/// padding 1 (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016,
/// section 4).
///
/// The output is cut into m x m tiles (m = 2 or 4); tile t reads the (m+2) x (m+2) input
/// patch d_t around it (rows m ty - 1 ..< m ty + m + 1, likewise columns, zero outside the
/// map). Per channel pair
///
///     Y_t = A^T [ U ⊙ V_t ] A,   U = G g G^T,   V_t = B^T d_t B,
///
/// summed over input channels, so for each of the (m+2)^2 entries ξ of a transformed tile
/// the channel sum is one GEMM: M[ξ] (tiles x Cout) = V[ξ] (tiles x Cin) x U[ξ] (Cin x Cout).
/// F(2x2) does 16 multiplies for 4 outputs, F(4x4) 36 for 16, where the direct conv (and
/// im2col) does 9 per output: 2.25x and 4x fewer. F(4x4) also moves fewer transformed
/// floats per output (2.25 against 4).
///
/// - Backward data is the same conv of dY with the kernel turned 180° and its in/out
///   channels swapped: its U is transformed from the turned kernel with its channels swapped,
///   [ξ][Cout][Cin], so that its product is the forward's plain one, on the same packed panels.
/// - Backward weights: dM_t = A dY_t A^T, dU[ξ] = sum over tiles of V[ξ]^T dM[ξ] (one GEMM
///   per ξ with the long reduction over tiles), dg = G^T dU G.
///
/// Layout: tiles are numbered (image, tile row, tile column). A block of T tiles transforms
/// into buffers laid out [ξ][T][C], so each ξ is a contiguous T x C matrix for the GEMM and
/// the transforms run along the contiguous channels (16 at a time, then 8, then one by one). The
/// forward's and backward data's products are `packedProduct`s on U packed per call (OpenBLAS
/// would pack U and V again and zero M before each of the 36 small products: 12% of the
/// quickstart's heads, bench train on the Zen 3); the weight pass's long reductions over tiles
/// stay single-threaded OpenBLAS calls. Blocks of tiles depend on the shape only, so results
/// are bit-identical for any thread count.
///
/// Rounding (tested against a double-precision reference): F(2x2) adds up to 4 input values
/// before the products and up to 9 products after, errors at most 5e-7 of the output's scale
/// in the tests; F(4x4)'s transforms weigh values by up to 8 (and its kernel transform by
/// 1/6 and 1/24, inexact in binary), errors at most 5e-6, the price of F(4x4, 3x3) in fp32
/// that cuDNN and oneDNN pay too.

/// How `conv2d` computes a dense convolution.
public enum ConvolutionAlgorithm: Sendable, Equatable {
    /// The engine's choice per shape and pass: direct kernels for depthwise and few-channel
    /// convs, Winograd where it was measured to pay (`ConvGeometry.winogradPasses`), else im2col + GEMM.
    case automatic
    /// im2col + GEMM for every pass (a single GEMM for an unpadded stride-1 1x1), whatever the shape.
    case im2col
    /// Winograd F(2x2, 3x3) for every pass; dense 3x3 convs with stride 1 and padding 1 only.
    case winograd
    /// Winograd F(4x4, 3x3) for every pass; dense 3x3 convs with stride 1 and padding 1 only.
    case winograd4x4
}

/// The output tile of a Winograd pass: F(2x2, 3x3) or F(4x4, 3x3).
public enum WinogradTile: Int, Sendable, Equatable {
    case f2x2 = 2, f4x4 = 4
}

/// Which passes of a convolution run Winograd, and with which tile.
public struct WinogradPasses: Equatable, Sendable {
    /// Whether the output, the input gradient and the weight gradient are computed by Winograd.
    public var forward = false, backwardData = false, backwardWeight = false
    /// The tile every Winograd pass of the conv uses.
    public var tile = WinogradTile.f2x2
    /// Passes by Winograd as given; none by default.
    public init(forward: Bool = false, backwardData: Bool = false, backwardWeight: Bool = false, tile: WinogradTile = .f2x2) {
        (self.forward, self.backwardData, self.backwardWeight, self.tile) = (forward, backwardData, backwardWeight, tile)
    }
    static let none = WinogradPasses()
    static func all(_ tile: WinogradTile) -> WinogradPasses { WinogradPasses(forward: true, backwardData: true, backwardWeight: true, tile: tile) }
    var isNone: Bool { !forward && !backwardData && !backwardWeight }
}

extension ConvGeometry {
    /// Dense 3x3 with stride 1 and padding 1: the convs Winograd computes.
    public var isWinogradShape: Bool { groups == 1 && kernelHeight == 3 && kernelWidth == 3 && stride == 1 && padding == 1 }

    /// Output tiles of a Winograd pass over this conv.
    func winogradTileCount(_ tile: WinogradTile) -> Int {
        let m = tile.rawValue
        return batch * ((height + m - 1) / m) * ((width + m - 1) / m)
    }

    /// The passes that run Winograd under `algorithm`.
    public func winogradPasses(_ algorithm: ConvolutionAlgorithm) -> WinogradPasses {
        switch algorithm {
        case .im2col: return .none
        case .winograd, .winograd4x4:
            precondition(isWinogradShape, "conv2d: Winograd needs a dense 3x3 conv with stride 1 and padding 1, got \(self)")
            return .all(algorithm == .winograd ? .f2x2 : .f4x4)
        case .automatic:
            guard winogradAutomatic, isWinogradShape,
                  min(inChannels, outChannels) >= WinogradPolicy.minimumChannels else { return .none }
            // F(4x4) only where its tiles hold at least half their pixels (not on maps of a few pixels a side).
            let tiles4x4 = winogradTileCount(.f4x4)
            if tiles4x4 >= WinogradPolicy.minimumTiles4x4 && 2 * batch * height * width >= 16 * tiles4x4 { return .all(.f4x4) }
            let tiles = winogradTileCount(.f2x2)
            return WinogradPasses(
                forward: tiles >= WinogradPolicy.minimumTiles, backwardData: tiles >= WinogradPolicy.minimumTiles,
                backwardWeight: tiles >= WinogradPolicy.minimumWeightTiles)
        }
    }
}

/// Where `.automatic` picks Winograd, from `uidetect bench engine` (Experiments/winograd/,
/// Experiments/speed/issue-29/).
///
/// Below these the fixed costs (transforming every weight per call, GEMMs too small for
/// OpenBLAS to reach speed, the weight pass's (m+2)^2 x Cin x Cout partials per block) outweigh
/// the fewer multiplies: at 64 F(2x2) tiles (8 images of 8x4) the forward and data passes
/// gained 1.1-1.9x but the weight pass did not (0.75-1.15x); at 256 tiles every pass gained.
enum WinogradPolicy {
    /// Not measured lower: the bench network's dense 3x3 stride-1 convs all have 32 channels or more.
    static let minimumChannels = 16
    static let minimumTiles = 64
    static let minimumWeightTiles = 256
    /// F(4x4) tiles from which every pass runs F(4x4) instead of F(2x2) (at least half of their
    /// pixels inside the map): at 32 tiles (batch 1 of the bench network's P4) F(4x4) ran
    /// forward, data and weight passes 2.0-3.1x, 1.6-1.7x and 2.1-2.7x faster than im2col, as
    /// fast as F(2x2) or faster (where F(2x2)'s weight pass does not pay); at 8 and 16 mixed.
    static let minimumTiles4x4 = 32
    /// Tiles per block of the forward and data passes, and per chunk of the weight pass. F(2x2):
    /// 128, measured against 64 (slower: the GEMMs get too few rows) and 256 (no faster; V and M
    /// of 64 channels already take 1 MiB at 128, twice one core's L2 here). F(4x4): 64, about
    /// the same footprint (36 entries a tile against 16); 32 and 128 measured no better overall.
    static func tilesPerBlock(_ tile: WinogradTile) -> Int { tile == .f2x2 ? 128 : 64 }
    /// Chunks per block of the weight pass: fewer blocks, fewer (m+2)^2 x Cin x Cout partials to add.
    static let weightChunksPerBlock = 4
    /// Blocks a pass is cut into at least (tiles permitting), so that both cores get work;
    /// more blocks measured slower, since each GEMM then gets fewer rows.
    static let minimumBlocks = 2
}

/// `UIDETECT_WINOGRAD=off` turns `.automatic`'s Winograd off for the whole process, so that a
/// network's training or inference can be timed with and without it on the same build.
let winogradAutomatic = ProcessInfo.processInfo.environment["UIDETECT_WINOGRAD"] != "off"

// MARK: - Passes

/// out = conv(x, w) + bias, by Winograd with `tile`; `prepared`: w's U packed once (inference), else U is made here.
func winogradForward(
    _ geo: ConvGeometry, tile: WinogradTile, x: UnsafePointer<Float>, w: UnsafePointer<Float>, prepared: PreparedWinogradWeights? = nil,
    stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    func run<T: WinogradTransform>(_: T.Type) {
        let (cin, cout) = (geo.inChannels, geo.outChannels)
        let weights = prepared?.panels(T.tile) ?? packedEntries(T.self, transformedWeights(T.self, w, inChannels: cin, outChannels: cout),
                                                               inChannels: cin, outChannels: cout)
        winogradConvolve(T.self, WinogradTiles(geo, T.self), input: x, inChannels: geo.inChannels,
                         weights: weights, outChannels: geo.outChannels, stage: stage, out: out, accumulate: false)
    }
    switch tile {
    case .f2x2: run(F2x2.self)
    case .f4x4: run(F4x4.self)
    }
}

/// dX (+)= the conv of dY with the kernel turned 180° and its channels swapped, by Winograd.
func winogradBackwardData(_ geo: ConvGeometry, tile: WinogradTile, w: UnsafePointer<Float>, gy: UnsafePointer<Float>, gx: GradientTarget) {
    func run<T: WinogradTransform>(_: T.Type) {
        let swapped = channelsSwapped(w, taps: 9, inChannels: geo.inChannels, outChannels: geo.outChannels)
        let u = transformedWeights(T.self, swapped.pointer, inChannels: geo.outChannels, outChannels: geo.inChannels, turned: true)
        let weights = packedEntries(T.self, u, inChannels: geo.outChannels, outChannels: geo.inChannels)
        winogradConvolve(T.self, WinogradTiles(geo, T.self), input: gy, inChannels: geo.outChannels, weights: weights,
                         outChannels: geo.inChannels, stage: .none, out: gx.pointer, accumulate: gx.accumulate)
    }
    switch tile {
    case .f2x2: run(F2x2.self)
    case .f4x4: run(F4x4.self)
    }
}

/// dW (+)= G^T [ sum over tiles of V^T (A dY A^T) ] G, by one GEMM per ξ reducing over tiles.
func winogradBackwardWeight(_ geo: ConvGeometry, tile: WinogradTile, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, gw: GradientTarget) {
    switch tile {
    case .f2x2: winogradBackwardWeight(F2x2.self, geo, x: x, gy: gy, gw: gw)
    case .f4x4: winogradBackwardWeight(F4x4.self, geo, x: x, gy: gy, gw: gw)
    }
}

/// Fixed blocks of tiles each sum their GEMMs into partials of their own (chunk by chunk, so
/// the transformed tiles stay in cache); the partials are added in block order.
private func winogradBackwardWeight<T: WinogradTransform>(
    _: T.Type, _ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, gw: GradientTarget
) {
    let tiles = WinogradTiles(geo, T.self)
    let (cin, cout, entries) = (geo.inChannels, geo.outChannels, T.entries)
    guard tiles.count > 0 else {
        if !gw.accumulate { gw.pointer.update(repeating: 0, count: 9 * cin * cout) }
        return
    }
    let chunk = WinogradPolicy.tilesPerBlock(T.tile)
    let perBlock = min(chunk * WinogradPolicy.weightChunksPerBlock, blockTiles(tiles.count))
    let blocks = Parallel.blockCount(count: tiles.count, blockSize: perBlock)
    let matrix = entryStride(tiles: cin, channels: cout)
    let partial = Storage(count: blocks * entries * matrix)
    Parallel.forEachBlock(count: tiles.count, blockSize: perBlock) { b, r in
        let chunkTiles = min(chunk, r.count)
        let scratch = Storage(count: entries * (entryStride(tiles: chunkTiles, channels: cin) + entryStride(tiles: chunkTiles, channels: cout) + cin))
        let v = scratch.pointer, dm = v + entries * entryStride(tiles: chunkTiles, channels: cin)
        let patch = dm + entries * entryStride(tiles: chunkTiles, channels: cout)
        let acc = partial.pointer + b * entries * matrix
        for c0 in stride(from: r.lowerBound, to: r.upperBound, by: chunk) {
            let part = c0..<min(r.upperBound, c0 + chunk)
            transformInput(T.self, tiles, x: x, channels: cin, range: part, v: v, patch: patch)
            transformOutputGradient(T.self, tiles, gy: gy, channels: cout, range: part, dm: dm)
            let beta: Float = c0 == r.lowerBound ? 0 : 1
            let (vStride, dmStride) = (entryStride(tiles: part.count, channels: cin), entryStride(tiles: part.count, channels: cout))
            for xi in 0..<entries {
                rawSGEMM(true, false, cin, cout, part.count, 1, v + xi * vStride, cin,
                         dm + xi * dmStride, cout, beta, acc + xi * matrix, cout)
            }
        }
    }
    let du = partial.pointer
    for b in 1..<max(1, blocks) {
        let p = partial.pointer + b * entries * matrix
        for i in 0..<(entries * matrix) { du[i] += p[i] }
    }
    weightGradientFromTransformed(T.self, du, inChannels: cin, outChannels: cout, gw: gw)
}

/// A conv's weights transformed once for each Winograd tile (inference: the tile depends on
/// the input's size, known only per call), each entry's Cin x Cout matrix packed for `packedProduct`.
final class PreparedWinogradWeights: @unchecked Sendable {
    // Both tiles' U: 52 floats per weight pair against the weights' 9, a few MB for a whole detector.
    private let f2x2, f4x4: [PackedPanels]

    init(_ w: UnsafePointer<Float>, inChannels cin: Int, outChannels cout: Int) {
        func packed<T: WinogradTransform>(_: T.Type) -> [PackedPanels] {
            packedEntries(T.self, transformedWeights(T.self, w, inChannels: cin, outChannels: cout), inChannels: cin, outChannels: cout)
        }
        (f2x2, f4x4) = (packed(F2x2.self), packed(F4x4.self))
    }

    /// U for `tile`, one packed Cin x Cout matrix per entry ξ.
    func panels(_ tile: WinogradTile) -> [PackedPanels] { tile == .f2x2 ? f2x2 : f4x4 }
}

/// U's Cin x Cout matrix of each entry ξ (as `transformedWeights` lays them out), packed for `packedProduct`.
private func packedEntries<T: WinogradTransform>(_: T.Type, _ u: Storage, inChannels cin: Int, outChannels cout: Int) -> [PackedPanels] {
    let matrix = entryStride(tiles: cin, channels: cout)
    return (0..<T.entries).map { PackedPanels(u.pointer + $0 * matrix, k: cin, n: cout) }
}

// MARK: - Tiles and the shared convolution

/// The m x m output tiles of a stride-1, padding-1 3x3 conv (output size = input size).
struct WinogradTiles {
    let batch, height, width: Int
    /// Tiles per image, down and across.
    let rows, columns: Int
    var count: Int { batch * rows * columns }

    init<T: WinogradTransform>(_ geo: ConvGeometry, _: T.Type) {
        let m = T.tile.rawValue
        (batch, height, width) = (geo.batch, geo.height, geo.width)
        (rows, columns) = ((geo.height + m - 1) / m, (geo.width + m - 1) / m)
    }

    /// Image, tile row and tile column of tile `t`.
    @inline(__always) func locate(_ t: Int) -> (n: Int, ty: Int, tx: Int) {
        let (n, rest) = t.quotientAndRemainder(dividingBy: rows * columns)
        let (ty, tx) = rest.quotientAndRemainder(dividingBy: columns)
        return (n, ty, tx)
    }
}

/// Tiles per block when `count` tiles are cut into at least `WinogradPolicy.minimumBlocks`
/// (but none under 16); a function of the count alone, so sums never depend on the thread count.
private func blockTiles(_ count: Int) -> Int {
    max(16, (count + WinogradPolicy.minimumBlocks - 1) / WinogradPolicy.minimumBlocks)
}

/// out (+)= the conv of `input` (N, H, W, inChannels) given its transformed weights (one packed U per entry ξ), plus bias.
private func winogradConvolve<T: WinogradTransform>(
    _: T.Type, _ tiles: WinogradTiles, input: UnsafePointer<Float>, inChannels cin: Int, weights: [PackedPanels],
    outChannels cout: Int, stage: OutputStage, out: UnsafeMutablePointer<Float>, accumulate: Bool
) {
    let entries = T.entries
    Parallel.forEachBlock(count: tiles.count, blockSize: min(WinogradPolicy.tilesPerBlock(T.tile), blockTiles(tiles.count))) { _, r in
        let t = r.count
        let (vStride, mStride) = (entryStride(tiles: t, channels: cin), entryStride(tiles: t, channels: cout))
        let scratch = Storage(count: entries * (vStride + mStride + cin))
        let v = scratch.pointer, m = v + entries * vStride, patch = m + entries * mStride
        transformInput(T.self, tiles, x: input, channels: cin, range: r, v: v, patch: patch)
        for xi in 0..<entries {
            packedProduct(rows: 0..<t, panels: 0..<weights[xi].panelCount, a: v + xi * vStride, lda: cin, b: weights[xi],
                          bias: nil, c: m + xi * mStride, ldc: cout)
        }
        transformOutput(T.self, tiles, m: m, channels: cout, range: r, stage: stage, out: out, accumulate: accumulate)
    }
}

/// Floats from one entry ξ of a block's transformed tiles (or of U) to the next: the T x C matrix plus
/// one cache line, since with power-of-two T x C the entries a transform writes at once
/// would all fall in the same cache set.
@inline(__always)
private func entryStride(tiles t: Int, channels c: Int) -> Int { t * c + 16 }

// MARK: - Transforms

/// Lanes of channels a kernel works on at once: 16 or 8 in registers, or 1 for the remainder (Winograd's
/// transforms; also the per-channel walks of batch norm's sums and the depthwise weight gradient).
protocol WinogradLanes {
    init(loading p: UnsafePointer<Float>)
    init(repeating: Float)
    func store(to p: UnsafeMutablePointer<Float>)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Float) -> Self
    static prefix func - (a: Self) -> Self
    /// Each lane limited to [lo, hi].
    func clamped(_ lo: Float, _ hi: Float) -> Self
}

extension SIMD8: WinogradLanes where Scalar == Float {
    @inline(__always) init(loading p: UnsafePointer<Float>) { self = UnsafeRawPointer(p).loadUnaligned(as: Self.self) }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: self, as: Self.self) }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self {
        var r = self
        for i in 0..<8 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
        return r
    }
}

extension SIMD16: WinogradLanes where Scalar == Float {
    @inline(__always) init(loading p: UnsafePointer<Float>) { self = UnsafeRawPointer(p).loadUnaligned(as: Self.self) }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: self, as: Self.self) }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self { VectorMath.clamped(self, lo, hi) }
}

extension Float: WinogradLanes {
    @inline(__always) init(loading p: UnsafePointer<Float>) { self = p.pointee }
    @inline(__always) init(repeating value: Float) { self = value }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { p.pointee = self }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self { Swift.min(Swift.max(self, lo), hi) }
}

/// The transforms of one Winograd algorithm F(m x m, 3x3), each written out for its m.
///
/// Entry ξ = (m+2) i + k of a transformed tile is row i, column k. Tiles of lanes live at
/// `base + ξ * stride` (one T x C matrix per ξ, see `entryStride`).
protocol WinogradTransform {
    static var tile: WinogradTile { get }
    /// V = B^T d B of the (m+2) x (m+2) patch of lanes at `d` (rows `rowStride` apart, pixels `pixel` apart).
    static func inputTile<L: WinogradLanes>(_: L.Type, _ d: UnsafePointer<Float>, rowStride: Int, pixel: Int,
                                            _ v: UnsafeMutablePointer<Float>, stride: Int)
    /// Y = A^T M A of one transformed tile of lanes: `put(i, k, y)` for each of the m x m outputs.
    static func outputTile<L: WinogradLanes>(_: L.Type, _ m: UnsafePointer<Float>, stride: Int, _ put: (Int, Int, L) -> Void)
    /// dM = A dY A^T of the m x m output gradient `y(i, k)`, stored at dm + ξ * stride.
    static func gradientTile<L: WinogradLanes>(_: L.Type, _ y: (Int, Int) -> L, _ dm: UnsafeMutablePointer<Float>, stride: Int)
    /// U = G g G^T of the 3x3 kernels of lanes `tap(ky, kx)`: `put(ξ, u)`.
    static func kernelTile<L: WinogradLanes>(_: L.Type, _ tap: (Int, Int) -> L, _ put: (Int, L) -> Void)
    /// g = G^T dU G of the transformed kernel gradients of lanes `at(ξ)`: `put(ky, kx, g)`.
    static func kernelGradient<L: WinogradLanes>(_: L.Type, _ at: (Int) -> L, _ put: (Int, Int, L) -> Void)
}

extension WinogradTransform {
    /// Entries of a transformed tile: (m + 2)^2.
    static var entries: Int { (tile.rawValue + 2) * (tile.rawValue + 2) }
}

/// Column k of a 4x4 transformed tile: entries (i, k), i = 0 ..< 4, at base + (4 i + k) * stride.
@inline(__always)
private func storeColumn<L: WinogradLanes>(_ c: (L, L, L, L), _ k: Int, _ base: UnsafeMutablePointer<Float>, stride: Int) {
    c.0.store(to: base + k * stride)
    c.1.store(to: base + (4 + k) * stride)
    c.2.store(to: base + (8 + k) * stride)
    c.3.store(to: base + (12 + k) * stride)
}

/// Column k of a 6x6 transformed tile: entries (i, k), i = 0 ..< 6, at base + (6 i + k) * stride.
@inline(__always)
private func storeColumn<L: WinogradLanes>(_ c: (L, L, L, L, L, L), _ k: Int, _ base: UnsafeMutablePointer<Float>, stride: Int) {
    c.0.store(to: base + k * stride)
    c.1.store(to: base + (6 + k) * stride)
    c.2.store(to: base + (12 + k) * stride)
    c.3.store(to: base + (18 + k) * stride)
    c.4.store(to: base + (24 + k) * stride)
    c.5.store(to: base + (30 + k) * stride)
}

/// F(2x2, 3x3): 4x4 transformed tiles.
enum F2x2: WinogradTransform {
    static var tile: WinogradTile { .f2x2 }

    /// One row or column of B^T d B: B^T (d0, d1, d2, d3).
    @inline(__always)
    private static func inputRow<L: WinogradLanes>(_ d0: L, _ d1: L, _ d2: L, _ d3: L) -> (L, L, L, L) {
        (d0 - d2, d1 + d2, d2 - d1, d1 - d3)
    }

    /// One row or column of A^T m A: A^T (m0, m1, m2, m3).
    @inline(__always)
    private static func outputRow<L: WinogradLanes>(_ m0: L, _ m1: L, _ m2: L, _ m3: L) -> (L, L) {
        (m0 + m1 + m2, m1 - m2 - m3)
    }

    /// One row or column of A y A^T: A (y0, y1).
    @inline(__always)
    private static func gradientRow<L: WinogradLanes>(_ y0: L, _ y1: L) -> (L, L, L, L) {
        (y0, y0 + y1, y0 - y1, -y1)
    }

    @inline(__always)
    static func inputTile<L: WinogradLanes>(_: L.Type, _ d: UnsafePointer<Float>, rowStride: Int, pixel: Int,
                                            _ v: UnsafeMutablePointer<Float>, stride: Int) {
        // Along each row (d B), then down each column (B^T e).
        @inline(__always) func row(_ r: Int) -> (L, L, L, L) {
            let p = d + r * rowStride
            return inputRow(L(loading: p), L(loading: p + pixel), L(loading: p + 2 * pixel), L(loading: p + 3 * pixel))
        }
        let (e0, e1, e2, e3) = (row(0), row(1), row(2), row(3))
        storeColumn(inputRow(e0.0, e1.0, e2.0, e3.0), 0, v, stride: stride)
        storeColumn(inputRow(e0.1, e1.1, e2.1, e3.1), 1, v, stride: stride)
        storeColumn(inputRow(e0.2, e1.2, e2.2, e3.2), 2, v, stride: stride)
        storeColumn(inputRow(e0.3, e1.3, e2.3, e3.3), 3, v, stride: stride)
    }

    @inline(__always)
    static func outputTile<L: WinogradLanes>(_: L.Type, _ m: UnsafePointer<Float>, stride: Int, _ put: (Int, Int, L) -> Void) {
        @inline(__always) func row(_ i: Int) -> (L, L) {
            let p = m + 4 * i * stride
            return outputRow(L(loading: p), L(loading: p + stride), L(loading: p + 2 * stride), L(loading: p + 3 * stride))
        }
        let (s0, s1, s2, s3) = (row(0), row(1), row(2), row(3))
        let (y00, y10) = outputRow(s0.0, s1.0, s2.0, s3.0)
        let (y01, y11) = outputRow(s0.1, s1.1, s2.1, s3.1)
        put(0, 0, y00); put(0, 1, y01); put(1, 0, y10); put(1, 1, y11)
    }

    @inline(__always)
    static func gradientTile<L: WinogradLanes>(_: L.Type, _ y: (Int, Int) -> L, _ dm: UnsafeMutablePointer<Float>, stride: Int) {
        let q0 = gradientRow(y(0, 0), y(0, 1)), q1 = gradientRow(y(1, 0), y(1, 1))
        storeColumn(gradientRow(q0.0, q1.0), 0, dm, stride: stride)
        storeColumn(gradientRow(q0.1, q1.1), 1, dm, stride: stride)
        storeColumn(gradientRow(q0.2, q1.2), 2, dm, stride: stride)
        storeColumn(gradientRow(q0.3, q1.3), 3, dm, stride: stride)
    }

    /// G (g0, g1, g2) = (g0, (g0 + g1 + g2) / 2, (g0 - g1 + g2) / 2, g2).
    @inline(__always)
    private static func kernelRow<L: WinogradLanes>(_ a: L, _ b: L, _ c: L) -> (L, L, L, L) {
        (a, (a + b + c) * 0.5, (a - b + c) * 0.5, c)
    }

    /// G^T (u0, u1, u2, u3) = (u0 + (u1 + u2) / 2, (u1 - u2) / 2, (u1 + u2) / 2 + u3).
    @inline(__always)
    private static func kernelGradientRow<L: WinogradLanes>(_ u0: L, _ u1: L, _ u2: L, _ u3: L) -> (L, L, L) {
        (u0 + (u1 + u2) * 0.5, (u1 - u2) * 0.5, (u1 + u2) * 0.5 + u3)
    }

    @inline(__always)
    static func kernelTile<L: WinogradLanes>(_: L.Type, _ tap: (Int, Int) -> L, _ put: (Int, L) -> Void) {
        // Down the columns (G g), then along the rows ((G g) G^T).
        let c0 = kernelRow(tap(0, 0), tap(1, 0), tap(2, 0))
        let c1 = kernelRow(tap(0, 1), tap(1, 1), tap(2, 1))
        let c2 = kernelRow(tap(0, 2), tap(1, 2), tap(2, 2))
        @inline(__always) func row(_ i: Int, _ a: L, _ b: L, _ c: L) {
            let (u0, u1, u2, u3) = kernelRow(a, b, c)
            put(4 * i, u0); put(4 * i + 1, u1); put(4 * i + 2, u2); put(4 * i + 3, u3)
        }
        row(0, c0.0, c1.0, c2.0)
        row(1, c0.1, c1.1, c2.1)
        row(2, c0.2, c1.2, c2.2)
        row(3, c0.3, c1.3, c2.3)
    }

    @inline(__always)
    static func kernelGradient<L: WinogradLanes>(_: L.Type, _ at: (Int) -> L, _ put: (Int, Int, L) -> Void) {
        // Down the columns (G^T dU), then along the rows ((G^T dU) G).
        @inline(__always) func column(_ k: Int) -> (L, L, L) { kernelGradientRow(at(k), at(4 + k), at(8 + k), at(12 + k)) }
        let (c0, c1, c2, c3) = (column(0), column(1), column(2), column(3))
        @inline(__always) func row(_ ky: Int, _ a: L, _ b: L, _ c: L, _ d: L) {
            let (g0, g1, g2) = kernelGradientRow(a, b, c, d)
            put(ky, 0, g0); put(ky, 1, g1); put(ky, 2, g2)
        }
        row(0, c0.0, c1.0, c2.0, c3.0)
        row(1, c0.1, c1.1, c2.1, c3.1)
        row(2, c0.2, c1.2, c2.2, c3.2)
    }
}

/// F(4x4, 3x3): 6x6 transformed tiles, interpolation points 0, ±1, ±2 and ∞ (Lavin and Gray's matrices).
enum F4x4: WinogradTransform {
    static var tile: WinogradTile { .f4x4 }

    /// One row or column of B^T d B:
    /// B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1].
    @inline(__always)
    private static func inputRow<L: WinogradLanes>(_ d0: L, _ d1: L, _ d2: L, _ d3: L, _ d4: L, _ d5: L) -> (L, L, L, L, L, L) {
        let a = d4 - d2 * 4, b = d3 - d1 * 4
        let c = d4 - d2, e = (d3 - d1) * 2
        return (d0 * 4 - d2 * 5 + d4, a + b, a - b, c + e, c - e, d1 * 4 - d3 * 5 + d5)
    }

    /// One row or column of A^T m A: A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
    @inline(__always)
    private static func outputRow<L: WinogradLanes>(_ m0: L, _ m1: L, _ m2: L, _ m3: L, _ m4: L, _ m5: L) -> (L, L, L, L) {
        let a = m1 + m2, b = m1 - m2, c = m3 + m4, e = m3 - m4
        return (m0 + a + c, b + e * 2, a + c * 4, b + e * 8 + m5)
    }

    /// One row or column of A y A^T: A (y0, y1, y2, y3), A the transpose of A^T above.
    @inline(__always)
    private static func gradientRow<L: WinogradLanes>(_ y0: L, _ y1: L, _ y2: L, _ y3: L) -> (L, L, L, L, L, L) {
        let p = y0 + y2, q = y1 + y3
        let r = y0 + y2 * 4, s = y1 * 2 + y3 * 8
        return (y0, p + q, p - q, r + s, r - s, y3)
    }

    @inline(__always)
    static func inputTile<L: WinogradLanes>(_: L.Type, _ d: UnsafePointer<Float>, rowStride: Int, pixel: Int,
                                            _ v: UnsafeMutablePointer<Float>, stride: Int) {
        // Along each row (d B), then down each column (B^T e).
        @inline(__always) func row(_ r: Int) -> (L, L, L, L, L, L) {
            let p = d + r * rowStride
            return inputRow(L(loading: p), L(loading: p + pixel), L(loading: p + 2 * pixel),
                            L(loading: p + 3 * pixel), L(loading: p + 4 * pixel), L(loading: p + 5 * pixel))
        }
        let (e0, e1, e2, e3, e4, e5) = (row(0), row(1), row(2), row(3), row(4), row(5))
        storeColumn(inputRow(e0.0, e1.0, e2.0, e3.0, e4.0, e5.0), 0, v, stride: stride)
        storeColumn(inputRow(e0.1, e1.1, e2.1, e3.1, e4.1, e5.1), 1, v, stride: stride)
        storeColumn(inputRow(e0.2, e1.2, e2.2, e3.2, e4.2, e5.2), 2, v, stride: stride)
        storeColumn(inputRow(e0.3, e1.3, e2.3, e3.3, e4.3, e5.3), 3, v, stride: stride)
        storeColumn(inputRow(e0.4, e1.4, e2.4, e3.4, e4.4, e5.4), 4, v, stride: stride)
        storeColumn(inputRow(e0.5, e1.5, e2.5, e3.5, e4.5, e5.5), 5, v, stride: stride)
    }

    @inline(__always)
    static func outputTile<L: WinogradLanes>(_: L.Type, _ m: UnsafePointer<Float>, stride: Int, _ put: (Int, Int, L) -> Void) {
        // Along each row (M A), then down each column (A^T s).
        @inline(__always) func row(_ i: Int) -> (L, L, L, L) {
            let p = m + 6 * i * stride
            return outputRow(L(loading: p), L(loading: p + stride), L(loading: p + 2 * stride),
                             L(loading: p + 3 * stride), L(loading: p + 4 * stride), L(loading: p + 5 * stride))
        }
        let (s0, s1, s2, s3, s4, s5) = (row(0), row(1), row(2), row(3), row(4), row(5))
        @inline(__always) func column(_ k: Int, _ a: L, _ b: L, _ c: L, _ e: L, _ f: L, _ g: L) {
            let (y0, y1, y2, y3) = outputRow(a, b, c, e, f, g)
            put(0, k, y0); put(1, k, y1); put(2, k, y2); put(3, k, y3)
        }
        column(0, s0.0, s1.0, s2.0, s3.0, s4.0, s5.0)
        column(1, s0.1, s1.1, s2.1, s3.1, s4.1, s5.1)
        column(2, s0.2, s1.2, s2.2, s3.2, s4.2, s5.2)
        column(3, s0.3, s1.3, s2.3, s3.3, s4.3, s5.3)
    }

    @inline(__always)
    static func gradientTile<L: WinogradLanes>(_: L.Type, _ y: (Int, Int) -> L, _ dm: UnsafeMutablePointer<Float>, stride: Int) {
        // Along each row (dY A^T), then down each column (A q).
        @inline(__always) func row(_ i: Int) -> (L, L, L, L, L, L) { gradientRow(y(i, 0), y(i, 1), y(i, 2), y(i, 3)) }
        let (q0, q1, q2, q3) = (row(0), row(1), row(2), row(3))
        storeColumn(gradientRow(q0.0, q1.0, q2.0, q3.0), 0, dm, stride: stride)
        storeColumn(gradientRow(q0.1, q1.1, q2.1, q3.1), 1, dm, stride: stride)
        storeColumn(gradientRow(q0.2, q1.2, q2.2, q3.2), 2, dm, stride: stride)
        storeColumn(gradientRow(q0.3, q1.3, q2.3, q3.3), 3, dm, stride: stride)
        storeColumn(gradientRow(q0.4, q1.4, q2.4, q3.4), 4, dm, stride: stride)
        storeColumn(gradientRow(q0.5, q1.5, q2.5, q3.5), 5, dm, stride: stride)
    }

    /// G (g0, g1, g2), G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1].
    @inline(__always)
    private static func kernelRow<L: WinogradLanes>(_ a: L, _ b: L, _ c: L) -> (L, L, L, L, L, L) {
        let s = a + c, p = a * (1 / 24) + c * (1 / 6), q = b * (1 / 12)
        return (a * 0.25, -(s + b) * (1 / 6), (b - s) * (1 / 6), p + q, p - q, c)
    }

    /// G^T (u0 ... u5), G as above.
    @inline(__always)
    private static func kernelGradientRow<L: WinogradLanes>(_ u0: L, _ u1: L, _ u2: L, _ u3: L, _ u4: L, _ u5: L) -> (L, L, L) {
        let a = u1 + u2, b = u3 + u4
        return (u0 * 0.25 - a * (1 / 6) + b * (1 / 24), (u2 - u1) * (1 / 6) + (u3 - u4) * (1 / 12), (b - a) * (1 / 6) + u5)
    }

    @inline(__always)
    static func kernelTile<L: WinogradLanes>(_: L.Type, _ tap: (Int, Int) -> L, _ put: (Int, L) -> Void) {
        // Down the columns (G g), then along the rows ((G g) G^T).
        let c0 = kernelRow(tap(0, 0), tap(1, 0), tap(2, 0))
        let c1 = kernelRow(tap(0, 1), tap(1, 1), tap(2, 1))
        let c2 = kernelRow(tap(0, 2), tap(1, 2), tap(2, 2))
        @inline(__always) func row(_ i: Int, _ a: L, _ b: L, _ c: L) {
            let (u0, u1, u2, u3, u4, u5) = kernelRow(a, b, c)
            put(6 * i, u0); put(6 * i + 1, u1); put(6 * i + 2, u2); put(6 * i + 3, u3); put(6 * i + 4, u4); put(6 * i + 5, u5)
        }
        row(0, c0.0, c1.0, c2.0)
        row(1, c0.1, c1.1, c2.1)
        row(2, c0.2, c1.2, c2.2)
        row(3, c0.3, c1.3, c2.3)
        row(4, c0.4, c1.4, c2.4)
        row(5, c0.5, c1.5, c2.5)
    }

    @inline(__always)
    static func kernelGradient<L: WinogradLanes>(_: L.Type, _ at: (Int) -> L, _ put: (Int, Int, L) -> Void) {
        // Down the columns (G^T dU), then along the rows ((G^T dU) G).
        @inline(__always) func column(_ k: Int) -> (L, L, L) {
            kernelGradientRow(at(k), at(6 + k), at(12 + k), at(18 + k), at(24 + k), at(30 + k))
        }
        let (c0, c1, c2, c3, c4, c5) = (column(0), column(1), column(2), column(3), column(4), column(5))
        @inline(__always) func row(_ ky: Int, _ a: L, _ b: L, _ c: L, _ d: L, _ e: L, _ f: L) {
            let (g0, g1, g2) = kernelGradientRow(a, b, c, d, e, f)
            put(ky, 0, g0); put(ky, 1, g1); put(ky, 2, g2)
        }
        row(0, c0.0, c1.0, c2.0, c3.0, c4.0, c5.0)
        row(1, c0.1, c1.1, c2.1, c3.1, c4.1, c5.1)
        row(2, c0.2, c1.2, c2.2, c3.2, c4.2, c5.2)
    }
}

/// V[ξ][i][c] = (B^T d B)[ξ] of the input patch of tile range.lowerBound + i, channel c.
///
/// Patches inside the map are read in place; those reaching the zero padding are first
/// copied into `patch` ((m+2)^2 x channels floats) with zeros around.
private func transformInput<T: WinogradTransform>(
    _: T.Type, _ tiles: WinogradTiles, x: UnsafePointer<Float>, channels c: Int, range: Range<Int>,
    v: UnsafeMutablePointer<Float>, patch: UnsafeMutablePointer<Float>
) {
    let (h, w) = (tiles.height, tiles.width)
    let (m, alpha) = (T.tile.rawValue, T.tile.rawValue + 2)
    let stride = entryStride(tiles: range.count, channels: c)
    for t in range {
        let (n, ty, tx) = tiles.locate(t)
        let (iy0, ix0) = (m * ty - 1, m * tx - 1)
        let src: UnsafePointer<Float>, rowStride: Int
        if iy0 >= 0 && iy0 + alpha <= h && ix0 >= 0 && ix0 + alpha <= w {
            src = x + ((n * h + iy0) * w + ix0) * c
            rowStride = w * c
        } else {
            for r in 0..<alpha {
                for k in 0..<alpha {
                    let (iy, ix) = (iy0 + r, ix0 + k)
                    let dst = patch + (alpha * r + k) * c
                    if iy >= 0 && iy < h && ix >= 0 && ix < w {
                        dst.update(from: x + ((n * h + iy) * w + ix) * c, count: c)
                    } else {
                        dst.update(repeating: 0, count: c)
                    }
                }
            }
            src = UnsafePointer(patch)
            rowStride = alpha * c
        }
        let dst = v + (t - range.lowerBound) * c
        var j = 0
        while j + 16 <= c {
            T.inputTile(SIMD16<Float>.self, src + j, rowStride: rowStride, pixel: c, dst + j, stride: stride)
            j += 16
        }
        while j + 8 <= c {
            T.inputTile(SIMD8<Float>.self, src + j, rowStride: rowStride, pixel: c, dst + j, stride: stride)
            j += 8
        }
        while j < c {
            T.inputTile(Float.self, src + j, rowStride: rowStride, pixel: c, dst + j, stride: stride)
            j += 1
        }
    }
}

/// out[tile pixels] (+)= A^T M A + bias for the tiles of `range`; pixels past the map's
/// bottom or right edge are dropped.
private func transformOutput<T: WinogradTransform>(
    _: T.Type, _ tiles: WinogradTiles, m: UnsafePointer<Float>, channels c: Int, range: Range<Int>,
    stage: OutputStage, out: UnsafeMutablePointer<Float>, accumulate: Bool
) {
    let (h, w) = (tiles.height, tiles.width)
    let size = T.tile.rawValue
    let bias = stage.bias, (lo, hi) = (stage.lower, stage.upper), clamps = stage.clamps
    let stride = entryStride(tiles: range.count, channels: c)
    for t in range {
        let (n, ty, tx) = tiles.locate(t)
        let (oy, ox) = (size * ty, size * tx)
        let (rows, columns) = (min(size, h - oy), min(size, w - ox))
        let full = rows == size && columns == size
        let origin = out + ((n * h + oy) * w + ox) * c
        let src = m + (t - range.lowerBound) * c
        @inline(__always) func lanes<L: WinogradLanes>(_: L.Type, _ j: Int) {
            let b = bias.map { L(loading: $0 + j) }
            @inline(__always) func put(_ i: Int, _ k: Int, _ y: L) {
                let p = origin + (i * w + k) * c + j
                var y = y
                if let b { y = y + b }
                if accumulate { y = y + L(loading: p) }
                if clamps { y = y.clamped(lo, hi) }
                y.store(to: p)
            }
            if full {
                T.outputTile(L.self, src + j, stride: stride, put)
            } else {
                T.outputTile(L.self, src + j, stride: stride) { i, k, y in if i < rows && k < columns { put(i, k, y) } }
            }
        }
        var j = 0
        while j + 16 <= c { lanes(SIMD16<Float>.self, j); j += 16 }
        while j + 8 <= c { lanes(SIMD8<Float>.self, j); j += 8 }
        while j < c { lanes(Float.self, j); j += 1 }
    }
}

/// dM[ξ][i][c] = (A dY A^T)[ξ] of the output gradient of tile range.lowerBound + i
/// (zero where the tile reaches past the map).
private func transformOutputGradient<T: WinogradTransform>(
    _: T.Type, _ tiles: WinogradTiles, gy: UnsafePointer<Float>, channels c: Int, range: Range<Int>, dm: UnsafeMutablePointer<Float>
) {
    let (h, w) = (tiles.height, tiles.width)
    let size = T.tile.rawValue
    let stride = entryStride(tiles: range.count, channels: c)
    for t in range {
        let (n, ty, tx) = tiles.locate(t)
        let (oy, ox) = (size * ty, size * tx)
        let (rows, columns) = (min(size, h - oy), min(size, w - ox))
        let full = rows == size && columns == size
        let origin = gy + ((n * h + oy) * w + ox) * c
        let dst = dm + (t - range.lowerBound) * c
        @inline(__always) func lanes<L: WinogradLanes>(_: L.Type, _ j: Int) {
            if full {
                T.gradientTile(L.self, { i, k in L(loading: origin + (i * w + k) * c + j) }, dst + j, stride: stride)
            } else {
                T.gradientTile(L.self, { i, k in i < rows && k < columns ? L(loading: origin + (i * w + k) * c + j) : L(repeating: 0) },
                               dst + j, stride: stride)
            }
        }
        var j = 0
        while j + 16 <= c { lanes(SIMD16<Float>.self, j); j += 16 }
        while j + 8 <= c { lanes(SIMD8<Float>.self, j); j += 8 }
        while j < c { lanes(Float.self, j); j += 1 }
    }
}

/// U[ξ][ci][co] = (G g G^T)[ξ] of each 3x3 kernel g = w[:, :, ci, co] (HWIO), entries
/// `entryStride(tiles: cin, channels: cout)` apart; with `turned`, of the kernel turned 180°
/// (backward data's conv, given `channelsSwapped` weights).
func transformedWeights<T: WinogradTransform>(
    _: T.Type, _ w: UnsafePointer<Float>, inChannels cin: Int, outChannels cout: Int, turned: Bool = false
) -> Storage {
    let (matrix, uStride) = (cin * cout, entryStride(tiles: cin, channels: cout))
    let u = Storage(count: T.entries * uStride)
    // Channel pairs lie contiguous in w for each tap, so the transform runs 8 pairs at a time.
    @inline(__always) func pairs<L: WinogradLanes>(_: L.Type, _ i: Int) {
        if turned {
            T.kernelTile(L.self, { ky, kx in L(loading: w + ((2 - ky) * 3 + 2 - kx) * matrix + i) }) { xi, v in v.store(to: u.pointer + xi * uStride + i) }
        } else {
            T.kernelTile(L.self, { ky, kx in L(loading: w + (ky * 3 + kx) * matrix + i) }) { xi, v in v.store(to: u.pointer + xi * uStride + i) }
        }
    }
    var i = 0
    while i + 8 <= matrix { pairs(SIMD8<Float>.self, i); i += 8 }
    while i < matrix { pairs(Float.self, i); i += 1 }
    return u
}

/// gw (+)= G^T dU G for each channel pair of dU ([ξ][Cin][Cout], entries `entryStride(tiles: cin, channels: cout)` apart).
private func weightGradientFromTransformed<T: WinogradTransform>(
    _: T.Type, _ du: UnsafePointer<Float>, inChannels cin: Int, outChannels cout: Int, gw: GradientTarget
) {
    let (matrix, duStride) = (cin * cout, entryStride(tiles: cin, channels: cout))
    @inline(__always) func pairs<L: WinogradLanes>(_: L.Type, _ i: Int) {
        T.kernelGradient(L.self, { xi in L(loading: du + xi * duStride + i) }) { ky, kx, g in
            let p = gw.pointer + (ky * 3 + kx) * matrix + i
            (gw.accumulate ? L(loading: p) + g : g).store(to: p)
        }
    }
    var i = 0
    while i + 8 <= matrix { pairs(SIMD8<Float>.self, i); i += 8 }
    while i < matrix { pairs(Float.self, i); i += 1 }
}
