import ArgumentParser
import Engine
import Foundation

@main
struct UIDetect: ParsableCommand {
    /// Hints the parser does not give (a misspelt command, an unknown option behind a missing
    /// one) come first; everything else is ArgumentParser's.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = ArgumentHints.problem(in: arguments, tool: UIDetect._dumpHelp()) {
            FileHandle.standardError.write(Data("Error: \(problem)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        main(arguments)
    }

    static let configuration = CommandConfiguration(
        commandName: "uidetect",
        abstract: "Train and evaluate detectors of user-interface elements in app screenshots.",
        version: uidetectVersion,
        subcommands: [Synth.self, Show.self, Import.self, Stats.self, Split.self, Check.self, ModelCommand.self, Train.self, Evaluate.self, Predict.self, Describe.self, TrainIcons.self, TrainIconClassifier.self, ClassifyIcons.self, EvaluateIcons.self, EvaluateDescription.self, ExportCommand.self, ExportData.self, Thresholds.self, Compare.self, SelfCheckCommand.self, Bench.self])
}

/// Options every compute-heavy command shares.
struct ThreadOptions: ParsableArguments {
    // Optional, so that help shows "all cores" once instead of also this machine's count.
    @Option(name: .customLong("threads"), help: "Threads for the engine and OpenBLAS (default: all cores).")
    var requested: Int?

    /// `--threads`, or all cores.
    var threads: Int { requested ?? Parallel.defaultThreadCount }

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1, got \(threads)") }
    }

    /// Runs `body` with the engine's loops on `--threads` workers.
    func scope<T>(_ body: () throws -> T) rethrows -> T { try Parallel.withThreads(threads, body) }
}
