import Foundation

/// Screenshots named on a command line (`predict`, `describe`): files as given, and the PNG and
/// JPEG files of folders in name order (not recursively), with the image id each gets: its file
/// name without extension, a name already taken made distinct (`x`, `x-2`, ...) as files are claimed.
public struct ScreenshotFiles {
    public let files: [URL]

    /// The screenshots of `inputs`; a path that does not exist is an error naming it.
    public init(_ inputs: [String]) throws {
        var out: [URL] = []
        for path in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw InterchangeError(path: path, field: "", problem: "no such file or folder")
            }
            if isFolder.boolValue {
                let names: [String]
                do { names = try FileManager.default.contentsOfDirectory(atPath: path).sorted() } catch {
                    throw InterchangeError(path: path, field: "", problem: "cannot list the folder (\((error as NSError).localizedDescription))")
                }
                out += names.filter { Self.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .map { URL(fileURLWithPath: path).appendingPathComponent($0) }
            } else {
                out.append(URL(fileURLWithPath: path))
            }
        }
        files = out
    }

    static let extensions: Set<String> = ["png", "jpg", "jpeg"]

    /// Each file's image id before de-duplication: its name without extension.
    public var stems: [String] { files.map { $0.deletingPathExtension().lastPathComponent } }

    /// The names ids are claimed from (`claim(stems[k])` for each file read), every stem reserved.
    public func ids() -> UniqueNames { UniqueNames(reserving: stems) }
}
