import Foundation

/// Paths compared as the file system sees them: symbolic links followed, `.` and `..` gone.
enum Paths {
    /// The canonical path of `path`; for a path that does not exist yet, its nearest existing
    /// ancestor's canonical path with the rest appended.
    static func canonical(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var head = absolute, tail: [String] = []
        while true {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return tail.isEmpty ? base : (base == "/" ? "" : base) + "/" + tail.reversed().joined(separator: "/")
            }
            let url = URL(fileURLWithPath: head)
            if head == "/" || head.isEmpty { return absolute }
            tail.append(url.lastPathComponent)
            head = url.deletingLastPathComponent().path
        }
    }

    /// True when `inner` is `outer` or lies inside it (both canonical).
    static func isSameOrInside(_ inner: String, _ outer: String) -> Bool {
        inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    /// Whether something is at `path` (a dangling link counts), and whether it is a folder (links followed).
    static func existing(_ path: String) -> (exists: Bool, isFolder: Bool) {
        var s = stat()
        guard lstat(path, &s) == 0 else { return (false, false) }
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        return (true, isFolder.boolValue)
    }

    /// The first input that `output` is, or holds (inputs that are missing are skipped).
    static func inputHeld(by output: String, inputs: [String]) -> String? {
        let out = canonical(output)
        for input in inputs where !input.isEmpty {
            if isSameOrInside(canonical(input), out) { return input }
        }
        return nil
    }
}

/// Whether a process is still running (a leftover of one that is not can go).
func processIsAlive(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
}
