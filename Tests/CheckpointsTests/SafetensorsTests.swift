import Checkpoints
import Foundation
import TestSupport
import XCTest

final class SafetensorsTests: XCTestCase {
    let tensors = [NamedTensor(name: "backbone.stem.conv.weight", shape: [3, 3, 3, 2], values: (0..<54).map { Float($0) * 0.25 - 3 }),
                   NamedTensor(name: "head.bias", shape: [3], values: [-4.59512, 0, 1e-30]),
                   NamedTensor(name: "scalar", shape: [], values: [7])]

    func testRoundTripKeepsNamesShapesValuesAndMetadata() throws {
        let url = try scratchFolder(prefix: "uidetect-safetensors").appendingPathComponent("w.safetensors")
        try Safetensors.write(tensors, metadata: ["layout": "NHWC, HWIO"], to: url)
        let (back, meta) = try Safetensors.read(url)
        XCTAssertEqual(back, tensors)
        XCTAssertEqual(meta, ["layout": "NHWC, HWIO"])
        let data = try Data(contentsOf: url)
        let headerLength = data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        XCTAssertEqual((8 + Int(headerLength)) % 8, 0, "data starts 8-byte aligned")
    }

    func testPythonSafetensorsReadsOurFile() throws {
        let url = try scratchFolder(prefix: "uidetect-safetensors").appendingPathComponent("w.safetensors")
        try Safetensors.write(tensors, metadata: ["layout": "NHWC, HWIO"], to: url)
        try requirePython(["safetensors", "numpy"])
        let script = """
        import json, sys
        from safetensors.numpy import load_file
        from safetensors import safe_open
        t = load_file(sys.argv[1])
        with safe_open(sys.argv[1], "np") as f: meta = f.metadata()
        print(json.dumps({"meta": meta, "tensors": {k: {"shape": list(v.shape), "dtype": str(v.dtype), "values": [float(x) for x in v.reshape(-1)]} for k, v in t.items()}}))
        """
        let python = try runProgram(["python3", "-c", script, url.path])
        XCTAssertEqual(python.status, 0, python.output)
        let object = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["meta"] as? [String: String], ["layout": "NHWC, HWIO"])
        let read = object["tensors"] as! [String: [String: Any]]
        for t in tensors {
            let r = try XCTUnwrap(read[t.name], t.name)
            XCTAssertEqual(r["shape"] as? [Int], t.shape)
            XCTAssertEqual(r["dtype"] as? String, "float32")
            XCTAssertEqual((r["values"] as! [Double]).map(Float.init), t.values, t.name)
        }
    }

    func testDamagedFilesAreRefusedNamingTheField() throws {
        let dir = try scratchFolder(prefix: "uidetect-safetensors")
        let good = try Safetensors.encode(tensors)
        let cut = dir.appendingPathComponent("cut.safetensors")
        try good.prefix(good.count - 10).write(to: cut)
        XCTAssertThrowsError(try Safetensors.read(cut)) { XCTAssertTrue(($0 as? SafetensorsError)?.problem.contains("truncated") ?? false, "\($0)") }
        try good.prefix(5).write(to: cut)
        XCTAssertThrowsError(try Safetensors.read(cut)) { XCTAssertEqual(($0 as? SafetensorsError)?.field, "header") }
        // A header that lies about a tensor's size.
        let header = #"{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#
        var bad = Data()
        var n = UInt64(header.utf8.count).littleEndian
        withUnsafeBytes(of: &n) { bad.append(contentsOf: $0) }
        bad.append(Data(header.utf8)); bad.append(Data(count: 8))
        let lie = dir.appendingPathComponent("lie.safetensors")
        try bad.write(to: lie)
        XCTAssertThrowsError(try Safetensors.read(lie)) { XCTAssertEqual(($0 as? SafetensorsError)?.field, "w") }
    }
}

final class HostileSafetensorsTests: XCTestCase {
    /// A header whose shape multiplies past Int.max (2^62 rows of 8 floats) is refused, not trapped on.
    func testAShapeThatOverflowsIsRefused() throws {
        let url = try scratchFolder(prefix: "uidetect-safetensors").appendingPathComponent("overflow.safetensors")
        var header = Array(#"{"w":{"dtype":"F32","shape":[4611686018427387904,8],"data_offsets":[0,16]}}"#.utf8)
        while header.count % 8 != 0 { header.append(0x20) }
        var data = withUnsafeBytes(of: UInt64(header.count).littleEndian) { Data($0) }
        data.append(contentsOf: header)
        data.append(Data(count: 16))
        try data.write(to: url)
        XCTAssertThrowsError(try Safetensors.read(url)) { e in
            XCTAssertTrue("\(e)".contains("w") && "\(e)".contains("larger than"), "\(e)")
        }
    }
}
