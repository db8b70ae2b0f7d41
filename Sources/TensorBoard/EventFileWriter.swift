import Foundation
import Images
import Protobuf

/// Writes one TensorBoard event file, `events.out.tfevents.<unix seconds>.<hostname>[.<n>]` in a folder
/// (TensorBoard's run): TFRecord-framed `Event` messages (event.proto), the first carrying
/// `file_version` "brain.Event:2", then one per `add` with its wall time, step and summary.
///
/// Each event reaches the file as it is added; `flush()` syncs it to disk. TensorBoard reads the
/// file while it grows, and a file cut short (a crash) up to its last whole event.
/// Single-threaded: a class that is not Sendable, owned by one thread (the training loop's).
public final class EventFileWriter {
    /// The `file_version` of the first event, which TensorBoard checks.
    public static let fileVersion = "brain.Event:2"

    /// The event file.
    public let url: URL
    private let file: RecordFile

    /// Creates the folder if needed and a new event file in it named by `now` and `hostname`,
    /// and writes the file-version event. A second file started in the same second (a run resumed
    /// at once) gets `.1`, `.2`, ... after the name, so it sorts after the first as TensorBoard reads them.
    public init(folder: URL, now: Date = Date(), hostname: String = ProcessInfo.processInfo.hostName) throws(TensorBoardError) {
        let name = "events.out.tfevents.\(Int(now.timeIntervalSince1970)).\(hostname)"
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .cannotCreate(path: folder.path, reason: "\(error)")
        }
        var candidate = folder.appendingPathComponent(name)
        for n in 1...1000 where FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(name).\(n)")
        }
        url = candidate
        file = try RecordFile(creating: url.path)
        // Event fields (event.proto): wall_time 1, step 2, file_version 3, summary 5.
        var event = ProtobufWriter()
        event.double(1, now.timeIntervalSince1970)
        event.string(3, Self.fileVersion)
        try file.append(TFRecord.framed(event.bytes))
    }

    /// Writes one event holding `values` at `step`.
    public func add(_ values: [SummaryValue], step: Int, wallTime: Date = Date()) throws(TensorBoardError) {
        var event = ProtobufWriter()
        event.double(1, wallTime.timeIntervalSince1970)
        event.int(2, step)
        event.message(5) { summary in
            for value in values { summary.message(1) { value.encode(into: &$0) } }
        }
        try file.append(TFRecord.framed(event.bytes))
    }

    /// Marks a (re)start at `step`: TensorBoard then drops events of earlier files with a later
    /// step, so that a resumed run does not show the steps it redid twice.
    public func addSessionStart(step: Int, wallTime: Date = Date()) throws(TensorBoardError) {
        // Event.session_log 6: SessionLog { status 1 = START }.
        var event = ProtobufWriter()
        event.double(1, wallTime.timeIntervalSince1970)
        event.int(2, step)
        event.message(6) { $0.int(1, 1) }
        try file.append(TFRecord.framed(event.bytes))
    }

    /// Writes a scalar at `step`.
    public func addScalar(tag: String, value: Float, step: Int, wallTime: Date = Date()) throws(TensorBoardError) {
        try add([.scalar(tag: tag, value: value)], step: step, wallTime: wallTime)
    }

    /// Writes an image (encoded as PNG) at `step`.
    public func addImage(tag: String, image: RGBImage, step: Int, wallTime: Date = Date()) throws(TensorBoardError) {
        try add([.image(tag: tag, image: image)], step: step, wallTime: wallTime)
    }

    /// Writes a PR curve at `step`.
    public func addPRCurve(tag: String, curve: PRCurve, step: Int, wallTime: Date = Date()) throws(TensorBoardError) {
        try add([.prCurve(tag: tag, curve: curve)], step: step, wallTime: wallTime)
    }

    /// Puts every event added so far on disk (fsync).
    public func flush() throws(TensorBoardError) { try file.sync() }

    /// Syncs and closes the file; later `add`s throw `.closed`, closing again does nothing.
    public func close() throws(TensorBoardError) { try file.close() }
}
