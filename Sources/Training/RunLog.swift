import Foundation
import Logging

/// A swift-log handler that appends each message to a run's `train.log`, one line per line of
/// the message, each stamped with the time (ISO 8601). The file is opened at the first message and appended to.
public struct RunLogHandler: LogHandler {
    private final class Sink: @unchecked Sendable {
        // Log calls may come from any thread: writes are serialised.
        let lock = NSLock()
        let url: URL
        var handle: FileHandle?
        let formatter = ISO8601DateFormatter()

        // The file is opened at the first message: a command makes the logger before the trainer has
        // made (or refused) the run folder, and nothing may appear in a folder that is not a run.
        init(url: URL) { self.url = url }

        func write(_ text: String) {
            lock.lock(); defer { lock.unlock() }
            if handle == nil {
                if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
                handle = try? FileHandle(forWritingTo: url)
                _ = try? handle?.seekToEnd()
            }
            let stamp = formatter.string(from: Date())
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { "\(stamp) \($0)\n" }.joined()
            try? handle?.write(contentsOf: Data(lines.utf8))
        }
    }

    private let sink: Sink
    public var logLevel: Logger.Level = .debug
    public var metadata: Logger.Metadata = [:]

    /// Appends to `url`, creating it if needed.
    public init(url: URL) { sink = Sink(url: url) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        sink.write(event.level >= .warning ? "\(event.level): \(event.message)" : "\(event.message)")
    }
}

extension Logger {
    /// A run's logger: every message into its `train.log`, and those at `console` level or above
    /// also to `echo` (the terminal). Details such as validation tables go to the file at debug level.
    public static func run(_ folder: RunFolder, console: Logger.Level = .info, echo: @escaping @Sendable (String) -> Void = { _ in }) -> Logger {
        let file = RunLogHandler(url: folder.logFile)
        var terminal = EchoLogHandler(echo: echo)
        terminal.logLevel = console
        // The multiplexer passes each message to the handlers whose own level it reaches (setting its level would set theirs).
        return Logger(label: "uidetect.train") { _ in MultiplexLogHandler([file, terminal]) }
    }
}

/// A swift-log handler that hands each message to a closure (the command line prints it).
public struct EchoLogHandler: LogHandler {
    let echo: @Sendable (String) -> Void
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(echo: @escaping @Sendable (String) -> Void) { self.echo = echo }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        echo(event.level >= .warning ? "\(event.level): \(event.message)" : "\(event.message)")
    }
}

extension Logger {
    /// The logger of a rank other than 0 in a data-parallel run: rank 0 keeps the run's log;
    /// the others say only what went wrong, on standard error, with their rank.
    public static func rank(_ rank: Int) -> Logger {
        var logger = Logger(label: "uidetect.train.rank\(rank)") { _ in
            EchoLogHandler { FileHandle.standardError.write(Data("rank \(rank): \($0)\n".utf8)) }
        }
        logger.logLevel = .warning
        return logger
    }
}
