import Foundation

extension CheckKind {
    /// What the check looks for, with its threshold, as a heading.
    func heading(_ o: DataCheckOptions) -> String {
        switch self {
        case .nearDuplicate: return "near-duplicate screens across splits (\(PerceptualHash.bitCount)-bit difference hash, distance <= \(o.maxHashDistance))"
        case .groupInTwoSplits: return "groups (apps) in two splits"
        case .duplicateBox: return "duplicate boxes (same class, IoU > \(o.duplicateIoU))"
        case .tinyBox: return "tiny boxes (a side under \(String(format: "%g", o.minBoxSide)) px)"
        case .boxOutsideImage: return "boxes cut by the image edge (beyond it by more than \(String(format: "%g", o.edgeTolerance)) px)"
        case .rareClass: return "classes with fewer than \(o.minBoxesPerClass) boxes in a split"
        case .emptyScreen: return "screens with no boxes"
        }
    }
}

extension DataCheckReport {
    /// A plain-text report for a person: the splits, the sizes, then each check with at most
    /// `limit` of its findings (the JSON form has them all).
    public func text(limit: Int = 20) -> String {
        var lines: [String] = []
        for s in splits {
            lines.append("\(s.name): \(s.screens) screens in \(s.shards.count) shard\(s.shards.count == 1 ? "" : "s"), \(s.groups) groups, \(s.boxes) boxes")
        }
        func list(_ sizes: [SizeCount]) -> String {
            let shown = sizes.prefix(5).map { "\($0.size) (\($0.screens))" }.joined(separator: ", ")
            return sizes.count > 5 ? shown + ", ... \(sizes.count) sizes in all" : shown
        }
        var sizes = "image sizes: stored \(list(imageSizes.stored))"
        if !imageSizes.original.isEmpty { sizes += "; original \(list(imageSizes.original))" }
        if imageSizes.aspectRange.count == 2 {
            sizes += String(format: "; height/width %.2f-%.2f", imageSizes.aspectRange[0], imageSizes.aspectRange[1])
        }
        lines += [sizes, ""]
        for kind in CheckKind.allCases {
            let found = findings(kind)
            guard !found.isEmpty else {
                lines.append("ok       \(kind.heading(options))")
                continue
            }
            lines.append("\(kind.severity == .error ? "ERROR  " : "warning") \(kind.heading(options)): \(found.count)")
            for f in found.prefix(limit) {
                // Messages of screen checks lack the screen: it comes first, as the place to look.
                let prefix = f.screens.count == 1 ? "\(f.screens[0]): " : ""
                lines.append("    " + prefix + f.message)
            }
            if found.count > limit { lines.append("    ... and \(found.count - limit) more (--json lists all)") }
        }
        lines.append("")
        let verdict = passed ? "passed" : "FAILED: the splits leak into each other"
        lines.append("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"): \(verdict)")
        return lines.joined(separator: "\n")
    }
}
