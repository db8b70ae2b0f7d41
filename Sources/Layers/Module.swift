import Engine

/// Whether a network runs to learn (batch statistics) or to predict (running statistics).
public enum Mode: Sendable, Equatable {
    case training
    case inference
}

/// Something that owns tensors by name, directly or through named children.
///
/// Names join with dots (`backbone.b1.depthwise.weight`), as in PyTorch's
/// `state_dict`, so that checkpoints store tensors by name and load them into
/// a freshly built model.
public protocol Module: AnyObject {
    /// Trainable tensors owned directly, by local name.
    var localParameters: [(String, Tensor)] { get }
    /// Non-trainable state owned directly (e.g. running statistics), by local name.
    var localBuffers: [(String, Tensor)] { get }
    /// Sub-modules, by local name.
    var children: [(String, any Module)] { get }
}

extension Module {
    public var localParameters: [(String, Tensor)] { [] }
    public var localBuffers: [(String, Tensor)] { [] }
    public var children: [(String, any Module)] { [] }

    /// Every trainable tensor with its full dotted name, in a fixed order.
    public func namedParameters() -> [(name: String, tensor: Tensor)] {
        collect(prefix: "") { $0.localParameters }
    }

    /// Every buffer with its full dotted name.
    public func namedBuffers() -> [(name: String, tensor: Tensor)] {
        collect(prefix: "") { $0.localBuffers }
    }

    /// Parameters then buffers: everything a checkpoint must hold.
    public func namedState() -> [(name: String, tensor: Tensor)] {
        namedParameters() + namedBuffers()
    }

    /// Trainable tensors in `namedParameters()` order.
    public var parameters: [Tensor] { namedParameters().map(\.tensor) }

    /// Number of trainable scalars.
    public var parameterCount: Int { parameters.reduce(0) { $0 + $1.count } }

    /// Copies `values` (name -> shape and data) into this module's tensors.
    ///
    /// Every tensor of the module must be present with its exact shape; a
    /// name the module does not have is an error too, so a mismatched
    /// checkpoint never loads half-way.
    public func load(_ values: [String: (shape: [Int], values: [Float])]) throws {
        let state = namedState()
        let names = Set(state.map(\.name))
        if let extra = values.keys.sorted().first(where: { !names.contains($0) }) {
            throw StateError.unexpectedTensor(name: extra)
        }
        for (name, tensor) in state {
            guard let v = values[name] else { throw StateError.missingTensor(name: name) }
            guard v.shape == tensor.shape else {
                throw StateError.shapeMismatch(name: name, expected: tensor.shape, found: v.shape)
            }
        }
        for (name, tensor) in state { tensor.assign(values[name]!.values) }
    }

    private func collect(prefix: String, _ local: (any Module) -> [(String, Tensor)]) -> [(name: String, tensor: Tensor)] {
        var out = local(self).map { (name: prefix + $0.0, tensor: $0.1) }
        for (name, child) in children {
            out += child.collectAny(prefix: prefix + name + ".", local)
        }
        return out
    }

    fileprivate func collectAny(prefix: String, _ local: (any Module) -> [(String, Tensor)]) -> [(name: String, tensor: Tensor)] {
        collect(prefix: prefix, local)
    }
}

/// A module that maps one NHWC tensor to another.
public protocol Layer: Module {
    /// Applies the layer; `mode` decides how batch norm behaves.
    func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor
}

/// Why a set of named tensors could not be loaded into a module.
public enum StateError: Error, CustomStringConvertible, Equatable {
    case missingTensor(name: String)
    case unexpectedTensor(name: String)
    case shapeMismatch(name: String, expected: [Int], found: [Int])

    public var description: String {
        switch self {
        case .missingTensor(let name): return "tensor '\(name)' is missing"
        case .unexpectedTensor(let name): return "tensor '\(name)' does not belong to this model"
        case .shapeMismatch(let name, let expected, let found):
            return "tensor '\(name)' has shape \(found), the model expects \(expected)"
        }
    }
}
