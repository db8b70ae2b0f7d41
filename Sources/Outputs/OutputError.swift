import Foundation

/// Why a command refused to write where it was told to, before doing any work.
public enum OutputError: Error, CustomStringConvertible, Equatable {
    /// The output is one of the command's inputs, or a folder holding one.
    case isInput(path: String, input: String)
    /// A folder was expected, a file is there.
    case fileWhereFolderExpected(path: String)
    /// A file was expected, a folder is there.
    case folderWhereFileExpected(path: String)
    /// The folder holds files this command did not write there.
    case foreignFiles(path: String, files: [String], command: String)
    /// The output would replace the folder the command runs in, or one holding it.
    case holdsWorkingFolder(path: String)
    /// An existing file of another kind than the command writes.
    case otherKind(path: String, found: String, writes: String)
    /// The file system refused.
    case fileSystem(path: String, problem: String)

    public var description: String {
        switch self {
        case .isInput(let path, let input):
            return path == input
                ? "\(path) is one of this command's inputs; give another output path (nothing was written)"
                : "\(path) holds \(input), one of this command's inputs; give another output path (nothing was written)"
        case .fileWhereFolderExpected(let path):
            return "\(path) is a file, and the output is a folder; give a new or empty folder (the file is left as it is)"
        case .folderWhereFileExpected(let path):
            return "\(path) is a folder, and the output is a file; give a file name"
        case .foreignFiles(let path, let files, let command):
            let shown = files.prefix(3).joined(separator: ", ") + (files.count > 3 ? ", ... (\(files.count) in all)" : "")
            return "\(path) holds files that `uidetect \(command)` did not write there (\(shown)); give a new or empty folder. "
                + "An earlier output of `uidetect \(command)` is replaced; anything else is never deleted"
        case .holdsWorkingFolder(let path):
            return "\(path) is the current folder or holds it; the output replaces its whole folder: give a folder of its own, e.g. \(path)/out"
        case .otherKind(let path, let found, let writes):
            return "\(path) is \(found), and this command writes \(writes) there; give another output path (the file is left as it is)"
        case .fileSystem(let path, let problem):
            return "\(path): \(problem)"
        }
    }
}
