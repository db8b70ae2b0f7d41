import Boxes
import Foundation

/// Counts and distributions over a set of shards (the paper's Figure 2).
public struct DatasetStatistics: Codable, Equatable {
    public struct Distribution: Codable, Equatable {
        public var mean: Double
        public var median: Double
        public var p10: Double
        public var p90: Double
        public var max: Double

        init(_ values: [Double]) {
            let v = values.sorted()
            func q(_ p: Double) -> Double { v.isEmpty ? 0 : v[min(v.count - 1, Int(p * Double(v.count - 1)))] }
            mean = v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count)
            median = q(0.5); p10 = q(0.1); p90 = q(0.9); max = v.last ?? 0
        }
    }

    public struct ClassSizes: Codable, Equatable {
        /// sqrt(box area / image area): the box's side as a fraction of the screen's.
        public var relativeSide: Distribution
        public var widthPixels: Distribution
        public var heightPixels: Distribution
    }

    public var shards: Int
    public var images: Int
    public var boxes: Int
    public var groups: Int
    public var classNames: [String]
    /// Box count per class name.
    public var classes: [String: Int]
    public var boxesPerImage: Distribution
    public var boxSizes: [String: ClassSizes]

    enum CodingKeys: String, CodingKey {
        case shards, images, boxes, groups, classes
        case classNames = "class_names", boxesPerImage = "boxes_per_image", boxSizes = "box_sizes"
    }

    /// Gathers the statistics of `set` from its annotations (no pixels are read).
    public init(_ set: ShardSet) {
        shards = set.readers.count
        images = set.count
        classNames = set.classNames
        var counts = [Int](repeating: 0, count: set.classNames.count)
        var perImage: [Double] = []
        var sides = [[Double]](repeating: [], count: counts.count), widths = sides, heights = sides
        var groupSet = Set<String>()
        for r in set.readers {
            let area = Double((r.imageSize ?? Size(width: 1, height: 1)).width * (r.imageSize ?? Size(width: 1, height: 1)).height)
            for i in 0..<r.count {
                perImage.append(Double(r.boxRange(i).count))
                groupSet.insert(r.groupIDs[i])
            }
            for (b, l) in zip(r.boxes, r.labels) {
                counts[Int(l)] += 1
                sides[Int(l)].append((b.area / area).squareRoot())
                widths[Int(l)].append(Double(b.width))
                heights[Int(l)].append(Double(b.height))
            }
        }
        boxes = counts.reduce(0, +)
        groups = groupSet.count
        classes = Dictionary(uniqueKeysWithValues: zip(set.classNames, counts))
        boxesPerImage = Distribution(perImage)
        var sizes: [String: ClassSizes] = [:]
        for (k, name) in set.classNames.enumerated() where counts[k] > 0 {
            sizes[name] = ClassSizes(relativeSide: Distribution(sides[k]), widthPixels: Distribution(widths[k]), heightPixels: Distribution(heights[k]))
        }
        boxSizes = sizes
    }

    /// A plain-text table for a person.
    public func table() -> String {
        var lines = ["\(images) images in \(shards) shard\(shards == 1 ? "" : "s"), \(groups) groups (apps), \(boxes) boxes",
                     String(format: "boxes per image: mean %.1f, median %.0f, 10%%-90%% %.0f-%.0f, max %.0f",
                            boxesPerImage.mean, boxesPerImage.median, boxesPerImage.p10, boxesPerImage.p90, boxesPerImage.max),
                     "",
                     "class                 boxes   share   side/screen median (p10-p90)   width px median   height px median"]
        for name in classNames {
            let n = classes[name] ?? 0
            let share = boxes > 0 ? 100 * Double(n) / Double(boxes) : 0
            if let s = boxSizes[name] {
                lines.append(String(format: "%@ %7d  %5.1f%%        %.3f (%.3f-%.3f)        %10.0f      %10.0f",
                                    name.padding(toLength: 20, withPad: " ", startingAt: 0), n, share,
                                    s.relativeSide.median, s.relativeSide.p10, s.relativeSide.p90, s.widthPixels.median, s.heightPixels.median))
            } else {
                lines.append(String(format: "%@ %7d  %5.1f%%", name.padding(toLength: 20, withPad: " ", startingAt: 0), n, share))
            }
        }
        return lines.joined(separator: "\n")
    }
}
