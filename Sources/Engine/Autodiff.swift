import Engine
import Foundation

/// One recorded op: its inputs and the rule that moves an output gradient to them.
///
/// Rules *add* into the inputs' gradients, so a tensor used twice receives
/// both contributions (as in micrograd).
final class Node {
    let inputs: [Tensor]
    let backward: (_ outputGrad: UnsafePointer<Float>) -> Void
    /// The `Autodiff.section` the op was recorded in, for profiles.
    let section: String?

    init(inputs: [Tensor], backward: @escaping (_ outputGrad: UnsafePointer<Float>) -> Void) {
        self.inputs = inputs
        self.backward = backward
        section = Autodiff.currentSection
    }
}

/// Whether new ops are recorded for differentiation.
public enum Autodiff {
    // Only the thread that builds the graph touches this; ops never create ops from workers.
    static var recordingDisabled = 0

    /// Runs `body` without recording ops (inference, evaluation, checks).
    public static func withoutTape<T>(_ body: () throws -> T) rethrows -> T {
        recordingDisabled += 1
        defer { recordingDisabled -= 1 }
        return try body()
    }

    /// True while ops are being recorded.
    public static var isRecording: Bool { recordingDisabled == 0 }

    static var currentSection: String?
    /// When on, `section` adds its body's time to `forwardSeconds` and `backward()` adds each
    /// op's time to `backwardSeconds`, by section name (benchmarks; off in training).
    public static var profiling = false
    public static var forwardSeconds: [String: Double] = [:]
    public static var backwardSeconds: [String: Double] = [:]

    /// Labels the ops `body` records with `name` (the innermost label wins), for profiles.
    public static func section<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let outer = currentSection
        currentSection = name
        defer { currentSection = outer }
        guard profiling else { return try body() }
        let start = monotonicSeconds()
        defer { forwardSeconds[name, default: 0] += monotonicSeconds() - start }
        return try body()
    }
}

/// Seconds on a monotonic clock, for timings.
public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

extension Tensor {
    /// Builds an op's output: records `backward` when any input needs a gradient.
    ///
    /// `backward` receives the output gradient; it must accumulate into
    /// `input.ensureGrad()` only for inputs with `requiresGrad`.
    static func result(
        shape: [Int], storage: Storage, inputs: [Tensor],
        backward: @escaping (_ outputGrad: UnsafePointer<Float>) -> Void
    ) -> Tensor {
        let needsGrad = Autodiff.isRecording && inputs.contains { $0.requiresGrad }
        let node = needsGrad ? Node(inputs: inputs, backward: backward) : nil
        return Tensor(shape: shape, storage: storage, requiresGrad: needsGrad, node: node)
    }

    /// Back-propagates from this scalar: fills the gradient of every tensor that requires one.
    ///
    /// Ops run in reverse recording order (a topological order of the graph).
    /// Gradients of intermediate results are released once used; leaves
    /// (parameters and inputs created with `requiresGrad`) keep theirs, and
    /// repeated calls accumulate into them.
    public func backward() {
        precondition(count == 1, "backward() needs a scalar loss, got shape \(shape)")
        backward(gradient: Tensor(shape: shape, repeating: 1))
    }

    /// Back-propagates `gradient` (the loss's gradient with respect to this tensor, same shape).
    public func backward(gradient: Tensor) {
        precondition(gradient.shape == shape, "backward: gradient shape \(gradient.shape) for tensor \(shape)")
        guard requiresGrad else { return }
        let order = topologicalOrder()
        Tensor.accumulate(into: self, gradient.storage.pointer)
        let profiling = Autodiff.profiling
        for tensor in order.reversed() {
            guard let node = tensor.node, let g = tensor.gradStorage else { continue }
            let start = profiling ? monotonicSeconds() : 0
            node.backward(UnsafePointer(g.pointer))
            tensor.gradStorage = nil
            if profiling { Autodiff.backwardSeconds[node.section ?? "other", default: 0] += monotonicSeconds() - start }
        }
    }

    /// Tensors reachable from this one with recorded nodes, inputs before outputs.
    private func topologicalOrder() -> [Tensor] {
        var order: [Tensor] = []
        var visited = Set<ObjectIdentifier>()
        // Iterative post-order: deep networks would overflow a recursive walk.
        var stack: [(Tensor, Int)] = [(self, 0)]
        visited.insert(ObjectIdentifier(self))
        while let (tensor, next) = stack.popLast() {
            let inputs = tensor.node?.inputs ?? []
            if next < inputs.count {
                stack.append((tensor, next + 1))
                let input = inputs[next]
                if input.requiresGrad, visited.insert(ObjectIdentifier(input)).inserted {
                    stack.append((input, 0))
                }
            } else {
                order.append(tensor)
            }
        }
        return order
    }
}

extension Tensor {
    /// Hands a backward rule this tensor's gradient buffer.
    ///
    /// `accumulate` is false when the buffer is new and uninitialised: the
    /// rule must then write every element instead of adding. This saves a
    /// zero-fill and a read pass on every large gradient.
    func withGradientTarget(_ body: (_ pointer: UnsafeMutablePointer<Float>, _ accumulate: Bool) -> Void) {
        let (pointer, accumulate) = gradientTarget()
        body(pointer, accumulate)
    }

    /// This tensor's gradient buffer, and whether it already holds values to add to.
    func gradientTarget() -> (pointer: UnsafeMutablePointer<Float>, accumulate: Bool) {
        if let g = gradStorage { return (g.pointer, true) }
        let g = Storage(count: count)
        gradStorage = g
        return (g.pointer, false)
    }
}
