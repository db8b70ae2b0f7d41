/// A convolution prepared once for inference: its weights and bias (a batch norm folded in by
/// the caller), the clamp its output is written through (the activation), and, for a dense
/// 3x3 stride-1 conv, its Winograd-transformed weights (for a 1x1, its weights), packed
/// for `packedGEMM`, so that no call transforms or packs them again.
/// Nothing is recorded; the weights are copied when it is made (make a new one when they change).
public final class InferenceConvolution: @unchecked Sendable {
    public let weight: Tensor
    public let bias: Tensor?
    public let stride, padding, groups: Int
    public let clamp: ClosedRange<Float>?
    /// U = G g G^T of the weights for both Winograd tiles, packed, where the shape admits Winograd.
    private let winogradWeights: PreparedWinogradWeights?
    /// A 1x1 convolution's weights packed for `packedGEMM`, every shape. Where training's panel
    /// kernels take the shape (at most 64 outputs and 128 inputs), tiles of 6 rows x 2 registers
    /// beat their 4 x 1 (more sums per load): at batch 1 on a Zen 3, b3.pointwise 1.58 -> 1.25 ms,
    /// fpn.lateral3 0.97 -> 0.68, b2 0.82 -> 0.62, b1 1.20 -> 1.07 (medians of 5 alternated runs).
    /// Both walk K in order from zero and add the bias after, so the bits are the same.
    private let packedWeights: PackedPanels?

    /// Prepares the weights: Winograd's transform for both tiles, or a 1x1's packed panels.
    public init(weight: Tensor, bias: Tensor?, stride: Int = 1, padding: Int = 0, groups: Int = 1,
                clampedTo clamp: ClosedRange<Float>? = nil) {
        precondition(weight.shape.count == 4, "InferenceConvolution: weight must be HWIO, got \(weight.shape)")
        if let bias { precondition(bias.shape == [weight.shape[3]], "InferenceConvolution: bias \(bias.shape) for \(weight.shape[3]) channels") }
        (self.weight, self.bias, self.stride, self.padding, self.groups, self.clamp) = (weight, bias, stride, padding, groups, clamp)
        // Only where `.automatic` may run Winograd on some input size.
        let winogradShape = groups == 1 && weight.shape[0] == 3 && weight.shape[1] == 3 && stride == 1 && padding == 1
            && min(weight.shape[2], weight.shape[3]) >= WinogradPolicy.minimumChannels
        winogradWeights = winogradShape
            ? PreparedWinogradWeights(weight.storage.pointer, inChannels: weight.shape[2], outChannels: weight.shape[3]) : nil
        let pointwise = groups == 1 && weight.shape[0] == 1 && weight.shape[1] == 1 && stride == 1 && padding == 0
        packedWeights = pointwise
            ? PackedPanels(weight.storage.pointer, k: weight.shape[2], n: weight.shape[3]) : nil
    }

    /// The convolution of NHWC `x`, bias added and clamped as it is written.
    public func callAsFunction(_ x: Tensor) -> Tensor {
        let geo = ConvGeometry(
            batch: x.shape[0], height: x.shape[1], width: x.shape[2], inChannels: x.shape[3],
            kernelHeight: weight.shape[0], kernelWidth: weight.shape[1], outChannels: weight.shape[3],
            stride: stride, padding: padding, groups: groups)
        precondition(x.shape.count == 4 && weight.shape[2] == geo.inPerGroup && geo.outHeight > 0 && geo.outWidth > 0,
                     "InferenceConvolution: input \(x.shape) does not fit weight \(weight.shape)")
        let outShape = [geo.batch, geo.outHeight, geo.outWidth, geo.outChannels]
        let out = Storage(count: outShape.reduce(1, *))
        let stage = OutputStage(bias: bias?.storage.pointer, clamp: clamp)
        if let packedWeights {
            packedGEMM(m: geo.batch * geo.height * geo.width, a: x.storage.pointer, lda: geo.inChannels, b: packedWeights,
                       stage: stage, c: out.pointer, ldc: geo.outChannels)
        } else {
            convolveForward(geo, x: x.storage.pointer, w: weight.storage.pointer, stage: stage,
                            out: out.pointer, winogradWeights: winogradWeights)
        }
        return Tensor(shape: outShape, storage: out, requiresGrad: false, node: nil)
    }
}
