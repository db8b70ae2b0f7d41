import Boxes
import Foundation
import Images
import TestSupport
import XCTest

final class ImageTests: XCTestCase {
    func gradient(_ size: Size) -> RGBImage {
        var img = RGBImage(size: size)
        for y in 0..<size.height { for x in 0..<size.width {
            img.blend(x: x, y: y, color: RGB(UInt8(x * 255 / max(1, size.width - 1)), UInt8(y * 255 / max(1, size.height - 1)), 77), alpha: 1)
        } }
        return img
    }

    func testPNGRoundTripIsExact() throws {
        let img = gradient(Size(width: 37, height: 21))
        let data = try ImageCodec.encodePNG(img)
        XCTAssertEqual(try ImageCodec.decode(data, path: "x.png"), img)
    }

    func testDecodesARealJPEGScreenshot() throws {
        let folder = try realUIScreens().appendingPathComponent("valid/images")
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().first(where: { $0.hasSuffix(".jpg") }))
        let img = try ImageCodec.read(folder.appendingPathComponent(name))
        XCTAssertGreaterThan(img.width, 100)
        XCTAssertGreaterThan(img.height, img.width)  // phone screenshots are portrait
        XCTAssertGreaterThan(Set(img.pixels).count, 20, "a real screenshot has more than a few colours")
    }

    func testBrokenFilesAreClearErrors() {
        XCTAssertThrowsError(try ImageCodec.decode(Data("hello".utf8), path: "notes.txt")) {
            XCTAssertEqual($0 as? ImageError, .unknownFormat(path: "notes.txt"))
        }
        let png = try! ImageCodec.encodePNG(gradient(Size(width: 8, height: 8)))
        XCTAssertThrowsError(try ImageCodec.decode(png.prefix(40), path: "cut.png")) {
            guard case .decodeFailed(let path, "PNG", _)? = $0 as? ImageError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, "cut.png")
        }
        XCTAssertThrowsError(try ImageCodec.decode(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 1, 2]), path: "cut.jpg")) {
            guard case .decodeFailed(_, "JPEG", _)? = $0 as? ImageError else { return XCTFail("\($0)") }
        }
    }

    func testLetterboxKeepsAspectAndMapsBoxesBothWays() {
        // A 360 x 640 screenshot into 256 x 512: limited by width, scale 256/360.
        let lb = Letterbox(original: Size(width: 360, height: 640), target: Size(width: 256, height: 512))
        XCTAssertEqual(lb.scale, 256.0 / 360.0, accuracy: 1e-6)
        let box = Box(xMin: 36, yMin: 64, xMax: 180, yMax: 320)
        let mapped = lb.forward(box)
        XCTAssertEqual(mapped.xMax, 128, accuracy: 1e-4)
        XCTAssertEqual(mapped.yMax, 320 * 256 / 360, accuracy: 1e-3)
        XCTAssertEqual(lb.backward(mapped).yMin, 64, accuracy: 1e-4)
        let (img, _) = gradient(Size(width: 360, height: 640)).letterboxed(into: Size(width: 256, height: 512), fill: RGB(1, 2, 3))
        XCTAssertEqual(img.size, Size(width: 256, height: 512))
        XCTAssertEqual(img.pixel(x: 10, y: 500), RGB(1, 2, 3))  // padding below the scaled image (height 455)
        XCTAssertNotEqual(img.pixel(x: 255, y: 400), RGB(1, 2, 3))
        // `content` is exactly the picture's part: 640 * 256 / 360 = 455.1 rows, then padding.
        XCTAssertEqual(lb.content, Size(width: 256, height: 455))
        XCTAssertNotEqual(img.pixel(x: 10, y: 454), RGB(1, 2, 3))
        XCTAssertEqual(img.pixel(x: 10, y: 455), RGB(1, 2, 3))
    }

    /// A window of a resize is the same pixels as cropping the whole resize, enlarging and shrinking.
    func testResizeWindowIsACropOfTheWholeResize() {
        let img = RGBImage(size: Size(width: 41, height: 67), pixels: (0..<(41 * 67 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7919 + ($0 / 123) * 31) })
        for size in [Size(width: 52, height: 80), Size(width: 30, height: 45), Size(width: 13, height: 20)] {
            let whole = img.resized(to: size)
            let (columns, rows) = (3..<(size.width - 2), 5..<(size.height - 1))
            XCTAssertEqual(img.resized(to: size, columns: columns, rows: rows),
                           whole.cropped(x0: columns.lowerBound, y0: rows.lowerBound, x1: columns.upperBound, y1: rows.upperBound), "\(size)")
        }
    }

    /// The separable resize gives the bytes of the per-pixel formula (x first, then y), up and down.
    func testResizeIsThePerPixelBilinearFormula() {
        let img = RGBImage(size: Size(width: 41, height: 67), pixels: (0..<(41 * 67 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7919 + ($0 / 123) * 31) })
        for size in [Size(width: 52, height: 80), Size(width: 30, height: 45), Size(width: 41, height: 90), Size(width: 23, height: 67)] {
            let (sx, sy) = (Float(img.width) / Float(size.width), Float(img.height) / Float(size.height))
            var expected = RGBImage(size: size)
            for y in 0..<size.height {
                let fy = max(0, (Float(y) + 0.5) * sy - 0.5)
                let y0 = min(Int(fy), img.height - 1), y1 = min(y0 + 1, img.height - 1), wy = fy - Float(y0)
                for x in 0..<size.width {
                    let fx = max(0, (Float(x) + 0.5) * sx - 0.5)
                    let x0 = min(Int(fx), img.width - 1), x1 = min(x0 + 1, img.width - 1), wx = fx - Float(x0)
                    for c in 0..<3 {
                        func at(_ x: Int, _ y: Int) -> Float { Float(img.pixels[(y * img.width + x) * 3 + c]) }
                        let t = at(x0, y0) * (1 - wx) + at(x1, y0) * wx, u = at(x0, y1) * (1 - wx) + at(x1, y1) * wx
                        expected.pixels[(y * size.width + x) * 3 + c] = UInt8((min(255, max(0, t * (1 - wy) + u * wy)) + 0.5).rounded(.towardZero))
                    }
                }
            }
            XCTAssertEqual(img.resized(to: size), expected, "\(size)")
        }
    }

    /// The 16-lane colour map gives the per-pixel formula's bytes, clamped, at every phase of the lanes and in the tail.
    func testColorMapIsThePerPixelFormula() {
        let m: [Float] = [1.2, -0.3, 0.15, 0.05, 0.9, 0.2, -0.4, 0.6, 1.1]
        for width in [1, 5, 16, 17] {
            let size = Size(width: width, height: 3)
            let img = RGBImage(size: size, pixels: (0..<(width * 9)).map { UInt8(truncatingIfNeeded: $0 * 97 + 13) })
            var expected = img
            for i in 0..<(width * 3) {
                let (r, g, b) = (Float(img.pixels[3 * i]), Float(img.pixels[3 * i + 1]), Float(img.pixels[3 * i + 2]))
                for c in 0..<3 {
                    let v = m[3 * c] * r + m[3 * c + 1] * g + m[3 * c + 2] * b + 12.5
                    expected.pixels[3 * i + c] = UInt8((min(255, max(0, v)) + 0.5).rounded(.towardZero))
                }
            }
            XCTAssertEqual(img.colorMapped(matrix: m, offset: 12.5), expected, "width \(width)")
            let sums = (0..<3).map { c in stride(from: c, to: img.pixels.count, by: 3).reduce(0) { $0 + Int(img.pixels[$1]) } }
            XCTAssertEqual([img.channelSums.0, img.channelSums.1, img.channelSums.2], sums, "width \(width)")
        }
    }

    func testResizeOfAConstantImageIsConstant() {
        let img = RGBImage(size: Size(width: 30, height: 50), fill: RGB(10, 200, 30))
        XCTAssertEqual(img.resized(to: Size(width: 7, height: 13)), RGBImage(size: Size(width: 7, height: 13), fill: RGB(10, 200, 30)))
    }

    func testTextDrawsInkInsideTheReturnedBox() throws {
        let font = try Font()
        var img = RGBImage(size: Size(width: 120, height: 40), fill: RGB(255, 255, 255))
        let box = try XCTUnwrap(img.draw(text: "Settings", x: 5, baseline: 25, font: font, pixelSize: 14, color: RGB(0, 0, 0)))
        XCTAssertGreaterThan(box.width, 40)
        XCTAssertGreaterThan(box.height, 8)
        XCTAssertLessThanOrEqual(box.yMax, 29)  // "Settings" has a descender (g) of a few pixels
        var inside = 0, outside = 0
        for y in 0..<img.height { for x in 0..<img.width where img.pixel(x: x, y: y) != RGB(255, 255, 255) {
            if box.contains(x: Double(x) + 0.5, y: Double(y) + 0.5) { inside += 1 } else { outside += 1 }
        } }
        XCTAssertGreaterThan(inside, 50)
        XCTAssertEqual(outside, 0)
        XCTAssertNil(img.draw(text: "   ", x: 5, baseline: 25, font: font, pixelSize: 14, color: RGB(0, 0, 0)))
    }
}

final class ImageLimitTests: XCTestCase {
    /// A few hundred bytes whose PNG header claims 100000 x 100000 pixels: refused before 30 GB are asked for.
    func testAPNGClaimingAHugeSizeIsRefusedBeforeAllocating() throws {
        let chunk = HandMadePNG.chunk
        let side = withUnsafeBytes(of: UInt32(100_000).bigEndian, Array.init)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", side + side + [8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        XCTAssertThrowsError(try ImageCodec.decode(Data(png), path: "huge.png")) { e in
            XCTAssertTrue("\(e)".contains("huge.png") && "\(e)".contains("100000 x 100000"), "\(e)")
        }
    }
}

/// Overlay boxes people can read: 2 px lines edged by a contrasting shade, tags inside the image.
final class AnnotateTests: XCTestCase {
    func testLinesAreTwoPixelsWithAContrastingEdgeOnLightAndDarkScreens() throws {
        let font = try Font()
        for (background, colour, edge) in [(RGB(255, 255, 255), RGB(255, 225, 25), RGB(0, 0, 0)),   // yellow on white: a black edge
                                           (RGB(0, 0, 0), RGB(0, 0, 117), RGB(255, 255, 255))] {      // navy on black: a white edge
            var image = RGBImage(size: Size(width: 120, height: 80), fill: background)
            image.annotate(Box(xMin: 20, yMin: 30, xMax: 100, yMax: 70), label: "x", color: colour, font: font, pixelSize: 9)
            // The left edge at row 50: edge pixel outside, two coloured pixels, edge pixel inside.
            let row = (18...23).map { image.pixel(x: $0, y: 50) }
            XCTAssertEqual(row[0], background)
            XCTAssertEqual(row[2], colour)
            XCTAssertEqual(row[3], colour)
            for p in [row[1], row[4]] {
                XCTAssertLessThan(abs(Int(p.r) - Int(edge.r)) + abs(Int(p.g) - Int(edge.g)) + abs(Int(p.b) - Int(edge.b)),
                                  abs(Int(p.r) - Int(colour.r)) + abs(Int(p.g) - Int(colour.g)) + abs(Int(p.b) - Int(colour.b)), "\(p) edges \(colour)")
            }
            XCTAssertEqual(row[5], background)
        }
    }

    func testTagsStayInsideTheImage() throws {
        let font = try Font()
        let tagColour = RGB(230, 25, 75)
        var image = RGBImage(size: Size(width: 100, height: 60), fill: RGB(255, 255, 255))
        // A box at the top-right corner with a label wider than the room right of its left edge.
        let label = "a long label 0.99"
        let width = font.width(of: label, pixelSize: 9) + 4
        XCTAssertGreaterThan(width, 30)
        image.annotate(Box(xMin: 70, yMin: 0, xMax: 100, yMax: 20), label: label, color: tagColour, font: font, pixelSize: 9)
        // The tag moved left to end at the right edge, at the top (no room above the box).
        let start = image.pixel(x: 100 - width, y: 11)
        XCTAssertTrue(abs(Int(start.r) - 230) < 6 && start.g < 60 && start.b < 100, "the tag starts \(width) px from the right edge: \(start)")
        XCTAssertEqual(image.pixel(x: 100 - width - 2, y: 11), RGB(255, 255, 255))
    }
}
