import Foundation
import FuzzDriver
import Images

// PNG and JPEG bytes as every image is read (screenshots, imports, shards' stored images), both
// leniently (a partly readable JPEG comes back grey where it broke) and strictly.
fuzz { data in
    for strict in [false, true] {
        guard let image = try? ImageCodec.decode(data, path: "fuzz", strict: strict) else { continue }
        precondition(image.width > 0 && image.height > 0, "decoded an empty image")
        precondition(image.pixels.count == image.width * image.height * 3, "\(image.pixels.count) values for \(image.width)x\(image.height)")
    }
}
