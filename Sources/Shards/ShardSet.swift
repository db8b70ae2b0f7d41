import Foundation

/// Several shards read as one data set: paths, folders (their `*.h5` files,
/// sorted) and globs, all sharing one vocabulary.
public final class ShardSet {
    public let readers: [ShardReader]
    public let classNames: [String]
    /// Screens before shard k: screen `i` of the set is screen `i - starts[k]` of shard k.
    public let starts: [Int]
    public var count: Int { starts.last ?? 0 }

    /// Opens and validates every shard named by `specs` (files, folders or globs).
    public init(_ specs: [String]) throws {
        let urls = try Self.expand(specs)
        guard !urls.isEmpty else { throw ShardError.missing(path: specs.joined(separator: " "), name: "any .h5 shard") }
        var readers: [ShardReader] = []
        for url in urls { readers.append(try ShardReader(url: url)) }
        let names = readers[0].classNames
        for r in readers.dropFirst() where r.classNames != names {
            throw ShardError.vocabularyMismatch(path: r.url.path, expected: names, found: r.classNames)
        }
        self.readers = readers
        classNames = names
        var s = [0]
        for r in readers { s.append(s.last! + r.count) }
        starts = s
    }

    /// The shard and local index of screen `index` of the set.
    public func locate(_ index: Int) -> (shard: Int, local: Int) {
        var lo = 0, hi = readers.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return (lo, index - starts[lo])
    }

    /// Screen `index` of the set.
    public func record(at index: Int, withImage: Bool = true) throws -> ScreenRecord {
        let (k, i) = locate(index)
        return try readers[k].record(at: i, withImage: withImage)
    }

    /// The shard files that `specs` name, in order, without duplicates. Only regular files are
    /// shards: a FIFO, device, socket or folder named, found in a folder or matched by a glob is
    /// an error naming it, and is never opened (opening a FIFO waits for a writer forever).
    public static func expand(_ specs: [String]) throws -> [URL] {
        var out: [URL] = []
        let fm = FileManager.default
        func regular(_ path: String) throws -> URL {
            if let kind = notRegularFile(path) { throw ShardError.unreadableFile(path: path, reason: "\(kind), not a regular file; not opened") }
            return URL(fileURLWithPath: path)
        }
        for spec in specs {
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: spec, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    let names = try fm.contentsOfDirectory(atPath: spec).filter { $0.hasSuffix(".h5") && !$0.hasPrefix(".") }.sorted()
                    guard !names.isEmpty else { throw ShardError.missing(path: spec, name: "any .h5 shard in the folder") }
                    out += try names.map { try regular(URL(fileURLWithPath: spec).appendingPathComponent($0).path) }
                } else {
                    out.append(try regular(spec))
                }
            } else if spec.contains("*") || spec.contains("?") {
                let matches = glob(spec)
                guard !matches.isEmpty else { throw ShardError.missing(path: spec, name: "any file matching the pattern") }
                out += try matches.map(regular)
            } else {
                throw ShardError.unreadableFile(path: spec, reason: "no such file or folder")
            }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// What `path` is when it is not a regular file (symbolic links followed), or nil when it is
    /// one or does not exist (the reader says so).
    static func notRegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "an unknown kind of file"
        }
    }

    private static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }
}
