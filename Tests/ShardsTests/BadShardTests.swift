import Foundation
import Shards
import TestSupport
import XCTest

/// Every malformed case of shard-format.md ("Bad shards"), each refused with the file, the dataset and the fault.
final class BadShardTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try scratchFolder(prefix: "uidetect-shards") }

    func url(_ name: String) -> URL { dir.appendingPathComponent(name) }

    /// A shard of no screens is valid and reads as empty (it used to trap on the offsets check).
    func testAShardOfNoScreensReadsAsEmpty() throws {
        let reader = try ShardReader(url: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/zero_screens.h5"))
        XCTAssertEqual(reader.count, 0)
        XCTAssertEqual(reader.boxes, [])
    }

    /// A few KB that declare 2^36 boxes or a 100000 x 100000 screen are refused before anything of that size is allocated.
    func testDeclaredSizesBeyondTheLimitsAreRefusedBeforeAllocating() throws {
        let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
        guard case .invalidValue(let path, "boxes", _, let reason)? = readError(fixtures.appendingPathComponent("declared_boxes.h5")) else {
            return XCTFail("declared_boxes.h5: not refused on its boxes")
        }
        XCTAssertTrue(path.hasSuffix("declared_boxes.h5"))
        XCTAssertTrue(reason.contains("68719476736 boxes") && reason.contains("ShardLimits"), reason)
        guard case .invalidValue(_, "images", _, let why)? = readError(fixtures.appendingPathComponent("declared_pixels.h5")) else {
            return XCTFail("declared_pixels.h5: not refused on its images")
        }
        XCTAssertTrue(why.contains("100000 x 100000"), why)
    }

    func testTheValidRawShardOpens() throws {
        XCTAssertEqual(try ShardReader(url: RawShard().write(to: url("ok.h5"))).count, 2)
    }

    func testWrongFormat() throws {
        let e = readError(try RawShard(format: "image-shard").write(to: url("f.h5")))
        XCTAssertEqual(e, .wrongFormat(path: url("f.h5").path, attribute: "format", found: "'image-shard'", expected: "'screen-shard'"))
    }

    func testWrongVersion() throws {
        let e = readError(try RawShard(version: 2).write(to: url("v.h5")))
        XCTAssertEqual(e, .wrongFormat(path: url("v.h5").path, attribute: "version", found: "2", expected: "1"))
    }

    func testMissingAttributes() throws {
        XCTAssertEqual(readError(try RawShard(format: nil).write(to: url("a.h5"))), .missing(path: url("a.h5").path, name: "attribute format"))
        XCTAssertEqual(readError(try RawShard(classNames: nil).write(to: url("c.h5"))), .missing(path: url("c.h5").path, name: "attribute class_names"))
    }

    func testEachMissingRequiredDataset() throws {
        let cases: [(String, RawShard)] = [
            ("images", RawShard(images: nil)), ("box_offsets", RawShard(offsets: nil)), ("boxes", RawShard(boxes: nil)),
            ("labels", RawShard(labels: nil)), ("image_ids", RawShard(imageIDs: nil)),
        ]
        for (name, raw) in cases {
            XCTAssertEqual(readError(try raw.write(to: url("\(name).h5"))), .missing(path: url("\(name).h5").path, name: "dataset \(name)"))
        }
    }

    func testShapesThatDisagree() throws {
        let cases: [(String, RawShard)] = [
            ("images", RawShard(images: ([3, 4, 2, 3], [UInt8](repeating: 0, count: 72)))),   // 3 images, 2 ids
            ("images", RawShard(images: ([2, 4, 2, 4], [UInt8](repeating: 0, count: 64)))),   // 4 channels
            ("box_offsets", RawShard(offsets: [0, 2])),
            ("boxes", RawShard(boxes: ([2, 3], [0, 0, 1, 0, 1, 2]))),
            ("labels", RawShard(labels: [0, 1, 2])),
            ("image_ids", RawShard(imageIDs: ["a", "b", "c"])),   // 3 ids vs 2 images
            ("group_ids", RawShard(groupIDs: ["g"])),
        ]
        for (i, (dataset, raw)) in cases.enumerated() {
            let u = try raw.write(to: url("s\(i).h5"))
            guard case .wrongShape(let path, let ds, _, _)? = readError(u) else { XCTFail("case \(i): not a shape error"); continue }
            XCTAssertEqual(path, u.path)
            XCTAssertTrue(ds == dataset || (dataset == "image_ids" && ds == "images"), "case \(i): named \(ds), expected \(dataset)")
        }
    }

    func testOffsetsNotMonotoneOrNotEndingAtM() throws {
        var raw = RawShard(offsets: [0, 2, 1])
        raw.boxes = ([2, 4], [0, 0, 1, 1, 0, 1, 2, 3])
        guard case .invalidValue(_, "box_offsets", 2, _)? = readError(try raw.write(to: url("m.h5"))) else { return XCTFail("decreasing offsets") }
        guard case .invalidValue(_, "box_offsets", 2, let why)? = readError(try RawShard(offsets: [0, 1, 3]).write(to: url("x.h5"))) else {
            return XCTFail("offsets beyond M")
        }
        XCTAssertTrue(why.contains("2 boxes"), why)
        guard case .invalidValue(_, "box_offsets", 0, _)? = readError(try RawShard(offsets: [1, 1, 2]).write(to: url("z.h5"))) else {
            return XCTFail("first offset not 0")
        }
    }

    func testLabelOutsideTheVocabulary() throws {
        guard case .invalidValue(let path, "labels", 1, let why)? = readError(try RawShard(labels: [0, 13]).write(to: url("l.h5"))) else {
            return XCTFail("label 13 of 13 classes")
        }
        XCTAssertEqual(path, url("l.h5").path)
        XCTAssertTrue(why.contains("13"), why)
        guard case .invalidValue(_, "labels", 0, _)? = readError(try RawShard(labels: [-1, 0]).write(to: url("n.h5"))) else { return XCTFail("negative label") }
    }

    func testBoxNotFiniteOrWithoutArea() throws {
        guard case .invalidValue(_, "boxes", 1, let why)? = readError(try RawShard(boxes: ([2, 4], [0, 0, 1, 1, 0, .nan, 2, 3])).write(to: url("nan.h5"))) else {
            return XCTFail("NaN box")
        }
        XCTAssertTrue(why.contains("not finite"), why)
        guard case .invalidValue(_, "boxes", 0, let why2)? = readError(try RawShard(boxes: ([2, 4], [5, 0, 5, 1, 0, 1, 2, 3])).write(to: url("flat.h5"))) else {
            return XCTFail("zero-width box")
        }
        XCTAssertTrue(why2.contains("no area"), why2)
        guard case .invalidValue(_, "boxes", 1, _)? = readError(try RawShard(boxes: ([2, 4], [0, 0, 1, 1, 0, 3, 2, 1])).write(to: url("inv.h5"))) else {
            return XCTFail("y_max < y_min")
        }
    }

    func testWrongElementTypesAndDuplicateIDs() throws {
        var raw = RawShard()
        raw.floatImages = true
        guard case .wrongType(_, "images", _, "uint8")? = readError(try raw.write(to: url("t.h5"))) else { return XCTFail("float images") }
        guard case .invalidValue(_, "image_ids", 1, _)? = readError(try RawShard(imageIDs: ["a", "a"]).write(to: url("d.h5"))) else {
            return XCTFail("duplicate ids")
        }
    }

    func testMissingFileAndNonHDF5File() throws {
        guard case .unreadableFile(_, let why)? = readError(url("nothing.h5")) else { return XCTFail("missing file") }
        XCTAssertTrue(why.contains("no such file"))
        try Data("not hdf5 at all".utf8).write(to: url("text.h5"))
        guard case .unreadableFile(let path, _)? = readError(url("text.h5")) else { return XCTFail("text file") }
        XCTAssertEqual(path, url("text.h5").path)
    }

    func testTruncatedRealShardsAreRefused() throws {
        let whole = try Data(contentsOf: writeShard(sampleRecords(count: 4), to: url("whole.h5")))
        for fraction in [0.02, 0.3, 0.6, 0.9, 0.99] {
            let cut = url("cut-\(fraction).h5")
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: cut)
            XCTAssertNotNil(readError(cut), "cut at \(fraction)")
        }
    }

    func testFlippedBytesAreRefusedOrHarmless() throws {
        let records = sampleRecords(count: 4)
        let whole = try Data(contentsOf: writeShard(records, to: url("whole.h5")))
        var state: UInt64 = 0x2545_F491_4F6C_DD1D  // fixed positions: the same flips on every run
        var refused = 0
        for trial in 0..<60 {
            var damaged = whole
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let position = trial < 30 ? Int(state >> 33) % whole.count : (whole.count / 30) * (trial - 30)
            damaged[position] ^= 0xFF
            let u = url("flip-\(trial).h5")
            try damaged.write(to: u)
            do {
                let reader = try ShardReader(url: u)
                // Whatever opens must read back exactly what was written: never silent garbage.
                for i in 0..<reader.count {
                    let record = try reader.record(at: i)
                    XCTAssertEqual(record, records[i], "flip at \(position) changed screen \(i)")
                }
            } catch is ShardError {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 10, "most flips land in checksummed metadata or pixels and must be caught")
    }
}
