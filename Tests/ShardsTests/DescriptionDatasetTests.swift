import Boxes
import Foundation
import Images
import Shards
import TestSupport
import XCTest

/// The optional ground truth of screen descriptions (screen-description.md, "Ground truth in shards"):
/// written when every screen has it, read and checked when present, ignored by nothing else.
final class DescriptionDatasetTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try scratchFolder(prefix: "uidetect-shards") }

    func url(_ name: String) -> URL { dir.appendingPathComponent(name) }

    /// `sampleRecords` with every description dataset filled in, values of every kind.
    func describedRecords(count: Int) -> [ScreenRecord] {
        sampleRecords(count: count).enumerated().map { i, r in
            var r = r
            let m = r.boxes.count
            r.groupIndex = (0..<m).map { Int32($0 < 2 ? 0 : -1) }
            r.navOrder = (0..<m).map { $0 == m - 1 && i == 1 ? -1 : Int32(max(0, $0 - 1)) }
            r.selected = (0..<m).map { Int8($0 % 3) - 1 }
            r.interactive = (0..<m).map { Int8(($0 + i) % 3) - 1 }
            r.texts = (0..<m).map { $0 % 2 == 0 ? "Réglages \(i)\nligne \($0) — été" : "" }
            r.groupKinds = (0..<m).map { $0 < 2 ? (i % 2 == 0 ? "tab_button" : "group") : "" }
            return r
        }
    }

    func testDescriptionDatasetsRoundTrip() throws {
        let records = describedRecords(count: 6)
        XCTAssertGreaterThan(records.map(\.boxes.count).reduce(0, +), 4)
        let reader = try ShardReader(url: writeShard(records, to: url("d.h5")))
        for i in records.indices { XCTAssertEqual(try reader.record(at: i), records[i]) }
        XCTAssertEqual(reader.texts, records.flatMap { $0.texts! })
        XCTAssertEqual(reader.selected, records.flatMap { $0.selected! })
    }

    func testShardsWithoutThemStillRead() throws {
        for name in ["h5py_shard.h5", "h5py_fixed_ascii.h5"] {
            let reader = try ShardReader(url: Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(name))
            XCTAssertNil(reader.groupIndex)
            XCTAssertNil(reader.texts)
            let r = try reader.record(at: 0)
            XCTAssertNil(r.navOrder)
            XCTAssertNil(r.groupKinds)
        }
    }

    func testADatasetIsWrittenOnlyWhenEveryScreenHasIt() throws {
        var records = describedRecords(count: 3)
        records[1].texts = nil
        records[2].selected = nil
        let reader = try ShardReader(url: writeShard(records, to: url("m.h5")))
        XCTAssertNil(reader.texts)
        XCTAssertNil(reader.selected)
        XCTAssertEqual(reader.groupIndex, records.flatMap { $0.groupIndex! })
        XCTAssertEqual(reader.interactive, records.flatMap { $0.interactive! })
    }

    func testTheWriterRefusesBadValues() throws {
        let good = try XCTUnwrap(describedRecords(count: 8).first { $0.boxes.count >= 2 })
        var cases: [(String, ScreenRecord)] = []
        var r = good; r.selected![0] = 2; cases.append(("selected", r))
        r = good; r.interactive![0] = -2; cases.append(("interactive", r))
        r = good; r.navOrder![0] = -5; cases.append(("nav_order", r))
        r = good; r.groupKinds![0] = "row"; cases.append(("group_kinds", r))
        r = good; r.texts = []; cases.append(("texts", r))
        for (name, record) in cases {
            let writer = try ShardWriter(url: url("\(name).h5"), classNames: defaultClassNames, imageSize: Size(width: 16, height: 32))
            XCTAssertThrowsError(try writer.append(record), name) { error in
                guard case .invalidValue(_, let dataset, _, _)? = error as? ShardError else { return XCTFail("\(error)") }
                XCTAssertEqual(dataset, name)
            }
        }
    }

    func testTheReaderRefusesBadValuesNamingFileAndDataset() throws {
        let cases: [(String, RawShard, ShardError)] = [
            ("len", RawShard(int32Datasets: ["nav_order": [0, 1, 2]]),
             .wrongShape(path: url("len.h5").path, dataset: "nav_order", found: [3], expected: "(2,) to match boxes")),
            ("sel", RawShard(int8Datasets: ["selected": [1, 3]]),
             .invalidValue(path: url("sel.h5").path, dataset: "selected", index: 1, reason: "3 is not -1, 0 or 1")),
            ("grp", RawShard(int32Datasets: ["group_index": [-7, 0]]),
             .invalidValue(path: url("grp.h5").path, dataset: "group_index", index: 0, reason: "-7 is below -1 (-1 means no group)")),
            ("kind", RawShard(stringDatasets: ["group_kinds": ["", "row"]]),
             .invalidValue(path: url("kind.h5").path, dataset: "group_kinds", index: 1, reason: "\"row\" is not tab_button, group or empty")),
            ("pair", RawShard(int32Datasets: ["group_index": [0, -1]], stringDatasets: ["group_kinds": ["group", "group"]]),
             .invalidValue(path: url("pair.h5").path, dataset: "group_kinds", index: 1, reason: "\"group\" names the group of a box without one (group_index -1)")),
            ("type", RawShard(stringDatasets: ["interactive": ["1", "0"]]),
             .wrongType(path: url("type.h5").path, dataset: "interactive", found: "strings", expected: "integers")),
        ]
        for (name, raw, expected) in cases {
            XCTAssertEqual(readError(try raw.write(to: url("\(name).h5"))), expected, name)
        }
    }

    func testH5pyReadsTheNewDatasets() throws {
        try requirePython(["h5py", "numpy"])
        let records = describedRecords(count: 3)
        let shard = try writeShard(records, to: url("py.h5"))
        let script = """
        import json, sys, h5py
        f = h5py.File(sys.argv[1], "r")
        out = {k: [int(x) for x in f[k][()]] for k in ["group_index", "nav_order", "selected", "interactive"]}
        out.update({k: [x.decode("utf-8") for x in f[k][()]] for k in ["texts", "group_kinds"]})
        out["dtypes"] = {k: str(f[k].dtype) for k in ["group_index", "selected"]}
        print(json.dumps(out))
        """
        let python = try runProgram(["python3", "-c", script, shard.path])
        XCTAssertEqual(python.status, 0, python.output)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["group_index"] as? [Int], records.flatMap { $0.groupIndex!.map(Int.init) })
        XCTAssertEqual(object["nav_order"] as? [Int], records.flatMap { $0.navOrder!.map(Int.init) })
        XCTAssertEqual(object["selected"] as? [Int], records.flatMap { $0.selected!.map(Int.init) })
        XCTAssertEqual(object["interactive"] as? [Int], records.flatMap { $0.interactive!.map(Int.init) })
        XCTAssertEqual(object["texts"] as? [String], records.flatMap { $0.texts! })
        XCTAssertEqual(object["group_kinds"] as? [String], records.flatMap { $0.groupKinds! })
        XCTAssertEqual(object["dtypes"] as? [String: String], ["group_index": "int32", "selected": "int8"])
    }
}
