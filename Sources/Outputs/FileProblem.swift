import Foundation

/// One plain sentence for a file-system error: Foundation's errors print as
/// `Error Domain=NSCocoaErrorDomain Code=260 "..." UserInfo={...}` when interpolated, which names
/// the path but reads as a dump.
public enum FileProblem {
    /// "PATH: what went wrong", from a Foundation or POSIX error; other errors as they describe themselves.
    public static func sentence(_ error: Error, path: String? = nil) -> String {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let where_ = path ?? (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        let what = reason(ns)
        return where_.map { "\($0): \(what)" } ?? what
    }

    /// What went wrong, without the path.
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return posix(Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the disk"
        case .fileWriteFileExists: return "already exists"
        case .fileWriteVolumeReadOnly: return "the disk is read-only"
        case .fileReadCorruptFile: return "the file cannot be read as expected (damaged or of another kind)"
        case .fileReadInapplicableStringEncoding: return "not text in the expected encoding (UTF-8)"
        case .fileReadTooLarge: return "too large to read"
        default: return ns.localizedDescription
        }
    }

    static func posix(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "no space left on the disk"
        case EDQUOT: return "the disk quota is used up"
        case EROFS: return "the disk is read-only"
        case EISDIR: return "is a folder, not a file"
        case ENOTDIR: return "a part of the path is a file, not a folder"
        case EEXIST: return "already exists"
        case ENOTEMPTY: return "the folder is not empty"
        default: return String(cString: strerror(code))
        }
    }
}
