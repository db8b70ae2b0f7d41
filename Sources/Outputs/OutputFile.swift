import Foundation

/// A single output file (an export, a picture, a thresholds file): never one of the command's
/// inputs, never a folder, and an existing file is replaced only when it is of the kind the
/// command writes (a shard or a screenshot given as `--out` by mistake is left alone).
/// Written atomically: a temporary file in the same folder, renamed into place.
public enum OutputFile {
    /// What a file holds, told by its first bytes.
    public enum Kind: String, Sendable {
        case png = "a PNG image", jpeg = "a JPEG image", hdf5 = "an HDF5 file (a shard?)", json = "a JSON file",
             safetensors = "a safetensors file", onnx = "an ONNX model", text = "a text file", unknown = "a file of another kind"
    }

    /// Refuses `path` as an output of `kind` for a command reading `inputs`, before any work is done.
    public static func check(_ path: String, writes kind: Kind, inputs: [String]) throws {
        let (exists, isFolder) = Paths.existing(path)
        if isFolder { throw OutputError.folderWhereFileExpected(path: path) }
        let canonical = Paths.canonical(path)
        if let input = inputs.first(where: { !$0.isEmpty && canonical == Paths.canonical($0) }) {
            throw OutputError.isInput(path: path, input: input)
        }
        guard exists, let found = self.kind(of: URL(fileURLWithPath: path)) else { return }
        if found != kind && !(kind == .text && found == .json) {
            throw OutputError.otherKind(path: path, found: found.rawValue, writes: kind.rawValue)
        }
    }

    /// Writes `data` to `url` atomically, with a plain error naming the file.
    public static func write(_ data: Data, to url: URL) throws {
        do { try data.write(to: url, options: .atomic) } catch {
            throw OutputError.fileSystem(path: url.path, problem: FileProblem.reason(error))
        }
    }

    /// The kind of the file at `url` by its first bytes; nil when it is empty or cannot be read.
    public static func kind(of url: URL) -> Kind? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64), !head.isEmpty else { return nil }
        let b = [UInt8](head)
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x48, 0x44, 0x46]) { return .hdf5 }
        if b.count > 8, b[8] == UInt8(ascii: "{") { return .safetensors }
        if let first = b.first(where: { ![9, 10, 13, 32].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return .json }
        // ONNX's ModelProto begins with field 1 (ir_version, a varint): tag byte 0x08.
        if b[0] == 0x08 { return .onnx }
        if b.allSatisfy({ $0 >= 32 || [9, 10, 13].contains($0) || $0 >= 0x80 }) { return .text }
        return .unknown
    }
}
