import Foundation

/// PNG files written byte by byte, so that a test states every sample the decoder gets: any colour
/// type and bit depth, Adam7 interlacing, and extra chunks (PLTE, tRNS, gAMA) before the image data.
/// The zlib stream holds stored (uncompressed) deflate blocks; chunks carry their CRC-32.
struct HandMadePNG {
    enum ColorType: UInt8 { case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6 }

    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: ColorType
    var interlaced = false
    /// Chunks written between IHDR and IDAT, in order: (type, data).
    var chunks: [(String, [UInt8])] = []
    /// The samples of pixel (x, y), one per channel of the colour type, each below 2^bitDepth.
    var samples: (_ x: Int, _ y: Int) -> [Int]

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    var data: Data {
        var ihdr = Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        var bytes = Self.signature + Self.chunk("IHDR", ihdr)
        for (type, body) in chunks { bytes += Self.chunk(type, body) }
        bytes += Self.chunk("IDAT", Self.zlibStored(scanlines())) + Self.chunk("IEND", [])
        return Data(bytes)
    }

    /// The filtered scanlines (filter 0, none) of the image, or of each Adam7 pass in turn.
    func scanlines() -> [UInt8] {
        guard interlaced else { return rows(xs: Array(0..<width), ys: Array(0..<height)) }
        // (x start, y start, x step, y step) of the seven passes; an empty pass has no bytes.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            if !xs.isEmpty && !ys.isEmpty { out += rows(xs: xs, ys: ys) }
        }
        return out
    }

    /// Rows `ys` of columns `xs`, each a filter byte then its samples packed big-endian, MSB first.
    func rows(xs: [Int], ys: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        for y in ys {
            out.append(0)
            var bits: [Int] = []  // sub-byte samples, packed at the row's end
            for x in xs {
                for s in samples(x, y) {
                    precondition(s >= 0 && s < 1 << bitDepth, "sample \(s) does not fit \(bitDepth) bits")
                    switch bitDepth {
                    case 16: out += [UInt8(s >> 8), UInt8(s & 255)]
                    case 8: out.append(UInt8(s))
                    default: bits.append(s)
                    }
                }
            }
            if !bits.isEmpty {
                let perByte = 8 / bitDepth
                for start in stride(from: 0, to: bits.count, by: perByte) {
                    var byte = 0
                    for k in 0..<perByte { byte = byte << bitDepth | (start + k < bits.count ? bits[start + k] : 0) }
                    out.append(UInt8(byte))
                }
            }
        }
        return out
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    /// A zlib stream of stored deflate blocks (at most 65,535 bytes each) and its Adler-32.
    static func zlibStored(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(payload.count, start + 65_535)
            let n = end - start
            out += [end == payload.count ? 1 : 0, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)]
            out += payload[start..<end]
            start = end
        } while start < payload.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in payload {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }
}
