import Foundation

/// Winograd F(2x2, 3x3) for dense 3x3 convolutions with stride 1 and padding 1
/// (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016, section 4).
///
/// The output is cut into 2x2 tiles; tile t reads the 4x4 input patch d_t around it
/// (rows 2ty-1 ..< 2ty+3, columns 2tx-1 ..< 2tx+3, zero outside the map). Per channel pair
///
///     Y_t = A^T [ U ⊙ V_t ] A,   U = G g G^T,   V_t = B^T d_t B,
///
/// summed over input channels, so for each of the 16 entries ξ of a transformed tile the
/// channel sum is one GEMM: M[ξ] (tiles x Cout) = V[ξ] (tiles x Cin) x U[ξ] (Cin x Cout).
/// That is 16 multiplies for 4 outputs where the direct conv (and im2col) does 36.
///
/// - Backward data is the same conv of dY with the kernel turned 180° and its in/out
///   channels swapped. Turning g by 180° swaps rows and columns 0 and 3 of G g G^T, so it
///   runs on U itself: M[ξ] = dV[ξ] x U[ξ']^T with ξ' = ξ with both indices 0 <-> 3.
/// - Backward weights: dM_t = A dY_t A^T, dU[ξ] = sum over tiles of V[ξ]^T dM[ξ] (16 GEMMs
///   with the long reduction over tiles), dg = G^T dU G.
///
/// Layout: tiles are numbered (image, tile row, tile column). A block of T tiles transforms
/// into buffers laid out [16][T][C], so each ξ is a contiguous T x C matrix for the GEMM and
/// the transforms run along the contiguous channels (8 at a time, then one by one). Blocks
/// of tiles depend on the shape only and each GEMM is one single-threaded OpenBLAS call, so
/// results are bit-identical for any thread count.
///
/// F(2x2, 3x3) rounds differently from the direct sum: its transforms add up to 4 input
/// values before the products, and the output transform up to 9 products; errors stay
/// about 1e-6 of the output scale (tested against a double-precision reference).

/// How `conv2d` computes a dense convolution.
public enum ConvolutionAlgorithm: Sendable, Equatable {
    /// The engine's choice per shape and pass: direct kernels for depthwise and few-channel
    /// convs, Winograd where it was measured to pay (`ConvGeometry.winogradPasses`), else im2col + GEMM.
    case automatic
    /// im2col + GEMM for every pass (a single GEMM for an unpadded stride-1 1x1), whatever the shape.
    case im2col
    /// Winograd F(2x2, 3x3) for every pass; dense 3x3 convs with stride 1 and padding 1 only.
    case winograd
}

/// Which passes of a convolution run Winograd F(2x2, 3x3).
public struct WinogradPasses: Equatable, Sendable {
    /// Whether the output, the input gradient and the weight gradient are computed by Winograd.
    public var forward = false, backwardData = false, backwardWeight = false
    /// Passes by Winograd as given; none by default.
    public init(forward: Bool = false, backwardData: Bool = false, backwardWeight: Bool = false) {
        (self.forward, self.backwardData, self.backwardWeight) = (forward, backwardData, backwardWeight)
    }
    static let none = WinogradPasses()
    static let all = WinogradPasses(forward: true, backwardData: true, backwardWeight: true)
}

extension ConvGeometry {
    /// Dense 3x3 with stride 1 and padding 1: the convs Winograd F(2x2, 3x3) computes.
    public var isWinogradShape: Bool { groups == 1 && kernelHeight == 3 && kernelWidth == 3 && stride == 1 && padding == 1 }

    /// Output tiles of a Winograd F(2x2, 3x3) pass over this conv.
    var winogradTileCount: Int { batch * ((height + 1) / 2) * ((width + 1) / 2) }

    /// The passes that run Winograd under `algorithm`.
    public func winogradPasses(_ algorithm: ConvolutionAlgorithm) -> WinogradPasses {
        switch algorithm {
        case .im2col: return .none
        case .winograd:
            precondition(isWinogradShape, "conv2d: Winograd needs a dense 3x3 conv with stride 1 and padding 1, got \(self)")
            return .all
        case .automatic:
            guard winogradAutomatic, isWinogradShape,
                  min(inChannels, outChannels) >= WinogradPolicy.minimumChannels else { return .none }
            let tiles = winogradTileCount
            return WinogradPasses(
                forward: tiles >= WinogradPolicy.minimumTiles, backwardData: tiles >= WinogradPolicy.minimumTiles,
                backwardWeight: tiles >= WinogradPolicy.minimumWeightTiles)
        }
    }
}

/// Where `.automatic` picks Winograd, from `uidetect bench engine` (Experiments/winograd/).
///
/// Below these the fixed costs (transforming every weight per call, GEMMs too small for
/// OpenBLAS to reach speed, the weight pass's 16 x Cin x Cout partials per block) outweigh
/// the 2.25x fewer multiplies: at 64 tiles (8 images of 8x4) the forward and data passes
/// gained 1.1-1.9x but the weight pass did not (0.75-1.15x); at 256 tiles every pass gained.
enum WinogradPolicy {
    /// Not measured lower: the bench network's dense 3x3 stride-1 convs all have 32 channels or more.
    static let minimumChannels = 16
    static let minimumTiles = 64
    static let minimumWeightTiles = 256
    /// Tiles per block of the forward and data passes, and per chunk of the weight pass: measured
    /// against 64 (slower: the GEMMs get too few rows) and 256 (no faster; V and M of 64 channels
    /// already take 1 MiB at 128, twice one core's L2 here).
    static let tilesPerBlock = 128
    /// Chunks per block of the weight pass: fewer blocks, fewer 16 x Cin x Cout partials to add.
    static let weightChunksPerBlock = 4
    /// Blocks a pass is cut into at least (tiles permitting), so that both cores get work;
    /// more blocks measured slower, since each GEMM then gets fewer rows.
    static let minimumBlocks = 2
}

/// `UIDETECT_WINOGRAD=off` turns `.automatic`'s Winograd off for the whole process, so that a
/// network's training or inference can be timed with and without it on the same build.
let winogradAutomatic = ProcessInfo.processInfo.environment["UIDETECT_WINOGRAD"] != "off"

// MARK: - Passes

/// out = conv(x, w) + bias, by Winograd F(2x2, 3x3).
func winogradForward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, u prepared: UnsafePointer<Float>? = nil,
    stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    let made = prepared == nil ? transformedWeights(w, inChannels: geo.inChannels, outChannels: geo.outChannels) : nil
    winogradConvolve(WinogradTiles(geo), input: x, inChannels: geo.inChannels, u: prepared ?? UnsafePointer(made!.pointer), backward: false,
                     outChannels: geo.outChannels, stage: stage, out: out, accumulate: false)
}

/// dX (+)= the conv of dY with the kernel turned 180° and its channels swapped, by Winograd.
func winogradBackwardData(_ geo: ConvGeometry, w: UnsafePointer<Float>, gy: UnsafePointer<Float>, gx: GradientTarget) {
    let u = transformedWeights(w, inChannels: geo.inChannels, outChannels: geo.outChannels)
    winogradConvolve(WinogradTiles(geo), input: gy, inChannels: geo.outChannels, u: u.pointer, backward: true,
                     outChannels: geo.inChannels, stage: .none, out: gx.pointer, accumulate: gx.accumulate)
}

/// dW (+)= G^T [ sum over tiles of V^T (A dY A^T) ] G, by 16 GEMMs reducing over tiles.
///
/// Fixed blocks of tiles each sum their GEMMs into partials of their own (chunk by chunk, so
/// the transformed tiles stay in cache); the partials are added in block order.
func winogradBackwardWeight(_ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, gw: GradientTarget) {
    let tiles = WinogradTiles(geo)
    let (cin, cout) = (geo.inChannels, geo.outChannels)
    let chunk = WinogradPolicy.tilesPerBlock
    let perBlock = min(chunk * WinogradPolicy.weightChunksPerBlock, blockTiles(tiles.count))
    let blocks = Parallel.blockCount(count: tiles.count, blockSize: perBlock)
    let matrix = entryStride(tiles: cin, channels: cout)
    let partial = Storage(count: blocks * 16 * matrix)
    Parallel.forEachBlock(count: tiles.count, blockSize: perBlock) { b, r in
        let chunkTiles = min(chunk, r.count)
        let scratch = Storage(count: 16 * (entryStride(tiles: chunkTiles, channels: cin) + entryStride(tiles: chunkTiles, channels: cout) + cin))
        let v = scratch.pointer, dm = v + 16 * entryStride(tiles: chunkTiles, channels: cin)
        let patch = dm + 16 * entryStride(tiles: chunkTiles, channels: cout)
        let acc = partial.pointer + b * 16 * matrix
        for c0 in stride(from: r.lowerBound, to: r.upperBound, by: chunk) {
            let part = c0..<min(r.upperBound, c0 + chunk)
            transformInput(tiles, x: x, channels: cin, range: part, v: v, patch: patch)
            transformOutputGradient(tiles, gy: gy, channels: cout, range: part, dm: dm)
            let beta: Float = c0 == r.lowerBound ? 0 : 1
            let (vStride, dmStride) = (entryStride(tiles: part.count, channels: cin), entryStride(tiles: part.count, channels: cout))
            for xi in 0..<16 {
                rawSGEMM(true, false, cin, cout, part.count, 1, v + xi * vStride, cin,
                         dm + xi * dmStride, cout, beta, acc + xi * matrix, cout)
            }
        }
    }
    let du = partial.pointer
    for b in 1..<max(1, blocks) {
        let p = partial.pointer + b * 16 * matrix
        for i in 0..<(16 * matrix) { du[i] += p[i] }
    }
    weightGradientFromTransformed(du, inChannels: cin, outChannels: cout, gw: gw)
}

// MARK: - Tiles and the shared convolution

/// The 2x2 output tiles of a stride-1, padding-1 3x3 conv (output size = input size).
struct WinogradTiles {
    let batch, height, width: Int
    /// Tiles per image, down and across.
    let rows, columns: Int
    var count: Int { batch * rows * columns }

    init(_ geo: ConvGeometry) {
        (batch, height, width) = (geo.batch, geo.height, geo.width)
        (rows, columns) = ((geo.height + 1) / 2, (geo.width + 1) / 2)
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

/// out (+)= the conv of `input` (N, H, W, inChannels) given its transformed weights, plus bias.
///
/// `backward`: `u` holds the forward conv's weights, [16][outChannels][inChannels] in this
/// call's terms, and runs turned and transposed (backward data).
private func winogradConvolve(
    _ tiles: WinogradTiles, input: UnsafePointer<Float>, inChannels cin: Int, u: UnsafePointer<Float>, backward: Bool,
    outChannels cout: Int, stage: OutputStage, out: UnsafeMutablePointer<Float>, accumulate: Bool
) {
    let matrix = entryStride(tiles: cin, channels: cout)
    Parallel.forEachBlock(count: tiles.count, blockSize: min(WinogradPolicy.tilesPerBlock, blockTiles(tiles.count))) { _, r in
        let t = r.count
        let (vStride, mStride) = (entryStride(tiles: t, channels: cin), entryStride(tiles: t, channels: cout))
        let scratch = Storage(count: 16 * (vStride + mStride + cin))
        let v = scratch.pointer, m = v + 16 * vStride, patch = m + 16 * mStride
        transformInput(tiles, x: input, channels: cin, range: r, v: v, patch: patch)
        for xi in 0..<16 {
            if backward {
                rawSGEMM(false, true, t, cout, cin, 1, v + xi * vStride, cin, u + turned[xi] * matrix, cin, 0, m + xi * mStride, cout)
            } else {
                rawSGEMM(false, false, t, cout, cin, 1, v + xi * vStride, cin, u + xi * matrix, cout, 0, m + xi * mStride, cout)
            }
        }
        transformOutput(tiles, m: m, channels: cout, range: r, stage: stage, out: out, accumulate: accumulate)
    }
}

/// Floats from one entry ξ of a block's transformed tiles (or of U) to the next: the T x C matrix plus
/// one cache line, since with power-of-two T x C the 16 entries a transform writes at once
/// would all fall in the same cache set.
@inline(__always)
private func entryStride(tiles t: Int, channels c: Int) -> Int { t * c + 16 }

/// ξ = 4i + k -> the entry of G g G^T that holds it once g is turned 180° (i, k: 0 <-> 3).
private let turned: [Int] = (0..<16).map { xi in
    let swap = [3, 1, 2, 0]
    return 4 * swap[xi / 4] + swap[xi % 4]
}

// MARK: - Transforms

/// Lanes of channels a transform works on at once: 8 in a register, or 1 for the remainder.
protocol WinogradLanes {
    init(loading p: UnsafePointer<Float>)
    func store(to p: UnsafeMutablePointer<Float>)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
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

extension Float: WinogradLanes {
    @inline(__always) init(loading p: UnsafePointer<Float>) { self = p.pointee }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { p.pointee = self }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self { Swift.min(Swift.max(self, lo), hi) }
}

/// One row or column of B^T d B: B^T (d0, d1, d2, d3).
@inline(__always)
private func inputRow<L: WinogradLanes>(_ d0: L, _ d1: L, _ d2: L, _ d3: L) -> (L, L, L, L) {
    (d0 - d2, d1 + d2, d2 - d1, d1 - d3)
}

/// One row or column of A^T m A: A^T (m0, m1, m2, m3).
@inline(__always)
private func outputRow<L: WinogradLanes>(_ m0: L, _ m1: L, _ m2: L, _ m3: L) -> (L, L) {
    (m0 + m1 + m2, m1 - m2 - m3)
}

/// One row or column of A y A^T: A (y0, y1).
@inline(__always)
private func gradientRow<L: WinogradLanes>(_ y0: L, _ y1: L) -> (L, L, L, L) {
    (y0, y0 + y1, y0 - y1, -y1)
}

/// V = B^T d B of one 4x4 patch of lanes starting at `d`, stored at v + ξ * stride.
@inline(__always)
private func inputTile<L: WinogradLanes>(
    _: L.Type, _ d: UnsafePointer<Float>, rowStride: Int, pixel: Int, _ v: UnsafeMutablePointer<Float>, stride: Int
) {
    // Along each row (d B), then down each column (B^T e).
    @inline(__always) func row(_ r: Int) -> (L, L, L, L) {
        let p = d + r * rowStride
        return inputRow(L(loading: p), L(loading: p + pixel), L(loading: p + 2 * pixel), L(loading: p + 3 * pixel))
    }
    let (e0, e1, e2, e3) = (row(0), row(1), row(2), row(3))
    @inline(__always) func column(_ k: Int, _ a: L, _ b: L, _ c: L, _ e: L) {
        let (v0, v1, v2, v3) = inputRow(a, b, c, e)
        v0.store(to: v + k * stride)
        v1.store(to: v + (4 + k) * stride)
        v2.store(to: v + (8 + k) * stride)
        v3.store(to: v + (12 + k) * stride)
    }
    column(0, e0.0, e1.0, e2.0, e3.0)
    column(1, e0.1, e1.1, e2.1, e3.1)
    column(2, e0.2, e1.2, e2.2, e3.2)
    column(3, e0.3, e1.3, e2.3, e3.3)
}

/// A^T m A of one transformed tile of lanes (entry ξ at m + ξ * stride): the 2x2 outputs.
@inline(__always)
private func outputTile<L: WinogradLanes>(_: L.Type, _ m: UnsafePointer<Float>, stride: Int) -> (L, L, L, L) {
    @inline(__always) func row(_ i: Int) -> (L, L) {
        let p = m + 4 * i * stride
        return outputRow(L(loading: p), L(loading: p + stride), L(loading: p + 2 * stride), L(loading: p + 3 * stride))
    }
    let (s0, s1, s2, s3) = (row(0), row(1), row(2), row(3))
    let (y00, y10) = outputRow(s0.0, s1.0, s2.0, s3.0)
    let (y01, y11) = outputRow(s0.1, s1.1, s2.1, s3.1)
    return (y00, y01, y10, y11)
}

/// A y A^T of one 2x2 output gradient of lanes, stored at dm + ξ * stride.
@inline(__always)
private func gradientTile<L: WinogradLanes>(_ y00: L, _ y01: L, _ y10: L, _ y11: L, _ dm: UnsafeMutablePointer<Float>, stride: Int) {
    let q0 = gradientRow(y00, y01), q1 = gradientRow(y10, y11)
    @inline(__always) func column(_ k: Int, _ a: L, _ b: L) {
        let (m0, m1, m2, m3) = gradientRow(a, b)
        m0.store(to: dm + k * stride)
        m1.store(to: dm + (4 + k) * stride)
        m2.store(to: dm + (8 + k) * stride)
        m3.store(to: dm + (12 + k) * stride)
    }
    column(0, q0.0, q1.0)
    column(1, q0.1, q1.1)
    column(2, q0.2, q1.2)
    column(3, q0.3, q1.3)
}

/// V[ξ][i][c] = (B^T d B)[ξ] of the input patch of tile range.lowerBound + i, channel c.
///
/// Patches inside the map are read in place; those reaching the zero padding are first
/// copied into `patch` (16 x channels floats) with zeros around.
private func transformInput(
    _ tiles: WinogradTiles, x: UnsafePointer<Float>, channels c: Int, range: Range<Int>,
    v: UnsafeMutablePointer<Float>, patch: UnsafeMutablePointer<Float>
) {
    let (h, w) = (tiles.height, tiles.width)
    let stride = entryStride(tiles: range.count, channels: c)
    for t in range {
        let (n, ty, tx) = tiles.locate(t)
        let (iy0, ix0) = (2 * ty - 1, 2 * tx - 1)
        let src: UnsafePointer<Float>, rowStride: Int
        if iy0 >= 0 && iy0 + 3 < h && ix0 >= 0 && ix0 + 3 < w {
            src = x + ((n * h + iy0) * w + ix0) * c
            rowStride = w * c
        } else {
            for r in 0..<4 {
                for k in 0..<4 {
                    let (iy, ix) = (iy0 + r, ix0 + k)
                    let dst = patch + (4 * r + k) * c
                    if iy >= 0 && iy < h && ix >= 0 && ix < w {
                        dst.update(from: x + ((n * h + iy) * w + ix) * c, count: c)
                    } else {
                        dst.update(repeating: 0, count: c)
                    }
                }
            }
            src = UnsafePointer(patch)
            rowStride = 4 * c
        }
        let dst = v + (t - range.lowerBound) * c
        var j = 0
        while j + 8 <= c {
            inputTile(SIMD8<Float>.self, src + j, rowStride: rowStride, pixel: c, dst + j, stride: stride)
            j += 8
        }
        while j < c {
            inputTile(Float.self, src + j, rowStride: rowStride, pixel: c, dst + j, stride: stride)
            j += 1
        }
    }
}

/// out[tile pixels] (+)= A^T M A + bias for the tiles of `range`; pixels past the map's
/// bottom or right edge (odd sizes) are dropped.
private func transformOutput(
    _ tiles: WinogradTiles, m: UnsafePointer<Float>, channels c: Int, range: Range<Int>,
    stage: OutputStage, out: UnsafeMutablePointer<Float>, accumulate: Bool
) {
    let (h, w) = (tiles.height, tiles.width)
    let bias = stage.bias, (lo, hi) = (stage.lower, stage.upper), clamps = stage.clamps
    let stride = entryStride(tiles: range.count, channels: c)
    for t in range {
        let (n, ty, tx) = tiles.locate(t)
        let (oy, ox) = (2 * ty, 2 * tx)
        let full = oy + 1 < h && ox + 1 < w
        let o00 = out + ((n * h + oy) * w + ox) * c
        let o01 = o00 + c, o10 = o00 + w * c, o11 = o10 + c
        let src = m + (t - range.lowerBound) * c
        @inline(__always) func put<L: WinogradLanes>(_ y: L, _ p: UnsafeMutablePointer<Float>, _ b: L?) {
            var y = y
            if let b { y = y + b }
            if accumulate { y = y + L(loading: p) }
            if clamps { y = y.clamped(lo, hi) }
            y.store(to: p)
        }
        @inline(__always) func lanes<L: WinogradLanes>(_: L.Type, _ j: Int) {
            let (y00, y01, y10, y11) = outputTile(L.self, src + j, stride: stride)
            let b = bias.map { L(loading: $0 + j) }
            put(y00, o00 + j, b)
            if full {
                put(y01, o01 + j, b)
                put(y10, o10 + j, b)
                put(y11, o11 + j, b)
            } else {
                if ox + 1 < w { put(y01, o01 + j, b) }
                if oy + 1 < h { put(y10, o10 + j, b) }
            }
        }
        var j = 0
        while j + 8 <= c { lanes(SIMD8<Float>.self, j); j += 8 }
        while j < c { lanes(Float.self, j); j += 1 }
    }
}

/// dM[ξ][i][c] = (A dY A^T)[ξ] of the output gradient of tile range.lowerBound + i
/// (zero where the tile reaches past the map).
private func transformOutputGradient(
    _ tiles: WinogradTiles, gy: UnsafePointer<Float>, channels c: Int, range: Range<Int>, dm: UnsafeMutablePointer<Float>
) {
    let (h, w) = (tiles.height, tiles.width)
    let stride = entryStride(tiles: range.count, channels: c)
    for t in range {
        let (n, ty, tx) = tiles.locate(t)
        let (oy, ox) = (2 * ty, 2 * tx)
        let (right, down) = (ox + 1 < w, oy + 1 < h)
        let g00 = gy + ((n * h + oy) * w + ox) * c
        let g01 = g00 + c, g10 = g00 + w * c, g11 = g10 + c
        let dst = dm + (t - range.lowerBound) * c
        @inline(__always) func lanes<L: WinogradLanes>(_: L.Type, _ j: Int, zero: L) {
            let y00 = L(loading: g00 + j)
            let y01 = right ? L(loading: g01 + j) : zero
            let y10 = down ? L(loading: g10 + j) : zero
            let y11 = right && down ? L(loading: g11 + j) : zero
            gradientTile(y00, y01, y10, y11, dst + j, stride: stride)
        }
        var j = 0
        while j + 8 <= c { lanes(SIMD8<Float>.self, j, zero: SIMD8<Float>()); j += 8 }
        while j < c { lanes(Float.self, j, zero: 0); j += 1 }
    }
}

/// U[ξ][ci][co] = (G g G^T)[ξ] of each 3x3 kernel g = w[:, :, ci, co] (HWIO); entries
/// `entryStride(tiles: cin, channels: cout)` apart.
func transformedWeights(_ w: UnsafePointer<Float>, inChannels cin: Int, outChannels cout: Int) -> Storage {
    let (matrix, uStride) = (cin * cout, entryStride(tiles: cin, channels: cout))
    let u = Storage(count: 16 * uStride)
    // One row of G g: (g0, (g0 + g1 + g2) / 2, (g0 - g1 + g2) / 2, g2).
    @inline(__always) func g(_ a: Float, _ b: Float, _ c: Float) -> (Float, Float, Float, Float) {
        (a, 0.5 * (a + b + c), 0.5 * (a - b + c), c)
    }
    for i in 0..<matrix {
        @inline(__always) func tap(_ ky: Int, _ kx: Int) -> Float { w[(ky * 3 + kx) * matrix + i] }
        // Down the columns (G g), then along the rows ((G g) G^T).
        let c0 = g(tap(0, 0), tap(1, 0), tap(2, 0))
        let c1 = g(tap(0, 1), tap(1, 1), tap(2, 1))
        let c2 = g(tap(0, 2), tap(1, 2), tap(2, 2))
        @inline(__always) func row(_ r: Int, _ a: Float, _ b: Float, _ c: Float) {
            let (u0, u1, u2, u3) = g(a, b, c)
            let p = u.pointer + 4 * r * uStride + i
            p[0] = u0; p[uStride] = u1; p[2 * uStride] = u2; p[3 * uStride] = u3
        }
        row(0, c0.0, c1.0, c2.0)
        row(1, c0.1, c1.1, c2.1)
        row(2, c0.2, c1.2, c2.2)
        row(3, c0.3, c1.3, c2.3)
    }
    return u
}

/// gw (+)= G^T dU G for each channel pair of dU ([16][Cin][Cout], entries `entryStride(tiles: cin, channels: cout)` apart).
private func weightGradientFromTransformed(_ du: UnsafePointer<Float>, inChannels cin: Int, outChannels cout: Int, gw: GradientTarget) {
    let (matrix, duStride) = (cin * cout, entryStride(tiles: cin, channels: cout))
    // One row of G^T u: (u0 + (u1 + u2) / 2, (u1 - u2) / 2, (u1 + u2) / 2 + u3).
    @inline(__always) func gt(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> (Float, Float, Float) {
        (a + 0.5 * (b + c), 0.5 * (b - c), 0.5 * (b + c) + d)
    }
    for i in 0..<matrix {
        @inline(__always) func at(_ r: Int, _ k: Int) -> Float { du[(4 * r + k) * duStride + i] }
        // Down the columns (G^T dU), then along the rows ((G^T dU) G).
        let c0 = gt(at(0, 0), at(1, 0), at(2, 0), at(3, 0))
        let c1 = gt(at(0, 1), at(1, 1), at(2, 1), at(3, 1))
        let c2 = gt(at(0, 2), at(1, 2), at(2, 2), at(3, 2))
        let c3 = gt(at(0, 3), at(1, 3), at(2, 3), at(3, 3))
        @inline(__always) func row(_ ky: Int, _ a: Float, _ b: Float, _ c: Float, _ d: Float) {
            let (g0, g1, g2) = gt(a, b, c, d)
            let p = gw.pointer + ky * 3 * matrix + i
            if gw.accumulate {
                p[0] += g0; p[matrix] += g1; p[2 * matrix] += g2
            } else {
                p[0] = g0; p[matrix] = g1; p[2 * matrix] = g2
            }
        }
        row(0, c0.0, c1.0, c2.0, c3.0)
        row(1, c0.1, c1.1, c2.1, c3.1)
        row(2, c0.2, c1.2, c2.2, c3.2)
    }
}
