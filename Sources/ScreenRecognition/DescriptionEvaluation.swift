import Boxes
import Foundation
import IconRecognition
import IconVocabulary
import Images
import Reports
import ScreenDescription
import Shards
import VocabularyMaps

/// A description.json scored against truth shards and written as `uidetect evaluate-description`
/// writes it: metrics.json and report.html, the report with a strip of the matched icons (cut from
/// the shards' stored pixels) and what was said for each, and the screens with the most grouping and
/// order errors, those errors outlined.
public enum DescriptionEvaluation {
    /// Scores the description file at `path` against `set`'s truth, its classes made description
    /// kinds through `vocabulary`, and writes the files into `folder` (a staging folder).
    public static func run(description path: String, truth set: ShardSet, vocabulary: VocabularyMap = .defaultVocabulary, title: String,
                           into folder: URL) throws -> DescriptionMetricsReport {
        let truths = try TruthScreens.read(set, vocabulary: vocabulary)
        let described = try DescriptionFile.read(from: URL(fileURLWithPath: path))
        // A described screen the truth lacks, or one whose size disagrees, is the description file's fault: name it.
        let screens: [DescriptionMetrics.MatchedScreen]
        do {
            screens = try DescriptionMetrics.pair(descriptions: described, truths: truths).map { try DescriptionMetrics.match($0.description, against: $0.truth) }
        } catch let error as ScreenTruthError where error.file == nil {
            throw error.located(in: path)
        }
        let metrics = DescriptionMetricsFile(screens.map(DescriptionMetrics.evaluate))
        let errors = screens.map(DescriptionMetrics.errors)
        let index = screenIndex(set)
        let report = DescriptionMetricsReport(metrics, title: title, icons: try icons(screens, set, index: index),
                                              errorScreens: try errorScreens(errors, set, index: index))
        try metrics.write(to: folder.appendingPathComponent(DescriptionMetricsFile.fileName))
        try report.write(to: folder.appendingPathComponent("report.html"))
        return report
    }

    /// The matched icons whose truth has a type, cut from the stored screens, at most a few hundred.
    static func icons(_ screens: [DescriptionMetrics.MatchedScreen], _ set: ShardSet, index: [String: Int]) throws
        -> [(crop: RGBImage, truth: IconType?, said: IconType?)] {
        var out: [(crop: RGBImage, truth: IconType?, said: IconType?)] = []
        for screen in screens where out.count < 400 {
            let matched = DescriptionMetrics.matchedIcons(screen).filter { $0.truth != nil }
            guard !matched.isEmpty, let i = index[screen.truth.imageID], let image = try set.record(at: i).image else { continue }
            out += matched.map { (IconInput.crop(image, box: $0.box), $0.truth, $0.said) }
        }
        return out
    }

    /// Each image id's screen in `set`.
    static func screenIndex(_ set: ShardSet) -> [String: Int] {
        var index: [String: Int] = [:]
        for i in 0..<set.count { let (k, local) = set.locate(i); index[set.readers[k].imageIDs[local]] = i }
        return index
    }

    /// The screens with the most grouping and order errors (most first, then in the description's order),
    /// drawn from the shards' stored pixels without letterbox padding, at most `DescriptionMetricsReport.errorScreensShown`.
    static func errorScreens(_ errors: [ScreenDescriptionErrors], _ set: ShardSet, index: [String: Int]) throws -> [DescriptionMetricsReport.ErrorScreen] {
        let worst = errors.indices.filter { errors[$0].count > 0 }
            .sorted { errors[$0].count != errors[$1].count ? errors[$0].count > errors[$1].count : $0 < $1 }
            .prefix(DescriptionMetricsReport.errorScreensShown)
        return try worst.compactMap { e in
            guard let i = index[errors[e].imageID], let image = try set.record(at: i).image else { return nil }
            let content = OutlinedPicture.content(of: set, screen: i, stored: image.size)
            let (picture, fraction) = try OutlinedPicture.screen(image, content: content, width: DescriptionMetricsReport.errorScreenWidth)
            return DescriptionMetricsReport.ErrorScreen(errors: errors[e], picture: picture, fraction: fraction)
        }
    }
}
