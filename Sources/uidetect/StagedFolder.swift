import ArgumentParser
import Foundation

/// An output folder written whole or not at all: files go into a hidden sibling that replaces
/// the folder only when every file is there, so an interrupted command leaves the old folder as it was.
struct StagedFolder {
    let final: URL
    let staging: URL

    /// Starts an empty staging folder for `path`. An existing folder is replaced only when it is
    /// empty or holds `marker` (a previous output of the same command): anything else there might
    /// be the user's, such as a run folder given by mistake.
    init(_ path: String, marker: String) throws {
        final = URL(fileURLWithPath: path)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: final.path)) ?? []
        if !existing.isEmpty && !existing.contains(marker) {
            throw ValidationError("\(path) holds other files (\(existing.sorted().prefix(3).joined(separator: ", "))\(existing.count > 3 ? ", ..." : "")) "
                                  + "and no \(marker): give a new or empty folder (the output replaces the whole folder)")
        }
        staging = final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent).partial-\(getpid())")
        try? FileManager.default.removeItem(at: staging)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    /// Where `name` is written while staging.
    func file(_ name: String) -> URL { staging.appendingPathComponent(name) }

    /// Puts the staged folder in place of the final one.
    func commit() throws {
        if FileManager.default.fileExists(atPath: final.path) { try FileManager.default.removeItem(at: final) }
        try FileManager.default.moveItem(at: staging, to: final)
    }

    /// Removes the staging folder (after a failure).
    func discard() { try? FileManager.default.removeItem(at: staging) }
}
