/// What went wrong writing TensorBoard data; each case names the file, tag or input concerned.
public enum TensorBoardError: Error, Equatable, CustomStringConvertible {
    /// The event file (or its folder) could not be created.
    case cannotCreate(path: String, reason: String)
    /// Writing, syncing or closing the event file failed.
    case cannotWrite(path: String, reason: String)
    /// An event or a flush came after `close()` or after a failed write.
    case closed(path: String)
    /// An image value could not be encoded as PNG.
    case cannotEncodeImage(tag: String, reason: String)
    /// A PR curve's inputs do not make a curve.
    case invalidPRCurve(reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): cannot create the event file (\(reason))"
        case .cannotWrite(let path, let reason): return "\(path): cannot write the event file (\(reason))"
        case .closed(let path): return "\(path): the event file is closed (by close() or after a failed write)"
        case .cannotEncodeImage(let tag, let reason): return "image '\(tag)': cannot encode it as PNG (\(reason))"
        case .invalidPRCurve(let reason): return "PR curve: \(reason)"
        }
    }
}
