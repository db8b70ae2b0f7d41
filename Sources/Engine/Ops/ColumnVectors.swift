// Rows of output columns held in vector registers, shared by the hand-written GEMM kernels
// (`panelGEMM`, `packedGEMM`).

/// A row of 16, 32 or 64 output columns held in vector registers.
///
/// Made of `SIMD16<Float>` fields rather than `SIMD32`/`SIMD64`: the wider types' arithmetic
/// goes through the standard library's generic lane loops, which cost a call per lane.
protocol ColumnVector {
    /// Columns held: 16, 32 or 64.
    static var lanes: Int { get }
    init(broadcasting value: Float)
    init(loading p: UnsafePointer<Float>)
    func store(to p: UnsafeMutablePointer<Float>)
    /// self + a * b, fused, a broadcast to every column.
    func addingProduct(broadcast a: Float, _ b: Self) -> Self
    func adding(_ other: Self) -> Self
    /// Every lane clamped to [lower, upper].
    func clamped(_ lower: Float, _ upper: Float) -> Self
}

typealias Lanes = SIMD16<Float>

@inline(__always) private func load(_ p: UnsafePointer<Float>) -> Lanes { UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) }
@inline(__always) private func store(_ v: Lanes, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self) }

/// 16 columns.
struct Columns16: ColumnVector {
    static var lanes: Int { 16 }
    var v0: Lanes
    @inline(__always) init(_ v0: Lanes) { self.v0 = v0 }
    @inline(__always) init(broadcasting value: Float) { v0 = Lanes(repeating: value) }
    @inline(__always) init(loading p: UnsafePointer<Float>) { v0 = load(p) }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { Engine.store(v0, p) }
    @inline(__always) func addingProduct(broadcast a: Float, _ b: Self) -> Self { Self(v0.addingProduct(Lanes(repeating: a), b.v0)) }
    @inline(__always) func adding(_ o: Self) -> Self { Self(v0 + o.v0) }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self { Self(VectorMath.clamped(v0, lo, hi)) }
}

/// 32 columns.
struct Columns32: ColumnVector {
    static var lanes: Int { 32 }
    var v0, v1: Lanes
    @inline(__always) init(_ v0: Lanes, _ v1: Lanes) { (self.v0, self.v1) = (v0, v1) }
    @inline(__always) init(broadcasting value: Float) { (v0, v1) = (Lanes(repeating: value), Lanes(repeating: value)) }
    @inline(__always) init(loading p: UnsafePointer<Float>) { (v0, v1) = (load(p), load(p + 16)) }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { Engine.store(v0, p); Engine.store(v1, p + 16) }
    @inline(__always) func addingProduct(broadcast a: Float, _ b: Self) -> Self {
        let x = Lanes(repeating: a)
        return Self(v0.addingProduct(x, b.v0), v1.addingProduct(x, b.v1))
    }
    @inline(__always) func adding(_ o: Self) -> Self { Self(v0 + o.v0, v1 + o.v1) }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self { Self(VectorMath.clamped(v0, lo, hi), VectorMath.clamped(v1, lo, hi)) }
}

/// 64 columns.
struct Columns64: ColumnVector {
    static var lanes: Int { 64 }
    var v0, v1, v2, v3: Lanes
    @inline(__always) init(_ v0: Lanes, _ v1: Lanes, _ v2: Lanes, _ v3: Lanes) { (self.v0, self.v1, self.v2, self.v3) = (v0, v1, v2, v3) }
    @inline(__always) init(broadcasting value: Float) { let x = Lanes(repeating: value); (v0, v1, v2, v3) = (x, x, x, x) }
    @inline(__always) init(loading p: UnsafePointer<Float>) { (v0, v1, v2, v3) = (load(p), load(p + 16), load(p + 32), load(p + 48)) }
    @inline(__always) func store(to p: UnsafeMutablePointer<Float>) { Engine.store(v0, p); Engine.store(v1, p + 16); Engine.store(v2, p + 32); Engine.store(v3, p + 48) }
    @inline(__always) func addingProduct(broadcast a: Float, _ b: Self) -> Self {
        let x = Lanes(repeating: a)
        return Self(v0.addingProduct(x, b.v0), v1.addingProduct(x, b.v1), v2.addingProduct(x, b.v2), v3.addingProduct(x, b.v3))
    }
    @inline(__always) func adding(_ o: Self) -> Self { Self(v0 + o.v0, v1 + o.v1, v2 + o.v2, v3 + o.v3) }
    @inline(__always) func clamped(_ lo: Float, _ hi: Float) -> Self {
        Self(VectorMath.clamped(v0, lo, hi), VectorMath.clamped(v1, lo, hi), VectorMath.clamped(v2, lo, hi), VectorMath.clamped(v3, lo, hi))
    }
}

extension ColumnVector {
    /// The first `count` columns from `p`, zeros after them (a product's last columns, short of a vector).
    @inline(__always) init(loadingFirst count: Int, from p: UnsafePointer<Float>) {
        var v = Self(broadcasting: 0)
        withUnsafeMutableBytes(of: &v) { $0.baseAddress!.assumingMemoryBound(to: Float.self).update(from: p, count: count) }
        self = v
    }

    /// Stores the first `count` columns only.
    @inline(__always) func store(first count: Int, to p: UnsafeMutablePointer<Float>) {
        withUnsafeBytes(of: self) { p.update(from: $0.baseAddress!.assumingMemoryBound(to: Float.self), count: count) }
    }
}
