import ArgumentParser
import DataChecks
import Foundation
import Shards

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check shards before training: leakage between splits, suspicious boxes, rare classes, empty screens, image sizes.",
        discussion: """
        Each DATA path (a shard, a folder of shards, or a glob) is one split, e.g. data/train data/test. Errors: near-duplicate \
        screenshots in two splits (a 464-bit difference hash of each screen, Hamming distance <= --max-distance) and groups (apps) \
        in two splits. Warnings: duplicate boxes (same class, IoU > 0.95), boxes with a side under --min-side px, boxes cut by \
        the image edge, classes with fewer than --min-boxes boxes in a split, screens without boxes. Exits non-zero on an error \
        or an unreadable shard, listing the screens (image id, shard file and index).
        """)

    @Argument(help: "Splits: shard files, folders of shards, or globs; each path is one split.") var data: [String]
    @Option(help: "A class with fewer boxes than this in a split is reported.") var minBoxes: Int = DataCheckOptions().minBoxesPerClass
    @Option(help: "A box with a side under this many pixels is reported.") var minSide: Float = DataCheckOptions().minBoxSide
    @Option(help: "Largest hash distance (of the hash's 464 bits) at which two screens count as near-duplicates.") var maxDistance: Int = DataCheckOptions().maxHashDistance
    @Option(help: "Findings listed per check in the text report.") var limit: Int = 20
    @Flag(help: "Print one JSON object (every finding) instead of the text report.") var json = false

    func validate() throws {
        guard minBoxes >= 0 else { throw ValidationError("--min-boxes must be 0 or more, got \(minBoxes)") }
        guard minSide >= 0, minSide.isFinite else { throw ValidationError("--min-side must be 0 or more, got \(minSide)") }
        guard (0...PerceptualHash.bitCount).contains(maxDistance) else { throw ValidationError("--max-distance must lie in 0...\(PerceptualHash.bitCount), got \(maxDistance)") }
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more, got \(limit)") }
    }

    func run() throws {
        let report = try reportingErrors {
            var options = DataCheckOptions()
            options.minBoxesPerClass = minBoxes
            options.minBoxSide = minSide
            options.maxHashDistance = maxDistance
            let splits = try data.map { CheckedSplit(name: $0, set: try ShardSet([$0])) }
            let progress = ProgressLine(enabled: !json)
            let report = try DataChecker(options: options).check(splits) { progress.update("hashing screens", fractionDone: $0) }
            progress.finish()
            return report
        }
        if json { try printJSON(report) } else { print(report.text(limit: limit)) }
        if !report.passed { throw ExitCode.failure }
    }
}
