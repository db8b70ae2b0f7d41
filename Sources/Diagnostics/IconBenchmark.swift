import Boxes
import Engine
import Foundation
import IconRecognition
import Images
import Shards
import Synthesis

/// Time to name one screen's icons: `icons` crops of synthetic screens' icon boxes, cut from the
/// screenshot as `describe` cuts them and classified in one batch (load excluded).
public struct IconMeasurement: Codable {
    public var threads: Int
    public var icons: Int
    /// Median milliseconds for the whole batch (crop, ink maps, forward, probabilities), and per icon.
    public var batchMilliseconds: Double
    public var perIconMilliseconds: Double

    enum CodingKeys: String, CodingKey {
        case threads, icons
        case batchMilliseconds = "batch_ms", perIconMilliseconds = "per_icon_ms"
    }
}

/// Every case of one `bench icons` run, with the machine and network it was measured on.
public struct IconBenchmarkReport: Codable {
    public var machine: Machine
    public var network: IconNet.Config
    public var repeats: Int
    public var results: [IconMeasurement]
}

public struct IconBenchmark {
    public var network: IconNet.Config
    public var icons: Int
    public var threadCounts: [Int]
    public var repeats: Int

    public init(network: IconNet.Config, icons: Int = 40, threadCounts: [Int] = [1, 2], repeats: Int = 11) {
        (self.network, self.icons, self.threadCounts, self.repeats) = (network, icons, threadCounts, repeats)
    }

    /// Each thread count in turn. The weights are random: the time does not depend on them.
    public func run(progress: (String) -> Void = { _ in }) throws -> IconBenchmarkReport {
        let (screens, boxes) = try iconBoxes()
        var g = SeededGenerator(seed: 7)
        let classifier = IconClassifier(network: IconNet(config: network, generator: &g), threshold: 0.5)
        let results = threadCounts.map { t in
            progress("\(icons) icons, \(t) thread\(t == 1 ? "" : "s")")
            let seconds = Parallel.withThreads(t) {
                medianSeconds(repeats: repeats) {
                    _ = classifier.classify(boxes.map { IconInput.crop(screens[$0.screen], box: $0.box) })
                }
            }
            return IconMeasurement(threads: t, icons: icons, batchMilliseconds: 1000 * seconds, perIconMilliseconds: 1000 * seconds / Double(icons))
        }
        return IconBenchmarkReport(machine: .current(threads: threadCounts.max() ?? 1), network: network, repeats: repeats, results: results)
    }

    /// The first `icons` icon boxes of phone-size synthetic screens, with the screenshots they are on.
    private func iconBoxes() throws -> ([RGBImage], [(screen: Int, box: Box)]) {
        let synthesizer = try ScreenSynthesizer(size: Size(width: 390, height: 844), seed: 7, appCount: 4)
        var screens: [RGBImage] = []
        var boxes: [(screen: Int, box: Box)] = []
        for index in 0..<200 where boxes.count < icons {
            let record = synthesizer.screen(index: index)
            guard let image = record.image, let types = record.iconTypes else { continue }
            screens.append(image)
            for (i, box) in record.boxes.enumerated() where !types[i].isEmpty && boxes.count < icons {
                boxes.append((screens.count - 1, box))
            }
        }
        guard boxes.count == icons else { throw BenchmarkError("found only \(boxes.count) icons on 200 synthetic screens") }
        return (screens, boxes)
    }
}
