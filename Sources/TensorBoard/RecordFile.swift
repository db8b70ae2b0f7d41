#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file that records are appended to: each `append` reaches the file with write(2) before
/// it returns, so a crash of the process loses nothing already appended; `sync` (fsync) makes
/// the records survive a crash of the machine. Not thread-safe: one owner, one thread.
final class RecordFile {
    let path: String
    private var descriptor: Int32?

    /// Creates `path`, refusing an existing file: two writers appending to one file would
    /// interleave their records.
    init(creating path: String) throws(TensorBoardError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotCreate(path: path, reason: systemError()) }
        self.path = path
        descriptor = fd
    }

    deinit { if let descriptor { _ = closeDescriptor(descriptor) } }

    func append(_ bytes: [UInt8]) throws(TensorBoardError) {
        guard let fd = descriptor else { throw .closed(path: path) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = systemError()
                // A record cut short would make whatever came after it unreadable: stop here, so
                // the file ends in the one torn record readers already skip.
                shut()
                throw .cannotWrite(path: path, reason: reason)
            }
            offset += written
        }
    }

    func sync() throws(TensorBoardError) {
        guard let fd = descriptor else { throw .closed(path: path) }
        guard fsync(fd) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
    }

    /// Syncs and closes the file, closed even when the sync fails; closing again does nothing.
    func close() throws(TensorBoardError) {
        guard let fd = descriptor else { return }
        descriptor = nil
        let syncFailure = fsync(fd) == 0 ? nil : systemError()
        let closeFailure = closeDescriptor(fd) == 0 ? nil : systemError()
        if let reason = syncFailure ?? closeFailure { throw .cannotWrite(path: path, reason: reason) }
    }

    private func shut() {
        if let fd = descriptor { _ = closeDescriptor(fd) }
        descriptor = nil
    }
}

/// The C library's close(2), out of reach of `RecordFile.close()`'s name.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

private func systemError() -> String { String(cString: strerror(errno)) }
