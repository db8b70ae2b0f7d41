/// A float32 tensor with contiguous row-major storage.
///
/// Images and feature maps are NHWC (batch, height, width, channels): a 1x1
/// convolution is then one GEMM with no copying, and per-channel ops
/// vectorise along the contiguous channel axis. Convolution weights are
/// HWIO: (kernel height, kernel width, input channels per group, output channels).
public final class Tensor {
    /// Extent of each axis, outermost first.
    public let shape: [Int]
    /// Number of elements.
    public let count: Int
    let storage: Storage
    /// Gradient of the loss with respect to this tensor, filled by `backward()`; a deferred one
    /// (`DeferredGradient`) is written the first time it is asked for.
    public internal(set) var gradStorage: Storage? {
        get {
            if let deferred = deferredGradient {
                deferredGradient = nil
                writtenGradient = deferred.written()
            }
            return writtenGradient
        }
        set {
            deferredGradient = nil
            writtenGradient = newValue
        }
    }
    private var writtenGradient: Storage?
    /// A gradient described but not written yet (only while nothing has written this tensor's gradient).
    private var deferredGradient: DeferredGradient?
    /// Whether gradients flow into this tensor.
    public private(set) var requiresGrad: Bool
    /// The op that produced this tensor, if it was recorded.
    let node: Node?
    /// When this is a batch norm's output: the sums its backward pass needs over this tensor's
    /// gradient, which the gradient's writer can gather as it writes.
    var batchNormGradientSums: BatchNormGradientSums?

    init(shape: [Int], storage: Storage, requiresGrad: Bool, node: Node?) {
        precondition(shape.allSatisfy { $0 >= 0 }, "negative extent in shape \(shape)")
        self.shape = shape
        self.count = shape.reduce(1, *)
        precondition(storage.count >= count, "storage smaller than shape \(shape)")
        self.storage = storage
        self.requiresGrad = requiresGrad
        self.node = node
    }

    /// Whether any gradient, written or deferred, has reached this tensor.
    var hasGradient: Bool { writtenGradient != nil || deferredGradient != nil }

    /// Gives this tensor, which has no gradient yet, a deferred one.
    func deferGradient(_ gradient: DeferredGradient) {
        precondition(!hasGradient, "a deferred gradient for a tensor that already has one")
        deferredGradient = gradient
    }

    /// Takes the deferred gradient away without writing it, for the producer that makes it itself.
    func takeDeferredGradient() -> DeferredGradient? {
        defer { deferredGradient = nil }
        return deferredGradient
    }

    /// Turns gradients into a leaf tensor (a parameter) on or off: a frozen parameter gets none,
    /// and ops on frozen inputs record nothing unless another input needs a gradient.
    public func setRequiresGradient(_ on: Bool) {
        precondition(node == nil, "only leaf tensors (parameters, inputs) can change whether they need a gradient")
        requiresGrad = on
        if !on { gradStorage = nil }
    }

    /// A tensor holding `values` (row-major) in `shape`.
    public convenience init(shape: [Int], values: [Float], requiresGrad: Bool = false) {
        let n = shape.reduce(1, *)
        precondition(values.count == n, "\(values.count) values for shape \(shape)")
        let storage = Storage(count: n)
        values.withUnsafeBufferPointer { storage.pointer.update(from: $0.baseAddress!, count: n) }
        self.init(shape: shape, storage: storage, requiresGrad: requiresGrad, node: nil)
    }

    /// A tensor whose values `fill` writes, every one of them (row-major), straight into its storage.
    public convenience init(shape: [Int], requiresGrad: Bool = false, filling fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        let storage = Storage(count: shape.reduce(1, *))
        fill(UnsafeMutableBufferPointer(start: storage.pointer, count: storage.count))
        self.init(shape: shape, storage: storage, requiresGrad: requiresGrad, node: nil)
    }

    /// A tensor filled with `value`.
    public convenience init(shape: [Int], repeating value: Float, requiresGrad: Bool = false) {
        let n = shape.reduce(1, *)
        let storage = Storage(count: n)
        storage.pointer.initialize(repeating: value, count: n)
        self.init(shape: shape, storage: storage, requiresGrad: requiresGrad, node: nil)
    }

    /// A zero-filled tensor.
    public static func zeros(_ shape: [Int], requiresGrad: Bool = false) -> Tensor {
        Tensor(shape: shape, repeating: 0, requiresGrad: requiresGrad)
    }

    /// A scalar tensor (shape `[]`).
    public convenience init(scalar: Float, requiresGrad: Bool = false) {
        self.init(shape: [], values: [scalar], requiresGrad: requiresGrad)
    }

    /// Samples from N(mean, std^2) drawn from `generator`.
    public static func randomNormal<G: RandomNumberGenerator>(
        _ shape: [Int], mean: Float = 0, std: Float = 1, requiresGrad: Bool = false, using generator: inout G
    ) -> Tensor {
        let n = shape.reduce(1, *)
        let storage = Storage(count: n)
        fillNormal(storage.pointer, count: n, mean: mean, std: std, using: &generator)
        return Tensor(shape: shape, storage: storage, requiresGrad: requiresGrad, node: nil)
    }

    /// Samples from U[low, high) drawn from `generator`.
    public static func randomUniform<G: RandomNumberGenerator>(
        _ shape: [Int], in range: ClosedRange<Float> = 0...1, requiresGrad: Bool = false, using generator: inout G
    ) -> Tensor {
        let n = shape.reduce(1, *)
        let storage = Storage(count: n)
        let (low, width) = (range.lowerBound, range.upperBound - range.lowerBound)
        // 24 random bits per value straight from next(): the generic Float.random path is
        // unspecialised across modules and costs more than the rest of a benchmark's setup.
        for i in 0..<n { storage.pointer[i] = low + width * Float(generator.next() >> 40) * 0x1.0p-24 }
        return Tensor(shape: shape, storage: storage, requiresGrad: requiresGrad, node: nil)
    }

    /// The values, row-major.
    public var scalars: [Float] { Array(UnsafeBufferPointer(start: storage.pointer, count: count)) }

    /// The single value of a one-element tensor.
    public var item: Float {
        precondition(count == 1, "item of a tensor of shape \(shape)")
        return storage.pointer[0]
    }

    /// The gradient values, or nil if no gradient reached this tensor.
    public var grad: [Float]? {
        gradStorage.map { Array(UnsafeBufferPointer(start: $0.pointer, count: count)) }
    }

    /// Read-only access to the values.
    public var pointer: UnsafePointer<Float> { UnsafePointer(storage.pointer) }

    /// In-place access to the values, for optimizers and loaders. Not recorded on the tape.
    public var mutablePointer: UnsafeMutablePointer<Float> { storage.pointer }

    /// In-place access to the gradient, allocated (zeroed) on first use.
    public var mutableGradPointer: UnsafeMutablePointer<Float> { ensureGrad().pointer }

    /// Drops the gradient.
    public func zeroGrad() { gradStorage = nil }

    /// Overwrites the values with `values`.
    public func assign(_ values: [Float]) {
        precondition(values.count == count, "\(values.count) values for shape \(shape)")
        values.withUnsafeBufferPointer { storage.pointer.update(from: $0.baseAddress!, count: count) }
    }

    /// A tensor sharing this one's values but cut from the tape.
    public func detached() -> Tensor {
        Tensor(shape: shape, storage: storage, requiresGrad: false, node: nil)
    }

    /// This tensor's gradient buffer, created as zeros if there is none yet (e.g. to receive
    /// gradients summed over the processes of a data-parallel run).
    public var gradientCreatingZeros: UnsafeMutablePointer<Float> { ensureGrad().pointer }

    @discardableResult
    func ensureGrad() -> Storage {
        batchNormGradientSums?.invalidate()  // whoever asks may add to the gradient
        if let g = gradStorage { return g }
        let g = Storage(count: count)
        g.pointer.initialize(repeating: 0, count: count)
        gradStorage = g
        return g
    }
}

extension Tensor: CustomStringConvertible {
    public var description: String {
        let shown = scalars.prefix(8).map { String($0) }.joined(separator: ", ")
        return "Tensor(shape: \(shape), [\(shown)\(count > 8 ? ", ..." : "")])"
    }
}

/// An aligned float buffer; tensors that are reshapes of each other share one.
public final class Storage {
    let pointer: UnsafeMutablePointer<Float>
    let count: Int

    /// Uninitialised storage for `count` floats, 64-byte aligned for vector loads.
    init(count: Int) {
        self.count = count
        let raw = BufferPool.shared.allocate(bytes: max(1, count) * 4)
        pointer = raw.bindMemory(to: Float.self, capacity: max(1, count))
    }

    deinit { BufferPool.shared.release(UnsafeMutableRawPointer(pointer), bytes: max(1, count) * 4) }
}

extension Tensor {
    /// In-place access to the gradient if one has been computed.
    public var gradStorageIfAny: UnsafeMutablePointer<Float>? { gradStorage?.pointer }
}
