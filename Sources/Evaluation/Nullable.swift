import Foundation

/// An optional that a file writes as JSON null when nil, where a synthesised encoder would leave the
/// key out: metrics.json lists every key of evaluation.md, null included. A missing key still reads as nil.
@propertyWrapper
public struct Nullable<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The optional itself.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads null as nil.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    /// Writes nil as null.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// Chosen by synthesised decoders over the generic `decode`, so that an absent key is nil, not an error.
    func decode<V>(_ type: Nullable<V>.Type, forKey key: Key) throws -> Nullable<V> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
