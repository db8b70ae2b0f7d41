/// An optional that a file writes as null when nil, where a synthesised encoder would leave the key
/// out: metrics.json lists every key of evaluation.md, and a resolved run config every key a config
/// file may set (a key missing from the defaults could not be set). The one way this project writes
/// nil as null: as `@Nullable` on a property, or `Nullable(value)` in an encoder that has to be
/// written by hand for another reason. A missing key still reads as nil.
@propertyWrapper
public struct Nullable<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The optional itself.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Wraps `value`, for encoders written by hand.
    public init(_ value: Value?) {
        wrappedValue = value
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
    public func decode<V>(_ type: Nullable<V>.Type, forKey key: Key) throws -> Nullable<V> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
