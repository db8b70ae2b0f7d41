import Foundation
import Outputs

/// A named float32 tensor: shape and row-major values.
public struct NamedTensor: Equatable, Sendable {
    public var name: String
    public var shape: [Int]
    public var values: [Float]
    public init(name: String, shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "\(name): \(values.count) values for shape \(shape)")
        self.name = name
        self.shape = shape
        self.values = values
    }
}

/// Why a safetensors file could not be read or written, naming the file and the tensor or field.
public struct SafetensorsError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let field: String
    public let problem: String
    public var description: String { "\(path): \(field): \(problem)" }
}

/// The safetensors format (as Python's `safetensors` package reads it): an 8-byte
/// little-endian header length, a JSON header mapping each name to its dtype,
/// shape and byte range, an optional `__metadata__` of strings, then the raw
/// little-endian data. Only F32 is written and read.
public enum Safetensors {
    /// Encodes tensors (in the given order) with string metadata.
    public static func encode(_ tensors: [NamedTensor], metadata: [String: String] = [:]) throws -> Data {
        var header: [String: Any] = [:]
        if !metadata.isEmpty { header["__metadata__"] = metadata }
        var offset = 0
        for t in tensors {
            guard header[t.name] == nil, t.name != "__metadata__" else {
                throw SafetensorsError(path: "<memory>", field: t.name, problem: "duplicate or reserved tensor name")
            }
            let bytes = t.values.count * 4
            header[t.name] = ["dtype": "F32", "shape": t.shape, "data_offsets": [offset, offset + bytes]] as [String: Any]
            offset += bytes
        }
        var json = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        // Pad the header with spaces so that the data starts 8-byte aligned.
        while json.count % 8 != 0 { json.append(0x20) }
        var out = Data(capacity: 8 + json.count + offset)
        var length = UInt64(json.count).littleEndian
        withUnsafeBytes(of: &length) { out.append(contentsOf: $0) }
        out.append(json)
        for t in tensors {
            t.values.withUnsafeBufferPointer { p in
                // Little-endian floats: what this machine holds in memory.
                out.append(UnsafeBufferPointer(start: UnsafeRawPointer(p.baseAddress!).assumingMemoryBound(to: UInt8.self), count: p.count * 4))
            }
        }
        return out
    }

    /// Writes atomically: a temporary file in the same folder, then a rename.
    public static func write(_ tensors: [NamedTensor], metadata: [String: String] = [:], to url: URL) throws {
        let data = try encode(tensors, metadata: metadata)
        do { try data.write(to: url, options: .atomic) } catch {
            throw SafetensorsError(path: url.path, field: "file", problem: "cannot write (\(FileProblem.reason(error)))")
        }
    }

    /// Reads the metadata only (the header, not the tensors): what a checkpoint says about itself.
    public static func metadata(_ url: URL) throws -> [String: String] {
        func fail(_ field: String, _ problem: String) -> SafetensorsError { SafetensorsError(path: url.path, field: field, problem: problem) }
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw fail("file", "cannot read the file") }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 8), prefix.count == 8 else {
            throw fail("header", "the file is shorter than its 8-byte header length (truncated?)")
        }
        let length = prefix.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian
        // A header is a few kilobytes; a huge length is a damaged file, not a reason to allocate.
        guard length <= 100_000_000, let headerData = try? handle.read(upToCount: Int(length)), headerData.count == Int(length) else {
            throw fail("header", "header length \(length) runs past the end of the file (truncated?)")
        }
        guard let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any] else { throw fail("header", "not a JSON object") }
        guard let m = header["__metadata__"] else { return [:] }
        guard let dict = m as? [String: String] else { throw fail("__metadata__", "must map strings to strings") }
        return dict
    }

    /// Reads every tensor and the metadata, checking the header against the file.
    public static func read(_ url: URL) throws -> (tensors: [NamedTensor], metadata: [String: String]) {
        guard let data = try? Data(contentsOf: url) else { throw SafetensorsError(path: url.path, field: "file", problem: "cannot read the file") }
        return try decode(data, path: url.path)
    }

    /// Every tensor and the metadata of a file's bytes; `path` names the file in errors.
    public static func decode(_ data: Data, path: String) throws -> (tensors: [NamedTensor], metadata: [String: String]) {
        func fail(_ field: String, _ problem: String) -> SafetensorsError { SafetensorsError(path: path, field: field, problem: problem) }
        guard data.count >= 8 else { throw fail("header", "the file is shorter than its 8-byte header length (truncated?)") }
        let length = data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian
        guard length <= UInt64(data.count - 8) else { throw fail("header", "header length \(length) runs past the end of the file (truncated?)") }
        let headerData = data.subdata(in: 8..<(8 + Int(length)))
        guard let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any] else { throw fail("header", "not a JSON object") }
        let dataStart = 8 + Int(length)
        let dataCount = data.count - dataStart
        var metadata: [String: String] = [:]
        if let m = header["__metadata__"] {
            guard let dict = m as? [String: String] else { throw fail("__metadata__", "must map strings to strings") }
            metadata = dict
        }
        var entries: [(name: String, shape: [Int], begin: Int, end: Int)] = []
        for (name, value) in header where name != "__metadata__" {
            guard let info = value as? [String: Any] else { throw fail(name, "not an object") }
            guard let dtype = info["dtype"] as? String else { throw fail(name, "missing dtype") }
            guard dtype == "F32" else { throw fail(name, "dtype \(dtype) is not supported (F32 only)") }
            guard let shape = info["shape"] as? [Int], shape.allSatisfy({ $0 >= 0 }) else { throw fail(name, "shape must be non-negative integers") }
            guard let offsets = info["data_offsets"] as? [Int], offsets.count == 2 else { throw fail(name, "data_offsets must be [begin, end]") }
            let (begin, end) = (offsets[0], offsets[1])
            guard begin >= 0, end >= begin, end <= dataCount else { throw fail(name, "data_offsets [\(begin), \(end)] lie outside the \(dataCount) data bytes (truncated?)") }
            // The shape comes from the file: its product may overflow, and must be checked before it is trusted.
            var bytes = 4
            for extent in shape {
                let (product, overflow) = bytes.multipliedReportingOverflow(by: extent)
                guard !overflow, product <= dataCount else { throw fail(name, "shape \(shape) of F32 is larger than the \(dataCount) data bytes of the file") }
                bytes = product
            }
            guard end - begin == bytes else { throw fail(name, "\(end - begin) bytes for shape \(shape) of F32") }
            entries.append((name, shape, begin, end))
        }
        entries.sort { $0.begin != $1.begin ? $0.begin < $1.begin : $0.name < $1.name }
        let tensors = entries.map { e -> NamedTensor in
            var values = [Float](repeating: 0, count: (e.end - e.begin) / 4)
            values.withUnsafeMutableBytes { dst in data.copyBytes(to: dst.bindMemory(to: UInt8.self), from: (dataStart + e.begin)..<(dataStart + e.end)) }
            return NamedTensor(name: e.name, shape: e.shape, values: values)
        }
        return (tensors, metadata)
    }
}
