import Engine

/// Scales all gradients down so that their global L2 norm is at most `maxNorm`.
///
/// Returns the norm before clipping, as `torch.nn.utils.clip_grad_norm_` does.
@discardableResult
public func clipGradientNorm(_ parameters: [Tensor], maxNorm: Float) -> Float {
    var squares = 0.0
    for p in parameters {
        guard let g = p.gradStorageIfAny else { continue }
        var s: Float = 0
        for i in 0..<p.count { s += g[i] * g[i] }
        squares += Double(s)
    }
    let norm = Float(squares.squareRoot())
    guard norm.isFinite, norm > maxNorm, norm > 0 else { return norm }
    let factor = maxNorm / (norm + 1e-6)
    for p in parameters {
        guard let g = p.gradStorageIfAny else { continue }
        for i in 0..<p.count { g[i] *= factor }
    }
    return norm
}
