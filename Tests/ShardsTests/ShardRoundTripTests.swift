import Boxes
import Foundation
import Images
import Shards
import TestSupport
import XCTest

final class ShardRoundTripTests: XCTestCase {
    let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    func testWriteThenReadGivesTheSameScreens() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let records = sampleRecords(count: 5)
        let url = try writeShard(records, to: dir.appendingPathComponent("a.h5"))
        let reader = try ShardReader(url: url)
        XCTAssertEqual(reader.count, 5)
        XCTAssertEqual(reader.classNames, defaultClassNames)
        XCTAssertEqual(reader.imageSize, Size(width: 16, height: 32))
        for i in 0..<5 { XCTAssertEqual(try reader.record(at: i), records[i]) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent(".a.h5.partial-\(getpid())").path))
    }

    func testFinishReplacesAnExistingShardWhole() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let url = dir.appendingPathComponent("a.h5")
        _ = try writeShard(sampleRecords(count: 2, seed: 1), to: url)
        let second = sampleRecords(count: 3, seed: 2)
        _ = try writeShard(second, to: url)
        let reader = try ShardReader(url: url)
        XCTAssertEqual(reader.count, 3)
        for i in 0..<3 { XCTAssertEqual(try reader.record(at: i), second[i]) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.h5"])
    }

    func testSameInputGivesSameBytes() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let a = try Data(contentsOf: writeShard(sampleRecords(count: 3), to: dir.appendingPathComponent("a.h5")))
        Thread.sleep(forTimeInterval: 1.1)  // a second later: timestamps, if any were written, would differ
        let b = try Data(contentsOf: writeShard(sampleRecords(count: 3), to: dir.appendingPathComponent("b.h5")))
        XCTAssertEqual(a, b)
    }

    func testReadsAShardWrittenByH5py() throws {
        let reader = try ShardReader(url: fixtures.appendingPathComponent("h5py_shard.h5"))
        let pixels = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("h5py_images.bin")))
        XCTAssertEqual(reader.count, 3)
        XCTAssertEqual(reader.classNames, defaultClassNames)
        XCTAssertEqual(reader.imageIDs, ["scr-0001", "scr-0002", "écran-3"])
        XCTAssertEqual(reader.groupIDs, ["app-a", "app-a", "app-b"])
        XCTAssertEqual(reader.originalSizes, [Size(width: 160, height: 320), Size(width: 16, height: 32), Size(width: 48, height: 96)])
        XCTAssertEqual(reader.boxRange(1), 2..<2)
        let last = try reader.record(at: 2)
        XCTAssertEqual(last.boxes, [Box(xMin: 2, yMin: 2, xMax: 4, yMax: 4), Box(xMin: 3, yMin: 10, xMax: 9, yMax: 20), Box(xMin: 0, yMin: 0, xMax: 16, yMax: 32)])
        XCTAssertEqual(last.labels, [12, 2, 6])
        XCTAssertEqual(try reader.record(at: 0).boxes[1], Box(xMin: 0.5, yMin: 3.25, xMax: 15, yMax: 30))
        for i in 0..<3 { XCTAssertEqual(try reader.image(at: i).pixels, Array(pixels[(i * 1536)..<((i + 1) * 1536)])) }
    }

    func testReadsFixedLengthASCIIStringsAndOtherNumericTypes() throws {
        let reader = try ShardReader(url: fixtures.appendingPathComponent("h5py_fixed_ascii.h5"))
        XCTAssertEqual(reader.classNames, defaultClassNames)
        XCTAssertEqual(reader.imageIDs, ["a", "bb", "ccc"])
        XCTAssertEqual(reader.groupIDs, reader.imageIDs, "missing group_ids: each screen is its own group")
        XCTAssertEqual(reader.labels, [9, 4, 12, 2, 6])
        XCTAssertEqual(reader.boxes[1], Box(xMin: 0.5, yMin: 3.25, xMax: 15, yMax: 30))
        XCTAssertNil(reader.originalSizes)
    }

    func testH5dumpReadsOurShard() throws {
        guard let h5dump = ["/usr/bin/h5dump", "/usr/local/bin/h5dump"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("h5dump not installed (scripts/setup.sh installs hdf5-tools)")
        }
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let url = try writeShard(sampleRecords(count: 2), to: dir.appendingPathComponent("ours.h5"))
        func dump(_ args: [String]) throws -> String {
            let run = try runProgram(URL(fileURLWithPath: h5dump), args + [url.path])
            XCTAssertEqual(run.status, 0, "h5dump \(args) failed: \(run.stderr)")
            return run.stdout
        }
        let header = try dump(["-H"])
        for name in ["images", "box_offsets", "boxes", "labels", "image_ids", "group_ids", "original_sizes"] {
            XCTAssertTrue(header.contains("DATASET \"\(name)\""), "h5dump does not list \(name)")
        }
        XCTAssertTrue(header.contains("DATASPACE  SIMPLE { ( 2, 32, 16, 3 ) / ( H5S_UNLIMITED, 32, 16, 3 ) }"), header)
        XCTAssertTrue(header.contains("CSET H5T_CSET_UTF8"))
        let format = try dump(["-a", "/format"])
        XCTAssertTrue(format.contains("\"screen-shard\""), format)
        let ids = try dump(["-d", "/image_ids"])
        XCTAssertTrue(ids.contains("\"scr-0\", \"scr-1\""), ids)
        let records = sampleRecords(count: 2)
        let labels = try dump(["-d", "/labels", "-y", "-w", "0"])
        let expected = (records[0].labels + records[1].labels).map(String.init).joined(separator: ", ")
        XCTAssertTrue(labels.contains(expected), "labels: \(labels) expected \(expected)")
    }
}
