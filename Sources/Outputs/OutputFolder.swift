import Foundation

/// An output folder written whole or not at all, and never over anything the command did not
/// write: files go into a hidden sibling that takes the folder's place only when every file is
/// there, so an interrupted command leaves the old folder as it was.
///
/// The rule (the README's "Limits on input"): an existing folder is replaced only when it is
/// empty or holds exactly what an earlier run of the same command wrote there (listed in its
/// marker, `.uidetect-output`); a file where the folder should be, the current folder, a folder
/// holding one of the command's inputs, or one with any other file in it is refused, naming the
/// path, before any work is done.
public struct OutputFolder {
    /// The marker that lists what the command wrote (and makes a staging folder recognisably ours).
    public static let markerName = ".uidetect-output"

    public let final: URL
    public let staging: URL
    public let command: String

    /// What the marker records.
    struct Marker: Codable {
        var format = "uidetect-output-1"
        var command: String
        var files: [String]
    }

    /// Checks `path` for `command` (as the user types it, e.g. "evaluate"), which reads `inputs`
    /// (files or folders), and starts an empty staging folder beside it.
    public init(_ path: String, command: String, inputs: [String]) throws {
        let fm = FileManager.default
        final = URL(fileURLWithPath: path).standardizedFileURL
        self.command = command
        let (exists, isFolder) = Paths.existing(final.path)
        if exists && !isFolder { throw OutputError.fileWhereFolderExpected(path: path) }
        if Paths.isSameOrInside(Paths.canonical(fm.currentDirectoryPath), Paths.canonical(final.path)) {
            throw OutputError.holdsWorkingFolder(path: path)
        }
        if let input = Paths.inputHeld(by: final.path, inputs: inputs) { throw OutputError.isInput(path: path, input: input) }
        if exists { try Self.checkReplaceable(final, shownAs: path, command: command) }
        let parent = final.deletingLastPathComponent()
        do { try fm.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
            throw OutputError.fileSystem(path: parent.path, problem: FileProblem.reason(error))
        }
        Self.removeLeftovers(of: final)
        staging = parent.appendingPathComponent(".\(final.lastPathComponent).partial-\(getpid())")
        try? fm.removeItem(at: staging)  // our own process's, from an earlier try in this process
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
            try Self.writeMarker(Marker(command: command, files: []), in: staging)
        } catch {
            throw OutputError.fileSystem(path: staging.path, problem: FileProblem.reason(error))
        }
    }

    /// Where `name` is written while staging.
    public func file(_ name: String) -> URL { staging.appendingPathComponent(name) }

    /// Puts the staged folder in place of the final one (the earlier output, if any, goes only now).
    public func commit() throws {
        let fm = FileManager.default
        let files = ((try? fm.contentsOfDirectory(atPath: staging.path)) ?? []).filter { $0 != Self.markerName }.sorted()
        do { try Self.writeMarker(Marker(command: command, files: files), in: staging) } catch {
            throw OutputError.fileSystem(path: staging.path, problem: FileProblem.reason(error))
        }
        guard Paths.existing(final.path).exists else { return try move(staging, to: final) }
        // Checked again: a file may have been put there while the command ran.
        try Self.checkReplaceable(final, shownAs: final.path, command: command)
        let replaced = final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent).replaced-\(getpid())")
        try move(final, to: replaced)
        do { try move(staging, to: final) } catch {
            try? move(replaced, to: final)
            throw error
        }
        try? fm.removeItem(at: replaced)
    }

    /// Removes the staging folder (after a failure).
    public func discard() { try? FileManager.default.removeItem(at: staging) }

    private func move(_ from: URL, to: URL) throws {
        guard rename(from.path, to.path) == 0 else {
            throw OutputError.fileSystem(path: to.path, problem: "cannot move \(from.lastPathComponent) into place (\(FileProblem.posix(errno)))")
        }
    }

    /// Refuses a folder holding anything but an earlier output of `command`.
    static func checkReplaceable(_ folder: URL, shownAs path: String, command: String) throws {
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() } catch {
            throw OutputError.fileSystem(path: path, problem: FileProblem.reason(error))
        }
        if entries.isEmpty { return }
        let others = entries.filter { $0 != markerName }
        guard let marker = readMarker(in: folder), marker.command == command else {
            throw OutputError.foreignFiles(path: path, files: others, command: command)
        }
        let foreign = others.filter { !marker.files.contains($0) }
        if !foreign.isEmpty { throw OutputError.foreignFiles(path: path, files: foreign, command: command) }
    }

    /// Staging folders (and replaced outputs) left by commands that were killed: removed when
    /// the process that made them is gone and they carry our marker.
    static func removeLeftovers(of final: URL) {
        let fm = FileManager.default
        let parent = final.deletingLastPathComponent()
        for prefix in [".\(final.lastPathComponent).partial-", ".\(final.lastPathComponent).replaced-"] {
            for item in (try? fm.contentsOfDirectory(atPath: parent.path)) ?? [] where item.hasPrefix(prefix) {
                guard let pid = Int32(item.dropFirst(prefix.count)), pid != getpid(), !processIsAlive(pid) else { continue }
                let url = parent.appendingPathComponent(item)
                if readMarker(in: url) != nil { try? fm.removeItem(at: url) }
            }
        }
    }

    static func readMarker(in folder: URL) -> Marker? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(markerName)) else { return nil }
        return try? JSONDecoder().decode(Marker.self, from: data)
    }

    static func writeMarker(_ marker: Marker, in folder: URL) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        try e.encode(marker).write(to: folder.appendingPathComponent(markerName), options: .atomic)
    }
}

/// Folders that commands add new files to (shards from `synth`, `split` and `import`), never
/// replacing one: such a folder may not be a file, nor one of the command's inputs (it may hold
/// them: `split data/all --out data` adds `data/train` beside them).
public enum OutputDestination {
    /// Refuses `path` as a folder to add files to for a command reading `inputs`.
    public static func check(_ path: String, inputs: [String]) throws {
        let (exists, isFolder) = Paths.existing(path)
        if exists && !isFolder { throw OutputError.fileWhereFolderExpected(path: path) }
        let out = Paths.canonical(path)
        if let input = inputs.first(where: { !$0.isEmpty && Paths.canonical($0) == out }) { throw OutputError.isInput(path: path, input: input) }
    }
}
