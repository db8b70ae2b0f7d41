/// Why a shard could not be read or written. Every case names the file, the
/// dataset or attribute, and the fault, so that a user can find and fix it.
public enum ShardError: Error, CustomStringConvertible, Equatable {
    /// The file is missing, truncated or not HDF5.
    case unreadableFile(path: String, reason: String)
    /// `format` or `version` is not what this reader understands.
    case wrongFormat(path: String, attribute: String, found: String, expected: String)
    /// A required dataset or attribute is absent.
    case missing(path: String, name: String)
    /// A dataset's element type is wrong.
    case wrongType(path: String, dataset: String, found: String, expected: String)
    /// Shapes that disagree with each other or with the spec.
    case wrongShape(path: String, dataset: String, found: [Int], expected: String)
    /// A value that breaks the format's rules (offsets, labels, boxes, ids).
    case invalidValue(path: String, dataset: String, index: Int, reason: String)
    /// The data could not be read (e.g. a checksum mismatch from a flipped byte).
    case corrupt(path: String, dataset: String, reason: String)
    /// Several shards given together disagree on `class_names`.
    case vocabularyMismatch(path: String, expected: [String], found: [String])
    /// Writing failed.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "\(path): not a readable HDF5 shard (\(reason))"
        case .wrongFormat(let path, let attribute, let found, let expected):
            return "\(path): root attribute '\(attribute)' is \(found), expected \(expected)"
        case .missing(let path, let name):
            return "\(path): required '\(name)' is missing"
        case .wrongType(let path, let dataset, let found, let expected):
            return "\(path): dataset '\(dataset)' holds \(found), expected \(expected)"
        case .wrongShape(let path, let dataset, let found, let expected):
            return "\(path): dataset '\(dataset)' has shape \(found), expected \(expected)"
        case .invalidValue(let path, let dataset, let index, let reason):
            return "\(path): dataset '\(dataset)' entry \(index): \(reason)"
        case .corrupt(let path, let dataset, let reason):
            return "\(path): dataset '\(dataset)' cannot be read (\(reason)); the file is damaged"
        case .vocabularyMismatch(let path, let expected, let found):
            return "\(path): class_names \(found) differ from the other shards' \(expected)"
        case .writeFailed(let path, let reason):
            return "\(path): cannot write the shard (\(reason))"
        }
    }
}
