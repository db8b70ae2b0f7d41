import Boxes
import Foundation
import Images
import XCTest

/// PNGs decode to the 8-bit values an image viewer shows: samples as stored (no gamma), 16 bits
/// rounded to 8, alpha composited onto white. Every file is written by hand, so every expected
/// byte follows from the samples written.
final class PNGDecodingTests: XCTestCase {
    /// 16 bits to 8, rounded: a 16-bit copy made by multiplying by 257 gives back the 8-bit bytes.
    func scaled(_ v: Int) -> Int { (v * 255 + 32_767) / 65_535 }
    /// An 8-bit sample over white at 8-bit alpha `a`, rounded.
    func onWhite(_ c: Int, _ a: Int) -> Int { (c * a + 255 * (255 - a) + 127) / 255 }

    func decode(_ png: HandMadePNG, _ name: String) throws -> RGBImage { try ImageCodec.decode(png.data, path: name) }

    /// The image whose pixel (x, y) is `rgb(x, y)`.
    func expected(_ width: Int, _ height: Int, _ rgb: (Int, Int) -> [Int]) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += rgb(x, y).map { UInt8($0) } } }
        return RGBImage(size: Size(width: width, height: height), pixels: pixels)
    }

    /// An 8-bit RGB pattern with every channel varying, both ways across a non-square image.
    func pattern(_ x: Int, _ y: Int) -> [Int] { [(x * 37 + y * 11) % 256, (y * 53 + 7) % 256, (x * y * 13 + 200) % 256] }

    func test16BitCopyOfAScreenshotDecodesToTheOriginalBytes() throws {
        let original = HandMadePNG(width: 7, height: 5, bitDepth: 8, colorType: .rgb, samples: pattern)
        let copy = HandMadePNG(width: 7, height: 5, bitDepth: 16, colorType: .rgb) { x, y in self.pattern(x, y).map { $0 * 257 } }
        let want = expected(7, 5, pattern)
        XCTAssertEqual(try decode(original, "8bit.png"), want)
        XCTAssertEqual(try decode(copy, "16bit.png"), want, "a 16-bit copy (v * 257) decodes to the 8-bit original")
        // Values between the multiples of 257 round to the nearest 8-bit value.
        let values = [0, 1, 128, 129, 32_767, 32_768, 0x8080, 0x80FF, 0x7F7F, 65_534, 65_535]
        let odd = HandMadePNG(width: values.count, height: 1, bitDepth: 16, colorType: .rgb) { x, _ in [values[x], 65_535 - values[x], values[x] / 2] }
        XCTAssertEqual(try decode(odd, "odd16.png"), expected(values.count, 1) { x, _ in
            [self.scaled(values[x]), self.scaled(65_535 - values[x]), self.scaled(values[x] / 2)]
        })
    }

    func test16BitRGBAIsScaledThenCompositedOntoWhite() throws {
        let alphas = [0, 65_535, 0x8000, 0x4000, 257 * 200]
        let colours = [[0, 0, 0], [1000, 30_000, 65_535], [0, 0, 0], [65_535, 0, 257 * 100], [257 * 10, 257 * 20, 257 * 30]]
        let png = HandMadePNG(width: alphas.count, height: 2, bitDepth: 16, colorType: .rgba) { x, _ in colours[x] + [alphas[x]] }
        let want = expected(alphas.count, 2) { x, _ in colours[x].map { self.onWhite(self.scaled($0), self.scaled(alphas[x])) } }
        XCTAssertEqual(try decode(png, "rgba16.png"), want)
        XCTAssertEqual(want.pixel(x: 0, y: 0), RGB(255, 255, 255), "transparent is white")
        XCTAssertEqual(want.pixel(x: 2, y: 0), RGB(127, 127, 127), "black at half alpha (0x8000 -> 128) is mid grey")
    }

    func testTransparentAndHalfTransparentRGBAScreenshotsAreSeenOnWhite() throws {
        // A fully transparent screenshot (as some tools save empty areas) is white, not black.
        let clear = HandMadePNG(width: 6, height: 4, bitDepth: 8, colorType: .rgba) { _, _ in [10, 20, 30, 0] }
        XCTAssertEqual(try decode(clear, "clear.png"), RGBImage(size: Size(width: 6, height: 4), fill: RGB(255, 255, 255)))
        let pixels = [[0, 0, 0, 128], [200, 100, 50, 64], [200, 100, 50, 255], [255, 255, 255, 128], [0, 255, 0, 1]]
        let half = HandMadePNG(width: pixels.count, height: 3, bitDepth: 8, colorType: .rgba) { x, _ in pixels[x] }
        let decoded = try decode(half, "half.png")
        XCTAssertEqual(decoded, expected(pixels.count, 3) { x, _ in pixels[x].prefix(3).map { self.onWhite($0, pixels[x][3]) } })
        XCTAssertEqual(decoded.pixel(x: 0, y: 0), RGB(127, 127, 127))
        XCTAssertEqual(decoded.pixel(x: 1, y: 0), RGB(241, 216, 204))
        XCTAssertEqual(decoded.pixel(x: 2, y: 0), RGB(200, 100, 50))
    }

    func testPaletteWithTRNSAtTwoBitsAndRGBWithTRNS() throws {
        // Four entries; tRNS gives entry 0 alpha 0 and entry 1 alpha 128, the rest are opaque.
        let palette = [[255, 0, 0], [0, 0, 255], [0, 128, 0], [9, 8, 7]]
        let alpha = [0, 128, 255, 255]
        var png = HandMadePNG(width: 9, height: 3, bitDepth: 2, colorType: .palette) { x, y in [(x + y) % 4] }
        png.chunks = [("PLTE", palette.flatMap { $0.map { UInt8($0) } }), ("tRNS", [0, 128])]
        XCTAssertEqual(try decode(png, "palette.png"), expected(9, 3) { x, y in
            let i = (x + y) % 4
            return palette[i].map { self.onWhite($0, alpha[i]) }
        })
        // RGB's tRNS names one colour that is transparent.
        var keyed = HandMadePNG(width: 4, height: 2, bitDepth: 8, colorType: .rgb) { x, _ in x == 1 ? [1, 2, 3] : [x, 40, 50] }
        keyed.chunks = [("tRNS", [0, 1, 0, 2, 0, 3])]
        XCTAssertEqual(try decode(keyed, "keyed.png"), expected(4, 2) { x, _ in x == 1 ? [255, 255, 255] : [x, 40, 50] })
    }

    func testGrayAlphaAndOneBitGray() throws {
        let gray = HandMadePNG(width: 5, height: 2, bitDepth: 8, colorType: .grayAlpha) { x, y in [x * 60, [255, 1, 128, 30, 200][x] - y] }
        XCTAssertEqual(try decode(gray, "gray-alpha.png"), expected(5, 2) { x, y in
            let v = self.onWhite(x * 60, [255, 1, 128, 30, 200][x] - y)
            return [v, v, v]
        })
        // 11 pixels a row: the last byte of each row is padded.
        let bits = HandMadePNG(width: 11, height: 3, bitDepth: 1, colorType: .gray) { x, y in [(x * 3 + y) % 2] }
        XCTAssertEqual(try decode(bits, "1bit.png"), expected(11, 3) { x, y in [Int](repeating: (x * 3 + y) % 2 * 255, count: 3) })
    }

    func testInterlacedImagesAreRead() throws {
        var rgb = HandMadePNG(width: 13, height: 9, bitDepth: 8, colorType: .rgb, samples: pattern)
        rgb.interlaced = true
        XCTAssertEqual(try decode(rgb, "adam7.png"), expected(13, 9, pattern))
        // With alpha, the interlaced passes go through a whole RGBA image before compositing.
        var rgba = HandMadePNG(width: 10, height: 7, bitDepth: 16, colorType: .rgba) { x, y in self.pattern(x, y).map { $0 * 257 } + [(x * 7 + y) * 900] }
        rgba.interlaced = true
        XCTAssertEqual(try decode(rgba, "adam7-rgba16.png"), expected(10, 7) { x, y in
            self.pattern(x, y).map { self.onWhite($0, self.scaled((x * 7 + y) * 900)) }
        })
    }

    func testGammaChunksLeaveSamplesAsStored() throws {
        // gAMA 1.0 (100000) declares linear samples: libpng's simplified API converted them to sRGB.
        for depth in [8, 16] {
            var png = HandMadePNG(width: 6, height: 4, bitDepth: depth, colorType: .rgb) { x, y in self.pattern(x, y).map { depth == 16 ? $0 * 257 : $0 } }
            png.chunks = [("gAMA", HandMadePNG.bigEndian(100_000))]
            XCTAssertEqual(try decode(png, "gamma1-\(depth).png"), expected(6, 4, pattern), "\(depth)-bit")
        }
    }

    func testADamagedImageChunkIsAClearError() throws {
        var bytes = [UInt8](HandMadePNG(width: 4, height: 4, bitDepth: 8, colorType: .rgb, samples: pattern).data)
        bytes[bytes.count - 20] ^= 0xFF  // inside IDAT: its CRC no longer matches
        XCTAssertThrowsError(try ImageCodec.decode(Data(bytes), path: "flipped.png")) { e in
            guard case .decodeFailed("flipped.png", "PNG", let reason)? = e as? ImageError else { return XCTFail("\(e)") }
            XCTAssertFalse(reason.isEmpty)
        }
    }
}
