import ArgumentParser
import Boxes
import Foundation
import Outputs
import Images
import Shards
import Synthesis

extension Size: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// Prints one pretty, key-sorted JSON object: the output scripts read.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Turns library errors into a clean message and a non-zero exit.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as ValidationError { throw e } catch let e as ExitCode { throw e } catch {
        FileHandle.standardError.write(Data("error: \(FileProblem.sentence(error))\n".utf8))
        throw ExitCode.failure
    }
}

struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render synthetic iOS and Android screens with exact boxes into shards.",
        discussion: """
        Phones and tablets, each app with its own platform, theme, fonts, icon style and language, letterboxed into
        --size as imported screenshots are, with the 13 default classes' boxes and the screen-description ground truth
        (group_index, nav_order, selected, interactive, texts, group_kinds). Writes OUT/synth-00000.h5,
        OUT/synth-00001.h5, ... The same seed gives the same bytes.
        """)

    @Option(help: "Number of screens.") var count: Int = 1000
    @Option(help: "Image size as WxH.") var size: Size = Size(width: 256, height: 512)
    @Option(help: "Random seed.") var seed: UInt64 = 0
    @Option(help: "Output folder for the shards.") var out: String
    @Option(help: "Screens per shard file.") var shardSize: Int = 1000
    @Option(help: "Number of distinct apps (group ids); default: one per 12 screens.") var apps: Int?
    @OptionGroup var threads: ThreadOptions

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1, got \(count)") }
        guard shardSize >= 1 else { throw ValidationError("--shard-size must be at least 1, got \(shardSize)") }
        guard size.width >= 64, size.height >= 64 else { throw ValidationError("--size must be at least 64x64, got \(size)") }
        if let apps, apps < 1 { throw ValidationError("--apps must be at least 1, got \(apps)") }
    }

    func run() throws {
        try reportingErrors {
            try OutputDestination.check(out, inputs: [])
            if let existing = try? FileManager.default.contentsOfDirectory(atPath: out).filter({ $0.hasSuffix(".h5") }), !existing.isEmpty {
                throw ValidationError("\(out) already holds shards (\(existing.sorted()[0]), ...); choose another --out or remove them")
            }
            let dataset = SyntheticDataset(count: count, size: size, seed: seed, appCount: apps, shardSize: shardSize)
            let progress = ProgressLine()
            let start = Date()
            try dataset.write(to: URL(fileURLWithPath: out), workers: threads.threads) { done in
                let rate = Double(done) / max(1e-9, Date().timeIntervalSince(start))
                progress.update(String(format: "%d/%d screens, %.0f screens/s", done, count, rate), fractionDone: Double(done) / Double(count))
            }
            progress.finish()
            let seconds = Date().timeIntervalSince(start)
            print(String(format: "wrote %d screens (%@, %d apps) to %@ in %.1f s (%.0f screens/s)", count, size.description, dataset.appCount, out, seconds, Double(count) / seconds))
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Draw one screen of a shard with its boxes and class names into a PNG.")

    @Argument(help: "The shard file.") var shard: String
    @Option(help: "Which screen (0-based).") var index: Int = 0
    @Option(help: "The PNG to write.") var out: String
    @Option(help: "Upscale factor, so that labels stay readable.") var scale: Int = 2

    func validate() throws {
        guard index >= 0 else { throw ValidationError("--index must be 0 or more, got \(index)") }
        guard (1...8).contains(scale) else { throw ValidationError("--scale must be 1 to 8, got \(scale)") }
    }

    func run() throws {
        try reportingErrors {
            try OutputFile.check(out, writes: .png, inputs: [shard])
            let reader = try ShardReader(url: URL(fileURLWithPath: shard))
            guard index < reader.count else { throw ValidationError("\(shard) has \(reader.count) screens; --index \(index) is out of range") }
            let record = try reader.record(at: index)
            guard let image = record.image else { throw ValidationError("\(shard) is a detection shard without images") }
            var canvas = image.resized(to: Size(width: image.width * scale, height: image.height * scale))
            let font = try Font()
            let s = Float(scale)
            for (k, (box, label)) in zip(record.boxes, record.labels).enumerated() {
                // Detection shards carry a score per box: show it beside the class.
                let score = record.scores.map { String(format: " %.2f", $0[k]) } ?? ""
                canvas.annotate(box.transformed(scaleX: s, scaleY: s), label: reader.classNames[Int(label)] + score,
                                color: ClassColors.color(Int(label)), font: font, pixelSize: 9 + scale)
            }
            try ImageCodec.writePNG(canvas, to: URL(fileURLWithPath: out))
            print("\(out): screen \(index) '\(record.imageID)' of app '\(record.groupID)', \(record.boxes.count) boxes")
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per-class box counts, boxes per image and box sizes of a set of shards; validates every shard it reads.",
        discussion: "Exits non-zero, naming the file, dataset and fault, if any shard is malformed or damaged.")

    @Argument(help: "Shard files, folders of shards, or globs.") var shards: [String]
    @Flag(help: "Print one JSON object instead of a table.") var json = false
    @Flag(help: "Check annotations only, without reading every image's pixels.") var skipPixels = false

    func run() throws {
        try reportingErrors {
            let set = try ShardSet(shards)
            if !skipPixels {
                let progress = ProgressLine(enabled: !json)
                for (k, r) in set.readers.enumerated() {
                    progress.update("checking pixels of \(r.url.lastPathComponent)", fractionDone: Double(k) / Double(set.readers.count))
                    try r.verifyImages()
                }
                progress.finish()
            }
            let stats = DatasetStatistics(set)
            if json {
                try printJSON(stats)
            } else {
                print(stats.table())
            }
        }
    }
}

struct Split: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Divide shards into train/val/test by group (no app on two sides), keeping class shares close.",
        discussion: "Writes OUT/<part>/<part>-00000.h5, ... and prints how close each class's share is to its target.")

    @Argument(help: "Shard files, folders of shards, or globs.") var shards: [String]
    @Option(help: "Output folder.") var out: String
    @Option(help: "Fractions of train, val and test, e.g. 0.8,0.1,0.1.") var fractions: String = "0.8,0.1,0.1"
    @Option(help: "Names of the parts, in the order of --fractions.") var names: String = "train,val,test"
    @Option(help: "Random seed for the order groups are considered in.") var seed: UInt64 = 0
    @Option(help: "Screens per output shard.") var shardSize: Int = 1000

    func parsedParts() throws -> [GroupSplit.Part] {
        let f = fractions.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let n = names.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        guard f.allSatisfy({ $0 != nil && $0! >= 0 }), f.count == n.count, f.compactMap({ $0 }).reduce(0, +) > 0 else {
            throw ValidationError("--fractions '\(fractions)' must be \(n.count) non-negative numbers (one per name in --names '\(names)') with a positive sum")
        }
        return zip(n, f).map { GroupSplit.Part(name: $0, fraction: $1!) }
    }

    func validate() throws { _ = try parsedParts() }

    func run() throws {
        try reportingErrors {
            let parts = try parsedParts()
            let set = try ShardSet(shards)
            try OutputDestination.check(out, inputs: set.readers.map(\.url.path))
            let outURL = URL(fileURLWithPath: out)
            for p in parts where FileManager.default.fileExists(atPath: outURL.appendingPathComponent(p.name).path) {
                throw ValidationError("\(outURL.appendingPathComponent(p.name).path) already exists; choose another --out")
            }
            let splitter = GroupSplit(parts: parts, seed: seed)
            let progress = ProgressLine()
            let (_, report) = try splitter.write(set, to: outURL, shardSize: shardSize) { part, done, total in
                progress.update("writing \(part): \(done)/\(total)", fractionDone: Double(done) / Double(max(1, total)))
            }
            progress.finish()
            for empty in splitter.emptyParts(in: report) {
                FileHandle.standardError.write(Data("warning: \(empty)\n".utf8))
            }
            print("part        fraction  images  groups")
            for (p, part) in splitter.parts.enumerated() {
                print(String(format: "%@ %8.3f %7d %7d", part.name.padding(toLength: 10, withPad: " ", startingAt: 0), part.fraction, report.images[p], report.groups[p]))
            }
            print("")
            print("class                  " + splitter.parts.map { $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) }.joined(separator: " ") + " (share of the class's boxes)")
            for (k, name) in set.classNames.enumerated() {
                let total = report.classCounts[k].reduce(0, +)
                let shares = report.classCounts[k].map { total > 0 ? String(format: "%5.1f%%    ", 100 * Double($0) / Double(total)) : "   -      " }
                print(name.padding(toLength: 22, withPad: " ", startingAt: 0) + " " + shares.joined(separator: " ") + " \(total) boxes")
            }
            let worst = report.worstClass.map { set.classNames[$0] } ?? "-"
            print(String(format: "\nlargest gap between a class's share and its target: %.1f points (%@; classes with >= 20 boxes)",
                         100 * report.maxClassShareDeviation, worst))
            print("no group (app) appears in two parts; wrote \(out)")
        }
    }
}
