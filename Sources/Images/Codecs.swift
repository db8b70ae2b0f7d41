import Boxes
import CPNG
import CTurboJPEG
import Foundation
import PNGDecoding

/// Why an image file could not be read or written.
public enum ImageError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case unknownFormat(path: String)
    case decodeFailed(path: String, format: String, reason: String)
    case encodeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read the file (\(reason))"
        case .unknownFormat(let path): return "\(path): not a PNG or JPEG image (unrecognised first bytes)"
        case .decodeFailed(let path, let format, let reason): return "\(path): broken \(format) image: \(reason)"
        case .encodeFailed(let path, let reason): return "\(path): cannot write the PNG: \(reason)"
        }
    }
}

/// Reading PNG and JPEG files and writing PNG files.
public enum ImageCodec {
    /// Decodes a PNG or JPEG file, chosen by its first bytes; `path` names it in errors.
    /// `strict` refuses a JPEG the decoder could only partly read (e.g. truncated), which
    /// otherwise comes back with its missing part grey.
    public static func decode(_ data: Data, path: String, strict: Bool = false) throws -> RGBImage {
        let bytes = [UInt8](data.prefix(8))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(data, path: path) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try decodeJPEG(data, path: path, strict: strict) }
        throw ImageError.unknownFormat(path: path)
    }

    /// Reads and decodes an image file.
    public static func read(_ url: URL, strict: Bool = false) throws -> RGBImage {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ImageError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        return try decode(data, path: url.path, strict: strict)
    }

    /// PNG as an image viewer shows it: samples as stored (no gamma or colour management), 16 bits
    /// rounded to 8, palette, gray and tRNS expanded, and alpha composited onto white, since a
    /// screenshot is seen on an opaque screen. libpng's simplified API would treat 16-bit files as
    /// linear light and composite onto black; its full API jumps on errors, so `PNGDecoding` (C)
    /// catches the jump and returns a message. The header's size is checked before any pixel is allocated.
    static func decodePNG(_ data: Data, path: String) throws -> RGBImage {
        var message = [CChar](repeating: 0, count: 256)
        func failure(_ text: UnsafePointer<CChar>) -> ImageError {
            .decodeFailed(path: path, format: "PNG", reason: String(cString: text))
        }
        var width: UInt32 = 0, height: UInt32 = 0
        let headerProblem = data.withUnsafeBytes { bytes in
            uidetect_png_size(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &width, &height, &message, message.count)
        }
        if let headerProblem { throw failure(headerProblem) }
        let size = Size(width: Int(width), height: Int(height))
        if let problem = ImageLimits.problem(size) { throw ImageError.decodeFailed(path: path, format: "PNG", reason: problem) }
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let decodeProblem = data.withUnsafeBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { rgb in
                uidetect_png_decode(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, rgb.baseAddress, width, height, &message, message.count)
            }
        }
        if let decodeProblem { throw failure(decodeProblem) }
        return RGBImage(size: size, pixels: pixels)
    }

    private static func pngMessage(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// JPEG with the TurboJPEG API, which reports errors instead of jumping.
    static func decodeJPEG(_ data: Data, path: String, strict: Bool = false) throws -> RGBImage {
        guard let handle = tjInitDecompress() else { throw ImageError.decodeFailed(path: path, format: "JPEG", reason: "no decoder") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBytes {
            tjDecompressHeader3(handle, $0.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
        }
        if header == 0, let problem = ImageLimits.problem(Size(width: Int(width), height: Int(height))) {
            throw ImageError.decodeFailed(path: path, format: "JPEG", reason: problem)
        }
        guard header == 0, width > 0, height > 0 else {
            throw ImageError.decodeFailed(path: path, format: "JPEG", reason: String(cString: tjGetErrorStr2(handle)))
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        let status = data.withUnsafeBytes { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, src.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), dst.baseAddress,
                              width, width * 3, height, Int32(TJPF_RGB.rawValue), 0)
            }
        }
        // A warning (e.g. premature end of data) still yields a usable image only if not fatal.
        if status != 0 && (strict || tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue)) {
            throw ImageError.decodeFailed(path: path, format: "JPEG", reason: String(cString: tjGetErrorStr2(handle)))
        }
        return RGBImage(size: Size(width: Int(width), height: Int(height)), pixels: pixels)
    }

    /// Encodes an image as PNG.
    public static func encodePNG(_ img: RGBImage, path: String = "<memory>") throws -> Data {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(img.width)
        image.height = UInt32(img.height)
        image.format = UInt32(PNG_FORMAT_RGB)
        var size: Int = 0
        let probe = img.pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(img.width * 3), nil) }
        guard probe != 0, size > 0 else { throw ImageError.encodeFailed(path: path, reason: pngMessage(&image)) }
        var out = Data(count: size)
        let ok = out.withUnsafeMutableBytes { dst in
            img.pixels.withUnsafeBytes { png_image_write_to_memory(&image, dst.baseAddress, &size, 0, $0.baseAddress, Int32(img.width * 3), nil) }
        }
        guard ok != 0 else { throw ImageError.encodeFailed(path: path, reason: pngMessage(&image)) }
        return out.prefix(size)
    }

    /// Writes a PNG atomically (temporary file, then rename).
    public static func writePNG(_ img: RGBImage, to url: URL) throws {
        let data = try encodePNG(img, path: url.path)
        do { try data.write(to: url, options: .atomic) } catch {
            throw ImageError.encodeFailed(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}

/// The largest screenshot read: its header's claimed size is checked before any pixel is
/// allocated (a 661-byte PNG may claim 100000 x 100000 pixels: 30 GB).
public enum ImageLimits {
    /// Longest side accepted (tablets at 3x are under 8,000 pixels).
    public static let maximumSide = 16_384
    /// Most pixels accepted (64 megapixels, 192 MB of RGB).
    public static let maximumPixels = 1 << 26

    /// Why an image of `size` is refused, if it is.
    public static func problem(_ size: Size) -> String? {
        guard size.width > 0, size.height > 0 else { return "its header claims \(size.width) x \(size.height) pixels" }
        if size.width > maximumSide || size.height > maximumSide || size.width * size.height > maximumPixels {
            return "its header claims \(size.width) x \(size.height) pixels, more than the \(maximumSide) x \(maximumSide) and \(maximumPixels / 1_000_000) megapixels read (ImageLimits)"
        }
        return nil
    }
}
