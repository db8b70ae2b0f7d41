import Protobuf
import XCTest

/// Each encoding against bytes worked out by hand from the protobuf wire-format rules:
/// key = field << 3 | wire type (0 varint, 1 fixed 64-bit, 2 length-delimited, 5 fixed 32-bit).
final class ProtobufWriterTests: XCTestCase {
    func encoded(_ build: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var w = ProtobufWriter()
        build(&w)
        return w.bytes
    }

    func testVarintsTakeSevenBitsABytePlusContinuation() {
        XCTAssertEqual(encoded { $0.varint(0) }, [0x00])
        XCTAssertEqual(encoded { $0.varint(127) }, [0x7F])
        XCTAssertEqual(encoded { $0.varint(300) }, [0xAC, 0x02])
        XCTAssertEqual(encoded { $0.varint(UInt64.max) }, [UInt8](repeating: 0xFF, count: 9) + [0x01])
    }

    func testIntFieldsIncludingNegativeAndLargeFieldNumbers() {
        XCTAssertEqual(encoded { $0.int(1, 150) }, [0x08, 0x96, 0x01])
        // Negative int64: its two's complement as a ten-byte varint.
        XCTAssertEqual(encoded { $0.int(2, -1) }, [0x10] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        // Field 16: key 128 no longer fits one byte.
        XCTAssertEqual(encoded { $0.int(16, 1) }, [0x80, 0x01, 0x01])
    }

    func testFloatAndDoubleAreLittleEndianFixedWidth() {
        XCTAssertEqual(encoded { $0.float(2, 1.0) }, [0x15, 0x00, 0x00, 0x80, 0x3F])
        XCTAssertEqual(encoded { $0.float(1, -2.5) }, [0x0D, 0x00, 0x00, 0x20, 0xC0])
        XCTAssertEqual(encoded { $0.double(1, 1.0) }, [0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        XCTAssertEqual(encoded { $0.double(1, 1_700_000_000.25) }, [0x09, 0x00, 0x00, 0x10, 0x40, 0xFC, 0x54, 0xD9, 0x41])
    }

    func testPackedFloatsAreOneLengthDelimitedRun() {
        XCTAssertEqual(encoded { $0.floats(5, [1.0, -2.0]) }, [0x2A, 0x08, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0])
        XCTAssertEqual(encoded { $0.floats(5, []) }, [0x2A, 0x00])
    }

    func testStringsBytesAndNestedMessages() {
        XCTAssertEqual(encoded { $0.string(2, "testing") }, [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67])
        XCTAssertEqual(encoded { $0.string(1, "é") }, [0x0A, 0x02, 0xC3, 0xA9])
        XCTAssertEqual(encoded { $0.bytes(4, []) }, [0x22, 0x00])
        XCTAssertEqual(encoded { $0.message(3) { $0.int(1, 150) } }, [0x1A, 0x03, 0x08, 0x96, 0x01])
        XCTAssertEqual(encoded { w in
            w.message(1) { $0.message(2) { $0.string(1, "a") } }
            w.int(2, 5)
        }, [0x0A, 0x05, 0x12, 0x03, 0x0A, 0x01, 0x61, 0x10, 0x05])
    }
}
