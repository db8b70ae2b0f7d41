import Foundation
import SeededRandom

/// Divides screens into named parts by group (app), so that no group sits in
/// two parts, while keeping each class's share of boxes close to the target
/// fractions in every part (a greedy, stratified assignment of whole groups).
public struct GroupSplit {
    public struct Part: Equatable {
        public var name: String
        public var fraction: Double
        public init(name: String, fraction: Double) {
            self.name = name
            self.fraction = fraction
        }
    }

    /// How the result compares with the targets.
    public struct Report: Equatable {
        /// Screens per part.
        public var images: [Int]
        /// Groups (apps) per part.
        public var groups: [Int]
        /// Per class, boxes per part.
        public var classCounts: [[Int]]
        /// Largest |share of a class's boxes in a part - the part's fraction| over classes with >= 20 boxes.
        public var maxClassShareDeviation: Double
        public var worstClass: Int?
    }

    public let parts: [Part]
    public let seed: UInt64

    public init(parts: [Part], seed: UInt64) {
        precondition(!parts.isEmpty && parts.allSatisfy { $0.fraction >= 0 }, "fractions must be non-negative")
        let total = parts.reduce(0) { $0 + $1.fraction }
        self.parts = parts.map { Part(name: $0.name, fraction: $0.fraction / total) }
        self.seed = seed
    }

    /// The part of each screen; `groups[i]` is screen i's group, `classCounts[i]` its boxes per class.
    public func assign(groups: [String], classCounts: [[Int]], classes: Int) -> (parts: [Int], report: Report) {
        var members: [String: [Int]] = [:]
        for (i, g) in groups.enumerated() { members[g, default: []].append(i) }
        var order = members.keys.sorted()
        var g = SeededGenerator(seed: seed)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(g.next() % UInt64(i + 1))) }

        var totals = [Double](repeating: 0, count: classes)
        for c in classCounts { for k in 0..<classes { totals[k] += Double(c[k]) } }
        let totalImages = Double(groups.count)
        // Groups rich in rare classes first, so that they land where they are needed.
        func groupCounts(_ name: String) -> [Double] {
            var v = [Double](repeating: 0, count: classes)
            for i in members[name]! { for k in 0..<classes { v[k] += Double(classCounts[i][k]) } }
            return v
        }
        let counts = Dictionary(uniqueKeysWithValues: order.map { ($0, groupCounts($0)) })
        func rarity(_ name: String) -> Double { zip(counts[name]!, totals).reduce(0) { $0 + ($1.1 > 0 ? $1.0 / $1.1 : 0) } }
        let ranked = order.enumerated().sorted { (a, b) in
            let (ra, rb) = (rarity(a.element), rarity(b.element))
            return ra != rb ? ra > rb : a.offset < b.offset
        }.map(\.element)

        var assignedClass = [[Double]](repeating: [Double](repeating: 0, count: classes), count: parts.count)
        var assignedImages = [Double](repeating: 0, count: parts.count)
        var result = [Int](repeating: 0, count: groups.count)
        for name in ranked {
            let c = counts[name]!
            let size = Double(members[name]!.count)
            var best = 0, bestScore = -Double.infinity
            for (p, part) in parts.enumerated() where part.fraction > 0 {
                // How far below its target the part is, in the classes this group carries and in images.
                var score = 0.0
                for k in 0..<classes where c[k] > 0 && totals[k] > 0 {
                    score += (c[k] / totals[k]) * (part.fraction - assignedClass[p][k] / totals[k])
                }
                score += (size / totalImages) * (part.fraction - assignedImages[p] / totalImages)
                if score > bestScore { bestScore = score; best = p }
            }
            for k in 0..<classes { assignedClass[best][k] += c[k] }
            assignedImages[best] += size
            for i in members[name]! { result[i] = best }
        }

        var report = Report(images: [Int](repeating: 0, count: parts.count),
                            groups: parts.indices.map { p in ranked.filter { result[members[$0]![0]] == p }.count },
                            classCounts: [[Int]](repeating: [Int](repeating: 0, count: parts.count), count: classes),
                            maxClassShareDeviation: 0, worstClass: nil)
        for (i, p) in result.enumerated() {
            report.images[p] += 1
            for k in 0..<classes { report.classCounts[k][p] += classCounts[i][k] }
        }
        for k in 0..<classes where totals[k] >= 20 {
            for (p, part) in parts.enumerated() {
                let d = abs(Double(report.classCounts[k][p]) / totals[k] - part.fraction)
                if d > report.maxClassShareDeviation { report.maxClassShareDeviation = d; report.worstClass = k }
            }
        }
        return (result, report)
    }
}

/// A part that was meant to hold screens but got none: groups are never divided, so a
/// part whose share is less than one whole group can end up empty.
public struct EmptyPart: Equatable, CustomStringConvertible {
    public var name: String
    public var fraction: Double
    /// Screens and groups split in all.
    public var screens: Int
    public var groups: Int
    /// Fractions that give every part at least one group, in the order of the parts; nil when
    /// there are fewer groups than parts.
    public var suggestedFractions: [Double]?

    public var description: String {
        let why = "\(screens) screens come from \(groups) group\(groups == 1 ? "" : "s") (apps), a group is never divided, "
            + String(format: "and %.3g of them is less than one whole group", fraction * Double(groups))
        let fix = suggestedFractions.map { "; try --fractions " + $0.map { String(format: "%.3g", $0) }.joined(separator: ",") + " or data with more groups" }
            ?? "; use at most \(groups) part\(groups == 1 ? "" : "s") (--fractions and --names) or data with more groups"
        return String(format: "part '%@' (fraction %.3g) is empty: ", name, fraction) + why + fix
    }
}

extension GroupSplit {
    /// The parts with a positive fraction that `report` leaves without screens.
    public func emptyParts(in report: Report) -> [EmptyPart] {
        let groups = report.groups.reduce(0, +), screens = report.images.reduce(0, +)
        let wanted = parts.indices.filter { parts[$0].fraction > 0 }
        // One group's worth for each small part, the rest to the largest: every part gets a group.
        var suggestion: [Double]? = nil
        if groups >= wanted.count, let largest = wanted.max(by: { parts[$0].fraction < parts[$1].fraction }) {
            let floor = 1 / Double(groups)
            var f = parts.map { $0.fraction > 0 ? max($0.fraction, floor) : 0 }
            f[largest] = max(0, 1 - f.indices.filter { $0 != largest }.reduce(0) { $0 + f[$1] })
            suggestion = f[largest] >= floor ? f : parts.map { $0.fraction > 0 ? 1 / Double(wanted.count) : 0 }
        }
        return wanted.filter { report.images[$0] == 0 }.map {
            EmptyPart(name: parts[$0].name, fraction: parts[$0].fraction, screens: screens, groups: groups, suggestedFractions: suggestion)
        }
    }

    /// Splits `set` by group and writes each part's screens, in the set's order, as shards
    /// `folder/<part>/<part>-00000.h5`, ...; `progress` gets (part, screens written, screens in the part).
    public func write(_ set: ShardSet, to folder: URL, shardSize: Int,
                      progress: (_ part: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) throws -> (parts: [Int], report: Report) {
        var groups: [String] = [], counts: [[Int]] = []
        for r in set.readers {
            for i in 0..<r.count {
                groups.append(r.groupIDs[i])
                var c = [Int](repeating: 0, count: set.classNames.count)
                for l in r.labels[r.boxRange(i)] { c[Int(l)] += 1 }
                counts.append(c)
            }
        }
        let (assignment, report) = assign(groups: groups, classCounts: counts, classes: set.classNames.count)
        for (p, part) in parts.enumerated() {
            let dir = folder.appendingPathComponent(part.name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            var writer: ShardWriter? = nil
            var written = 0, file = 0
            // Images pass through one at a time: memory stays bounded whatever the set's size.
            for i in 0..<set.count where assignment[i] == p {
                if writer == nil {
                    writer = try ShardWriter(url: dir.appendingPathComponent(String(format: "%@-%05d.h5", part.name, file)),
                                             classNames: set.classNames, imageSize: set.readers[set.locate(i).shard].imageSize)
                }
                try writer!.append(try set.record(at: i))
                written += 1
                if written % shardSize == 0 { try writer!.finish(); writer = nil; file += 1 }
                if written % 50 == 0 { progress(part.name, written, report.images[p]) }
            }
            try writer?.finish()
        }
        return (assignment, report)
    }
}
