/// CRC-32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF),
/// the checksum of TFRecord framing. Table-driven, one byte at a time.
public enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { (n: UInt32) in
        var c = n
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        return c
    }

    /// The CRC-32C of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        table.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { b in
                var crc: UInt32 = 0xFFFF_FFFF
                for byte in b { crc = t[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
                return ~crc
            }
        }
    }

    /// The checksum as TFRecord stores it: rotated right by 15 bits plus 0xA282EAD8, because a
    /// CRC computed over bytes that themselves hold CRCs is weak (leveldb's `crc32c::Mask`).
    public static func masked(_ bytes: [UInt8]) -> UInt32 {
        let crc = checksum(bytes)
        return ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8
    }
}
