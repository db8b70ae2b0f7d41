import ArgumentParser
import Boxes
import Foundation
import Images
import Shards
import Synthesis

extension Size: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// Turns library errors into a clean message and a non-zero exit.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as ValidationError { throw e } catch let e as ExitCode { throw e } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode.failure
    }
}

struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render synthetic iPhone-style screens with exact boxes into shards.",
        discussion: "Writes OUT/synth-00000.h5, OUT/synth-00001.h5, ... The same seed gives the same bytes.")

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
            let folder = URL(fileURLWithPath: out)
            if let existing = try? FileManager.default.contentsOfDirectory(atPath: out).filter({ $0.hasSuffix(".h5") }), !existing.isEmpty {
                throw ValidationError("\(out) already holds shards (\(existing.sorted()[0]), ...); choose another --out or remove them")
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let appCount = apps ?? max(1, (count + 11) / 12)
            let workers = max(1, threads.threads)
            let synthesizers = try (0..<workers).map { _ in try ScreenSynthesizer(size: size, seed: seed, appCount: appCount) }
            let progress = ProgressLine()
            let start = Date()
            var done = 0
            for (shardIndex, first) in stride(from: 0, to: count, by: shardSize).enumerated() {
                let url = folder.appendingPathComponent(String(format: "synth-%05d.h5", shardIndex))
                let writer = try ShardWriter(url: url, classNames: defaultClassNames, imageSize: size)
                let end = min(count, first + shardSize)
                // Batches bound memory; screens inside a batch render in parallel, one synthesizer per worker.
                for batchStart in stride(from: first, to: end, by: 64) {
                    let batch = Array(batchStart..<min(end, batchStart + 64))
                    var records = [ScreenRecord?](repeating: nil, count: batch.count)
                    records.withUnsafeMutableBufferPointer { slots in
                        let slots = slots
                        DispatchQueue.concurrentPerform(iterations: workers) { w in
                            for k in stride(from: w, to: batch.count, by: workers) { slots[k] = synthesizers[w].screen(index: batch[k]) }
                        }
                    }
                    for r in records { try writer.append(r!) }
                    done += batch.count
                    let rate = Double(done) / max(1e-9, Date().timeIntervalSince(start))
                    progress.update(String(format: "%d/%d screens, %.0f screens/s", done, count, rate), fractionDone: Double(done) / Double(count))
                }
                try writer.finish()
            }
            progress.finish()
            let seconds = Date().timeIntervalSince(start)
            print(String(format: "wrote %d screens (%@, %d apps) to %@ in %.1f s (%.0f screens/s)", count, size.description, appCount, out, seconds, Double(count) / seconds))
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
            let reader = try ShardReader(url: URL(fileURLWithPath: shard))
            guard index < reader.count else { throw ValidationError("\(shard) has \(reader.count) screens; --index \(index) is out of range") }
            let record = try reader.record(at: index)
            guard let image = record.image else { throw ValidationError("\(shard) is a detection shard without images") }
            var canvas = image.resized(to: Size(width: image.width * scale, height: image.height * scale))
            let font = try Font()
            let s = Float(scale)
            for (box, label) in zip(record.boxes, record.labels) {
                let name = reader.classNames[Int(label)]
                let score = record.scores.map { _ in "" } ?? ""
                canvas.annotate(box.transformed(scaleX: s, scaleY: s), label: name + score, color: ClassColors.color(Int(label)), font: font, pixelSize: 9 + scale)
            }
            try ImageCodec.writePNG(canvas, to: URL(fileURLWithPath: out))
            print("\(out): screen \(index) '\(record.imageID)' of app '\(record.groupID)', \(record.boxes.count) boxes")
        }
    }
}
