/// TFRecord framing, the container of TensorBoard event files: each record is its length as a
/// little-endian UInt64, the masked CRC-32C of those 8 bytes, the data, and the masked CRC-32C of
/// the data (both CRCs little-endian UInt32). Readers stop cleanly at a truncated last record.
public enum TFRecord {
    /// `data` as one framed record.
    public static func framed(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 16)
        let length = littleEndianBytes(UInt64(data.count))
        out += length
        out += littleEndianBytes(CRC32C.masked(length))
        out += data
        out += littleEndianBytes(CRC32C.masked(data))
        return out
    }

    private static func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
