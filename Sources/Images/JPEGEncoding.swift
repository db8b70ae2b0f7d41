import Boxes
import CTurboJPEG
import Foundation

extension ImageCodec {
    /// Encodes an image as a baseline JPEG of `quality` (1-100, 4:2:0 chroma as phones save screenshots).
    public static func encodeJPEG(_ img: RGBImage, quality: Int) throws -> Data {
        guard let handle = tjInitCompress() else { throw ImageError.encodeFailed(path: "<memory>", reason: "no JPEG encoder") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = img.pixels.withUnsafeBufferPointer { p in
            tjCompress2(handle, p.baseAddress, Int32(img.width), Int32(img.width * 3), Int32(img.height), Int32(TJPF_RGB.rawValue),
                        &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer else { throw ImageError.encodeFailed(path: "<memory>", reason: String(cString: tjGetErrorStr2(handle))) }
        return Data(bytes: buffer, count: Int(size))
    }
}
