import TensorBoard
import XCTest

final class TFRecordTests: XCTestCase {
    /// RFC 3720 (iSCSI) appendix B.4 and the usual check value of "123456789".
    func testCRC32CKnownVectors() {
        XCTAssertEqual(CRC32C.checksum([]), 0)
        XCTAssertEqual(CRC32C.checksum(Array("123456789".utf8)), 0xE306_9283)
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0, count: 32)), 0x8A91_36AA)
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)), 0x62A8_AB43)
        XCTAssertEqual(CRC32C.checksum((0..<32).map { UInt8($0) }), 0x46DD_794E)
        XCTAssertEqual(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }), 0x113F_DB5C)
    }

    func testMaskRotatesRightFifteenAndAddsTheConstant() {
        XCTAssertEqual(CRC32C.masked([]), 0xA282_EAD8)
        // 0xE3069283 rotated right by 15 is 0x2507C60D; plus 0xA282EAD8 (mod 2^32) is 0xC78AB0E5.
        XCTAssertEqual(CRC32C.masked(Array("123456789".utf8)), 0xC78A_B0E5)
    }

    func testFramingIsLengthCRCDataCRC() {
        // Expected CRCs from TensorBoard's own masked_crc32c (its pure-Python reader's).
        XCTAssertEqual(TFRecord.framed(Array("abc".utf8)),
                       [0x03, 0, 0, 0, 0, 0, 0, 0, 0xB0, 0x99, 0x49, 0x0E, 0x61, 0x62, 0x63, 0x6E, 0x57, 0xF1, 0x21])
        XCTAssertEqual(TFRecord.framed([]).count, 16)
    }
}
