import Foundation

/// Protocol-buffer wire encoding, the few parts ONNX needs: varints, length-delimited
/// fields (strings, bytes, nested messages) and 32-bit floats.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private mutating func key(_ field: Int, _ wireType: UInt64) { varint(UInt64(field) << 3 | wireType) }

    /// An int64 / int32 / enum field (negative values take ten bytes, as protobuf's int64 does).
    mutating func int(_ field: Int, _ value: Int) {
        key(field, 0)
        varint(UInt64(bitPattern: Int64(value)))
    }

    mutating func float(_ field: Int, _ value: Float) {
        key(field, 5)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
    }

    mutating func bytes(_ field: Int, _ data: [UInt8]) {
        key(field, 2)
        varint(UInt64(data.count))
        bytes += data
    }

    mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

    mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        bytes(field, inner.bytes)
    }
}
