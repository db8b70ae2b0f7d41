import Foundation
import Training

/// One updating status line on standard error with elapsed time and, given the
/// fraction done, the time left; silent when standard error is not a terminal,
/// so logs and pipes stay clean.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let start = Date()

    init(enabled: Bool = true) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Shows `text` with the elapsed time and the time left: `secondsLeft` when the caller
    /// knows it (a resumed run), else estimated from `fractionDone`.
    func update(_ text: String, fractionDone: Double? = nil, secondsLeft: Double? = nil) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(start)
        var line = "[\(clockText(elapsed))"
        if let left = secondsLeft, left.isFinite {
            line += ", ~\(clockText(left)) left"
        } else if let f = fractionDone, f > 0.02 {
            line += ", ~\(clockText(elapsed * (1 - f) / f)) left"
        }
        line += "] \(text)"
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
