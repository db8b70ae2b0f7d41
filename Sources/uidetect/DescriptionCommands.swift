import ArgumentParser
import Detection
import Foundation
import Outputs
import Reports
import ScreenDescription
import ScreenRecognition
import Shards
import Training

struct TrainIcons: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-icons",
        abstract: "Train the icon-interactivity model (boosted trees on position, size and neighbours) from truth shards.",
        discussion: """
        Icons with a known `interactive` in the --data shards train the trees, their true icon type (icon_types, where the shards
        have it) among the features; those of the --val shards pick the
        threshold that keeps --precision (the paper: 90%) and report the recall there (the paper: 73.6%). With
        --checkpoint the model is written beside the detector (icon-interactivity.json in the checkpoint or run
        folder, where `uidetect describe` finds it); with --out, to that file.
        """)

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Training truth shards, folders or globs.") var data: [String]
    @Option(name: .customLong("val"), parsing: .upToNextOption, help: "Validation truth shards, folders or globs.") var validation: [String]
    @Option(help: "A detector's weights file, checkpoint folder or run folder to store the model beside.") var checkpoint: String?
    @Option(help: "The model file to write instead.") var out: String?
    @Option(help: "The precision the threshold keeps on the validation icons.") var precision: Double = 0.9
    @Option(help: "Boosting rounds.") var rounds: Int = BoostedTrees.Parameters().rounds
    @Option(help: "Depth of each tree.") var maxDepth: Int = BoostedTrees.Parameters().maxDepth
    @Flag(help: "Leave the icon type out of the features (to measure what it adds).") var noIconType = false

    func validate() throws {
        guard (checkpoint == nil) != (out == nil) else { throw ValidationError("give --checkpoint (store beside the detector) or --out FILE, one of the two") }
        guard precision > 0 && precision <= 1 else { throw ValidationError("--precision must lie in (0, 1]") }
        guard rounds >= 1, maxDepth >= 1 else { throw ValidationError("--rounds and --max-depth must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            // Beside the detector, where describe looks for it, or the file given.
            let destination = try out.map { URL(fileURLWithPath: $0) }
                ?? ModelFiles(resolving: checkpoint!).companionFolder.appendingPathComponent(ModelFiles.iconInteractivityName)
            try OutputFile.check(destination.path, writes: .json, inputs: data + validation)
            let training = TruthScreens.iconExamples(try TruthScreens.read(ShardSet(data)), iconTypes: !noIconType)
            let held = TruthScreens.iconExamples(try TruthScreens.read(ShardSet(validation)), iconTypes: !noIconType)
            print("icons: \(training.count) for training (\(training.filter(\.interactive).count) buttons), "
                  + "\(held.count) for validation (\(held.filter(\.interactive).count) buttons)")
            var parameters = BoostedTrees.Parameters()
            parameters.rounds = rounds
            parameters.maxDepth = maxDepth
            let model = try IconInteractivityModel.train(training: training, validation: held, parameters: parameters, targetPrecision: precision)
            let v = model.validation
            print(String(format: "validation: threshold %.3f gives precision %.1f%% and recall %.1f%% (%d of %d buttons; paper: 73.6%% at 90.0%%)",
                         v.threshold, 100 * v.precision, 100 * v.recall, v.truePositives, v.positives))
            try model.write(to: destination)
            print("wrote \(destination.path)")
        }
    }
}

struct EvaluateDescription: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-description",
        abstract: "Score a description.json against truth shards (screen-description.md, metrics), beside the paper's figures.",
        discussion: """
        Writes OUT/metrics.json (every figure with the paper's beside it, the counts, and each screen's figures) and
        OUT/report.html, and prints the table. Every described screen needs its truth in --data; truth screens not
        described are left out. The folder is written whole or not at all.
        """)

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Truth shards, folders or globs.") var data: [String]
    @Option(help: "A description.json (uidetect describe).") var description: String
    @Option(help: "Output folder.") var out: String
    @Option(help: "A vocabulary map (YAML) for the truth's classes; default: the built-in map that names them all.") var vocabularyMap: String?

    func run() throws {
        try reportingErrors {
            let set = try ShardSet(data)
            let vocabulary = try TruthScreens.vocabulary(of: set, file: vocabularyMap)
            let folder = try OutputFolder(out, command: "evaluate-description", inputs: set.readers.map(\.url.path) + [description])
            defer { folder.discard() }
            let report = try DescriptionEvaluation.run(description: description, truth: set, vocabulary: vocabulary, title: "Description of \(description) against \(data.joined(separator: " "))",
                                                       into: folder.staging)
            try folder.commit()
            print(report.text())
            print("wrote \(folder.final.appendingPathComponent(DescriptionMetricsFile.fileName).path) and report.html")
        }
    }
}
