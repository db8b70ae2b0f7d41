import Foundation
@testable import ScreenDescription
import XCTest

final class ConfigTests: XCTestCase {
    func testKeysAreSnakeCaseAndTheDefaultsSurviveARoundTrip() throws {
        let data = try JSONEncoder().encode(DescriptionConfig())
        let text = String(decoding: data, as: UTF8.self)
        for key in ["\"inside_fraction\":0.9", "\"max_gap_in_segment_widths\":1", "\"headings_apart\":true", "\"spacing_tolerance\":0.25", "\"icon_captions\":", "\"min_section_rows\":2", "\"bottom_fraction\":0.2",
                    "\"max_distance_from_bottom\":0.08", "\"max_gap\":0.03", "\"quantisation_bits\":5", "\"min_difference\":24",
                    "\"list_rows\":", "\"navigation_order\":{\"enabled\":true}"] {
            XCTAssertTrue(text.contains(key), "\(key) in \(text)")
        }
        XCTAssertEqual(try JSONDecoder().decode(DescriptionConfig.self, from: data), DescriptionConfig())
    }

    func testImpossibleValuesAreNamedByTheirKey() {
        var config = DescriptionConfig()
        XCTAssertTrue(config.problems().isEmpty)
        config.insideFraction = 1.5
        config.selection.quantisationBits = 9
        config.grouping.tabButtons.minButtons = 0
        XCTAssertEqual(config.problems().map(\.key), ["inside_fraction", "grouping.tab_buttons.min_buttons", "selection.quantisation_bits"])
        XCTAssertTrue(DescriptionConfig.paper.problems().isEmpty)
    }

    func testThePaperPresetSwitchesOffOnlyWhatIsOurs() {
        let paper = DescriptionConfig.paper
        XCTAssertFalse(paper.grouping.iconText.enabled || paper.grouping.labelField.enabled || paper.grouping.listRows.enabled)
        XCTAssertTrue(paper.grouping.textLines.enabled && paper.grouping.tabButtons.enabled && paper.grouping.containers.enabled && paper.grouping.pictureSubtitles.enabled)
        XCTAssertEqual(paper.grouping.tabButtons.bottomFraction, 0.2)
        XCTAssertEqual(paper.grouping.tabButtons.maxDistanceFromBottom, 0.08)
        XCTAssertEqual(paper.grouping.tabButtons.minButtons, 1, "a minimum is ours")
        XCTAssertEqual(paper.ocrText.minConfidence, 0)
        XCTAssertEqual(paper.ocrText.ignoredClasses, [], "the spec: lines that overlap no detection")
        XCTAssertFalse(paper.headers.enabled || paper.selection.backgroundCue)
        XCTAssertFalse(paper.grouping.textLines.headingsApart || paper.grouping.containers.sections || paper.grouping.iconCaptions.enabled)
        XCTAssertEqual(paper.grouping.tabButtons.spacingTolerance, .greatestFiniteMagnitude)
        XCTAssertTrue(paper.selection.underlineCue && paper.selection.textCue)
    }
}
