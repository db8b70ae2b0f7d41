import ArgumentParser
import Engine

@main
struct UIDetect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uidetect",
        abstract: "Train and evaluate detectors of user-interface elements in app screenshots.",
        subcommands: [Synth.self, Show.self, Import.self, Stats.self, Split.self, Check.self, ModelCommand.self, Train.self, Evaluate.self, Predict.self, Describe.self, ExportCommand.self, ExportData.self, Thresholds.self, Compare.self, SelfCheckCommand.self, Bench.self])
}

/// Options every compute-heavy command shares.
struct ThreadOptions: ParsableArguments {
    @Option(help: "Threads for the engine and OpenBLAS (default: all cores).")
    var threads: Int = Parallel.defaultThreadCount

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1, got \(threads)") }
    }

    /// Runs `body` with the engine's loops on `--threads` workers.
    func scope<T>(_ body: () throws -> T) rethrows -> T { try Parallel.withThreads(threads, body) }
}
