/// Protocol-buffer wire encoding written by hand (the product carries no protobuf runtime):
/// varints, 32- and 64-bit floats, packed floats and length-delimited fields (strings, bytes,
/// nested messages). Fields come out in the order they are written; the caller follows the
/// `.proto` it encodes, field numbers included.
public struct ProtobufWriter: Sendable {
    /// The message encoded so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty message.
    public init() {}

    /// A bare base-128 varint, least significant group first (no field key).
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private mutating func key(_ field: Int, _ wireType: UInt64) { varint(UInt64(field) << 3 | wireType) }

    private mutating func littleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// An int64 / int32 / uint32 / enum field (negative values take ten bytes, as protobuf's int64 does).
    public mutating func int(_ field: Int, _ value: Int) {
        key(field, 0)
        varint(UInt64(bitPattern: Int64(value)))
    }

    /// A `float` field: wire type 5, four bytes little-endian.
    public mutating func float(_ field: Int, _ value: Float) {
        key(field, 5)
        littleEndian(value.bitPattern)
    }

    /// A `double` field: wire type 1, eight bytes little-endian.
    public mutating func double(_ field: Int, _ value: Double) {
        key(field, 1)
        littleEndian(value.bitPattern)
    }

    /// A packed `repeated float` field: one length-delimited run of four-byte values.
    public mutating func floats(_ field: Int, _ values: [Float]) {
        key(field, 2)
        varint(UInt64(values.count * 4))
        bytes.reserveCapacity(bytes.count + values.count * 4)
        for v in values { littleEndian(v.bitPattern) }
    }

    /// A `bytes` field (also an already encoded message).
    public mutating func bytes(_ field: Int, _ data: [UInt8]) {
        key(field, 2)
        varint(UInt64(data.count))
        bytes += data
    }

    /// A `string` field, UTF-8.
    public mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

    /// A nested message field, built by `build` on a writer of its own.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        bytes(field, inner.bytes)
    }
}
