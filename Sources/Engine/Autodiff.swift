import Foundation
import Synchronization

/// One recorded op: its inputs and the rule that moves an output gradient to them.
///
/// Rules *add* into the inputs' gradients, so a tensor used twice receives
/// both contributions (as in micrograd).
final class Node {
    let inputs: [Tensor]
    /// The rule: the output gradient, and the buffer holding it when the rule may write an input's
    /// gradient over it (`takesSpare`, and nothing else holds the buffer), nil otherwise.
    let backward: (_ outputGrad: UnsafePointer<Float>, _ spare: Storage?) -> Void
    /// Whether the rule can reuse the output gradient's buffer (`Tensor.gradientTarget(reusing:)`).
    let takesSpare: Bool
    /// The rule for an output gradient left deferred (`DeferredGradient`), made inside the rule's own
    /// passes; nil when the rule needs it written.
    let backwardOfDeferred: ((DeferredGradient) -> Void)?
    /// The path of `Autodiff.section`s the op was recorded in ("heads/class_head.out.P3"), for profiles.
    let section: String?

    init(
        inputs: [Tensor], takesSpare: Bool = false, backwardOfDeferred: ((DeferredGradient) -> Void)? = nil,
        backward: @escaping (_ outputGrad: UnsafePointer<Float>, _ spare: Storage?) -> Void
    ) {
        self.inputs = inputs
        self.backward = backward
        self.takesSpare = takesSpare
        self.backwardOfDeferred = backwardOfDeferred
        section = Autodiff.currentSection
    }
}

/// Whether new ops are recorded for differentiation, and how they are profiled.
///
/// Both are scoped to the calling thread or task (task-local values), never global:
/// `withoutTape` and `profiling(with:)` set them for their body only.
public enum Autodiff {
    @TaskLocal static var recording = true
    @TaskLocal static var currentSection: String?
    @TaskLocal static var profiler: Profiler?

    /// Runs `body` without recording ops (inference, evaluation, checks).
    public static func withoutTape<T>(_ body: () throws -> T) rethrows -> T {
        try $recording.withValue(false, operation: body)
    }

    /// Tests only: how many output-gradient buffers backward passes have handed their rules to reuse.
    static let testingSparesHanded = Atomic<Int>(0)
    /// Tests only: deferred gradients made inside their producers' passes, and written whole.
    static let testingDeferredMade = Atomic<Int>(0), testingDeferredWritten = Atomic<Int>(0)

    /// True while ops are being recorded.
    public static var isRecording: Bool { recording }

    /// Runs `body` with `profiler` timing its sections forward and its ops' backward rules.
    public static func profiling<T>(with profiler: Profiler, _ body: () throws -> T) rethrows -> T {
        try $profiler.withValue(profiler, operation: body)
    }

    /// Labels the ops `body` records with `name` inside the current section, for profiles: the ops carry
    /// the path of labels ("heads/class_head.out.P3"), and the profiler times the body's forward ops.
    public static func section<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let path = currentSection.map { "\($0)/\(name)" } ?? name
        return try $currentSection.withValue(path) {
            guard let profiler else { return try body() }
            let start = monotonicSeconds()
            defer { profiler.addForward(path, monotonicSeconds() - start) }
            return try body()
        }
    }

    /// `section(name, body)` when the profiler times layers (`Profiler(timesLayers:)`), else just `body`:
    /// a training run pays one task-local read per layer for the labels, and its ops keep their part's.
    public static func layer<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        guard let profiler, profiler.timesLayers else { return try body() }
        return try section(name, body)
    }
}

/// Seconds spent per `Autodiff.section`, forward and backward (benchmarks). Sections nest two deep:
/// a part of the network ("backbone") holds its layers ("backbone/backbone.b1.depthwise") when the
/// profiler times layers.
public final class Profiler: @unchecked Sendable {
    private let lock = NSLock()
    /// Forward seconds by section path: a section's time includes the sections inside it.
    private var forward: [String: Double] = [:]
    /// Backward seconds by the path of the ops' innermost section, "other" outside every section.
    private var backward: [String: Double] = [:]
    /// Whether `Autodiff.layer` labels the layers inside the sections.
    public let timesLayers: Bool

    public init(timesLayers: Bool = false) {
        self.timesLayers = timesLayers
    }

    func addForward(_ path: String, _ seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        forward[path, default: 0] += seconds
    }

    func addBackward(_ path: String, _ seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        backward[path, default: 0] += seconds
    }

    /// Forward and backward seconds of each outermost section, with what the sections inside it took.
    public var secondsBySection: [String: Double] { secondsByPart.mapValues { $0.forward + $0.backward } }

    /// `secondsBySection` with forward and backward apart.
    public var secondsByPart: [String: (forward: Double, backward: Double)] {
        lock.lock(); defer { lock.unlock() }
        var parts: [String: (forward: Double, backward: Double)] = [:]
        for (path, seconds) in forward where !path.contains("/") { parts[path, default: (0, 0)].forward += seconds }
        for (path, seconds) in backward { parts[Self.outermost(path), default: (0, 0)].backward += seconds }
        return parts
    }

    /// Forward and backward seconds of each section inside another (a layer), by its own name.
    public var secondsByLayer: [String: (forward: Double, backward: Double)] {
        lock.lock(); defer { lock.unlock() }
        var layers: [String: (forward: Double, backward: Double)] = [:]
        for (path, seconds) in forward where path.contains("/") { layers[Self.innermost(path), default: (0, 0)].forward += seconds }
        for (path, seconds) in backward where path.contains("/") { layers[Self.innermost(path), default: (0, 0)].backward += seconds }
        return layers
    }

    private static func outermost(_ path: String) -> String { String(path.prefix { $0 != "/" }) }
    private static func innermost(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// Forgets what was measured so far.
    public func reset() {
        lock.lock(); defer { lock.unlock() }
        forward = [:]
        backward = [:]
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
    /// `backwardOfDeferred`, where given, is the rule for an output gradient left deferred.
    static func result(
        shape: [Int], storage: Storage, inputs: [Tensor], backwardOfDeferred: ((DeferredGradient) -> Void)? = nil,
        backward: @escaping (_ outputGrad: UnsafePointer<Float>) -> Void
    ) -> Tensor {
        let needsGrad = Autodiff.isRecording && inputs.contains { $0.requiresGrad }
        let node = needsGrad ? Node(inputs: inputs, backwardOfDeferred: backwardOfDeferred) { g, _ in backward(g) } : nil
        return Tensor(shape: shape, storage: storage, requiresGrad: needsGrad, node: node)
    }

    /// `result` for an op whose rule may write an input's gradient over the output's: it also
    /// receives the output gradient's buffer when nothing else holds it (`gradientTarget(reusing:)`).
    /// An elementwise pass that writes in place streams one buffer fewer than one writing a fresh buffer.
    static func result(
        shape: [Int], storage: Storage, inputs: [Tensor],
        reusingGradient backward: @escaping (_ outputGrad: UnsafePointer<Float>, _ spare: Storage?) -> Void
    ) -> Tensor {
        let needsGrad = Autodiff.isRecording && inputs.contains { $0.requiresGrad }
        let node = needsGrad ? Node(inputs: inputs, takesSpare: true, backward: backward) : nil
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
        if node != nil && gradStorage == nil {
            // An op's result takes the seed as it is, so that a backward pass costs what its rules
            // cost (no copy of the seed first). Rules only read it: the caller's tensor holds it too,
            // so it is never handed to a rule to write over.
            gradStorage = gradient.storage
            batchNormGradientSums?.invalidate()
        } else {
            Tensor.accumulate(into: self, gradient.storage.pointer)
        }
        let profiler = Autodiff.profiler
        for tensor in order.reversed() {
            guard let node = tensor.node else { continue }
            let start = profiler != nil ? monotonicSeconds() : 0
            if let fused = node.backwardOfDeferred, let deferred = tensor.takeDeferredGradient() {
                fused(deferred)
                profiler?.addBackward(node.section ?? "other", monotonicSeconds() - start)
                continue
            }
            // A deferred gradient the rule cannot make is written here.
            guard var g = tensor.gradStorage else { continue }
            if node.takesSpare {
                // The buffer is the rule's to reuse only if nothing else holds it: not the caller's
                // seed (a tensor's values), not another tensor's gradient.
                tensor.gradStorage = nil
                let spare = isKnownUniquelyReferenced(&g) ? g : nil
                if spare != nil { Autodiff.testingSparesHanded.add(1, ordering: .relaxed) }
                node.backward(UnsafePointer(g.pointer), spare)
            } else {
                node.backward(UnsafePointer(g.pointer), nil)
                tensor.gradStorage = nil
            }
            profiler?.addBackward(node.section ?? "other", monotonicSeconds() - start)
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
    /// `accumulate` is false when the buffer is new (uninitialised, or `spare`
    /// holding the output gradient): the rule must then write every element
    /// instead of adding. This saves a zero-fill and a read pass on every large gradient.
    func withGradientTarget(reusing spare: Storage? = nil, _ body: (_ pointer: UnsafeMutablePointer<Float>, _ accumulate: Bool) -> Void) {
        let target = gradientTarget(reusing: spare)
        body(target.pointer, target.accumulate)
    }

    /// This tensor's gradient buffer, and whether it already holds values to add to. A new buffer
    /// is `spare` where given and of this size (a buffer nothing else holds, whose values the
    /// writer reads before it overwrites them), fresh otherwise.
    func gradientTarget(reusing spare: Storage? = nil) -> GradientTarget {
        if let g = gradStorage {
            batchNormGradientSums?.invalidate()
            return GradientTarget(pointer: g.pointer, accumulate: true, sums: nil)
        }
        let g = spare.flatMap { $0.count == count ? $0 : nil } ?? Storage(count: count)
        gradStorage = g
        batchNormGradientSums?.reset(buffer: g.pointer)
        let gathers = BatchNormFusion.isEnabled && count * 4 >= BatchNormFusion.minimumGatheredGradientBytes
        return GradientTarget(pointer: g.pointer, accumulate: false, sums: gathers ? batchNormGradientSums : nil)
    }
}

