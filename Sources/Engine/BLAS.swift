import CBLAS

/// Row-major single-precision GEMM: C = alpha * op(A) * op(B) + beta * C.
///
/// op(A) is m x k, op(B) is k x n, C is m x n; `lda`, `ldb`, `ldc` are the
/// row strides of the matrices as stored.
@inline(__always)
public func sgemm(
    transposeA: Bool = false, transposeB: Bool = false,
    m: Int, n: Int, k: Int, alpha: Float = 1,
    a: UnsafePointer<Float>, lda: Int,
    b: UnsafePointer<Float>, ldb: Int,
    beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    if k == 0 {
        // BLAS would still scale C by beta; make that explicit.
        if beta != 1 {
            for i in 0..<m { for j in 0..<n { c[i * ldc + j] = beta == 0 ? 0 : c[i * ldc + j] * beta } }
        }
        return
    }
    cblas_sgemm(
        CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
        Int32(m), Int32(n), Int32(k), alpha, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
}
