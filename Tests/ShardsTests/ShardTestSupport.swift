import Boxes
@preconcurrency import CHDF5
import Foundation
import Images
@testable import Shards
import XCTest

/// Screens with random pixels and a few boxes each, deterministic in `seed`.
func sampleRecords(count: Int, size: Size = Size(width: 16, height: 32), seed: UInt64 = 1) -> [ScreenRecord] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
    return (0..<count).map { i in
        let pixels = (0..<(size.width * size.height * 3)).map { _ in UInt8(truncatingIfNeeded: next()) }
        let boxCount = Int(next() % 4)
        let boxes = (0..<boxCount).map { _ -> Box in
            let x = Float(next() % UInt64(size.width - 4)), y = Float(next() % UInt64(size.height - 4))
            return Box(xMin: x, yMin: y, xMax: x + 1 + Float(next() % 3), yMax: y + 1 + Float(next() % 3))
        }
        return ScreenRecord(imageID: "scr-\(i)", groupID: "app-\(i % 3)", image: RGBImage(size: size, pixels: pixels),
                            boxes: boxes, labels: boxes.map { _ in Int32(next() % 13) }, originalSize: Size(width: 2 * size.width, height: 2 * size.height))
    }
}

/// Builds an HDF5 file dataset by dataset, valid or not, to make the malformed shards the reader must refuse.
struct RawShard {
    var format: String? = "screen-shard"
    var version: Int64? = 1
    var classNames: [String]? = defaultClassNames
    var images: (dims: [Int], bytes: [UInt8])? = ([2, 4, 2, 3], [UInt8](repeating: 7, count: 48))
    var offsets: [Int64]? = [0, 1, 2]
    var boxes: (dims: [Int], values: [Float])? = ([2, 4], [0, 0, 1, 1, 0, 1, 2, 3])
    var labels: [Int32]? = [0, 12]
    var imageIDs: [String]? = ["a", "b"]
    var groupIDs: [String]? = nil
    var floatImages = false
    /// Optional datasets written as given (the description ground truth, valid or not).
    var int32Datasets: [String: [Int32]] = [:]
    var int8Datasets: [String: [Int8]] = [:]
    var stringDatasets: [String: [String]] = [:]

    func write(to url: URL) throws -> URL {
        let f = try HDF5.createFile(url.path)
        if let format { try HDF5.writeStringAttribute(f, "format", [format], scalar: true) }
        if let version { try HDF5.writeIntAttribute(f, "version", version) }
        if let classNames { try HDF5.writeStringAttribute(f, "class_names", classNames, scalar: false) }
        if let images {
            if floatImages {
                try HDF5.write(f, "images", images.bytes.map(Float.init), dims: images.dims, fileType: H5T_IEEE_F32LE_g, memType: H5T_NATIVE_FLOAT_g)
            } else {
                try HDF5.write(f, "images", images.bytes, dims: images.dims, fileType: H5T_STD_U8LE_g, memType: H5T_NATIVE_UINT8_g)
            }
        }
        if let offsets { try HDF5.write(f, "box_offsets", offsets, dims: [offsets.count], fileType: H5T_STD_I64LE_g, memType: H5T_NATIVE_INT64_g) }
        if let boxes { try HDF5.write(f, "boxes", boxes.values, dims: boxes.dims, fileType: H5T_IEEE_F32LE_g, memType: H5T_NATIVE_FLOAT_g) }
        if let labels { try HDF5.write(f, "labels", labels, dims: [labels.count], fileType: H5T_STD_I32LE_g, memType: H5T_NATIVE_INT32_g) }
        if let imageIDs { try HDF5.writeStrings(f, "image_ids", imageIDs) }
        if let groupIDs { try HDF5.writeStrings(f, "group_ids", groupIDs) }
        for (name, v) in int32Datasets.sorted(by: { $0.key < $1.key }) {
            try HDF5.write(f, name, v, dims: [v.count], fileType: H5T_STD_I32LE_g, memType: H5T_NATIVE_INT32_g)
        }
        for (name, v) in int8Datasets.sorted(by: { $0.key < $1.key }) {
            try HDF5.write(f, name, v, dims: [v.count], fileType: H5T_STD_I8LE_g, memType: H5T_NATIVE_INT8_g)
        }
        for (name, v) in stringDatasets.sorted(by: { $0.key < $1.key }) { try HDF5.writeStrings(f, name, v) }
        return url
    }
}

/// The reader's error for `url`, or a failure if it opened.
func readError(_ url: URL, file: StaticString = #filePath, line: UInt = #line) -> ShardError? {
    do {
        let reader = try ShardReader(url: url)
        try reader.verifyImages()
        XCTFail("\(url.lastPathComponent) opened but should not have", file: file, line: line)
        return nil
    } catch let e as ShardError {
        return e
    } catch {
        XCTFail("not a ShardError: \(error)", file: file, line: line)
        return nil
    }
}
