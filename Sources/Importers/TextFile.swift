import Foundation

/// Text files of other tools (YOLO label files) in the encodings editors save them in: UTF-8, with
/// or without a byte-order mark, and UTF-16 (little- or big-endian) with its mark. Anything else is
/// refused with the byte offset of the first fault, never read as no text at all.
enum TextFile {
    /// Why bytes are not such text: where, and what is wrong there.
    struct Problem: Error, Equatable, CustomStringConvertible {
        let offset: Int
        let what: String
        var description: String { "byte \(offset): \(what)" }
    }

    /// The text of `bytes`.
    static func decode(_ bytes: [UInt8]) throws(Problem) -> String {
        if bytes.starts(with: [0xFF, 0xFE]) { return try utf16(bytes, littleEndian: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return try utf16(bytes, littleEndian: false) }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var offset = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                // A NUL is no label text: most likely UTF-16 saved without its byte-order mark.
                if scalar.count == 1 && scalar.first == 0 {
                    throw Problem(offset: offset, what: "a NUL byte (UTF-16 without a byte-order mark? save the file as UTF-8)")
                }
                offset += scalar.count
            case .error(let length):
                let shown = bytes[offset..<offset + length].map { String(format: "0x%02X", $0) }.joined(separator: " ")
                throw Problem(offset: offset, what: "\(shown) is not UTF-8 (Latin-1 or another legacy encoding? save the file as UTF-8)")
            case .emptyInput:
                return String(decoding: bytes[start...], as: UTF8.self)
            }
        }
    }

    /// UTF-16 after its byte-order mark.
    private static func utf16(_ bytes: [UInt8], littleEndian: Bool) throws(Problem) -> String {
        guard bytes.count % 2 == 0 else {
            throw Problem(offset: bytes.count - 1, what: "UTF-16 (by its byte-order mark) of an odd number of bytes: the file is cut")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 - 1)
        for k in stride(from: 2, to: bytes.count, by: 2) {
            let (a, b) = (UInt16(bytes[k]), UInt16(bytes[k + 1]))
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
        }
        var parser = Unicode.UTF16.ForwardParser()
        var iterator = units.makeIterator()
        var unit = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): unit += scalar.count
            case .error:
                throw Problem(offset: 2 + 2 * unit, what: String(format: "0x%04X is an unpaired surrogate in UTF-16 (by its byte-order mark)", units[unit]))
            case .emptyInput: return String(decoding: units, as: UTF16.self)
            }
        }
    }
}
