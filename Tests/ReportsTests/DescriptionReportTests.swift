import Boxes
import Images
import Reports
import ScreenDescription
import TestSupport
import XCTest

final class DescriptionPageTests: XCTestCase {
    let screen = DescribedScreen(imageID: "scr<1>", width: 200, height: 400, elements: [
        DescribedElement(id: 0, kind: .text, frame: box(10, 20, 190, 50), label: "Fish & <Chips>", traits: [.header], score: 0.9, source: .detector),
        DescribedElement(id: 4, kind: .group, frame: box(10, 100, 190, 140), label: "Wi-Fi", value: "on", traits: [.button], selected: true,
                         interactive: true, score: 0.8, source: .group, children: [
                            DescribedElement(id: 1, kind: .text, frame: box(10, 100, 100, 140), label: "Wi-Fi", traits: [.staticText], score: 0.8, source: .detector),
                            DescribedElement(id: 2, kind: .toggleSelected, frame: box(140, 100, 190, 140), value: "on", traits: [.button], selected: true,
                                             interactive: true, score: 0.8, source: .detector),
                         ], actions: ["switch"]),
        DescribedElement(id: 3, kind: .icon, frame: box(80, 350, 120, 390), traits: [.button], interactive: true, score: 0.7, source: .detector),
    ])

    func testOneOutlinePerElementNumberedInOrderBesideWhatIsSpoken() throws {
        let html = try DescriptionPage(screen: screen, image: RGBImage(size: Size(width: 200, height: 400), fill: RGB(250, 250, 250)), title: "Fish <page>").html()
        XCTAssertEqual(html.components(separatedBy: "<rect class=\"outline\"").count - 1, 3)
        let numbers = ["1", "2", "3"].map { html.range(of: "font-weight=\"bold\">\($0)</text>")?.lowerBound }
        XCTAssertFalse(numbers.contains(nil))
        XCTAssertEqual(numbers.compactMap { $0 }, numbers.compactMap { $0 }.sorted())
        XCTAssertTrue(html.contains("<rect class=\"outline\" x=\"10.0\" y=\"100.0\" width=\"180.0\" height=\"40.0\""), html)
        let spoken = ["Fish &amp; &lt;Chips&gt;, heading", "Wi-Fi, switch button, on", "button"]
        let places = spoken.map { html.range(of: "<li>\($0) <span")?.lowerBound }
        XCTAssertFalse(places.contains(nil), html)
        XCTAssertEqual(places.compactMap { $0 }, places.compactMap { $0 }.sorted())
        XCTAssertTrue(html.contains("<title>Fish &lt;page&gt;</title>"))
        XCTAssertTrue(html.contains("scr&lt;1&gt;"))
        XCTAssertFalse(html.contains("<Chips>") || html.contains("<page>"))
    }

    func testThePageIsSelfContained() throws {
        let html = try DescriptionPage(screen: screen, image: RGBImage(size: Size(width: 200, height: 400)), title: "t").html()
        let outside = html.components(separatedBy: "http").dropFirst().filter { !$0.hasPrefix("://www.w3.org/2000/svg") }
        XCTAssertEqual(outside, [], "the page must open without the network")
        XCTAssertFalse(html.contains("href=") || html.contains("@import") || html.contains("url("))
        let sources = html.components(separatedBy: "src=\"").dropFirst()
        XCTAssertEqual(sources.count, 1)
        XCTAssertTrue(sources.allSatisfy { $0.hasPrefix("data:image/png;base64,iVBORw0KGgo") }, "the screenshot is inline PNG")
    }
}

final class DescriptionMetricsReportTests: XCTestCase {
    func metrics() -> DescriptionMetricsFile {
        var one = ScreenDescriptionMetrics(imageID: "a<b>", boxes: 10, topLevelElements: 4, matchedBoxes: 8, predictedGroups: 2,
                                           iconTruePositives: 3, iconFalsePositives: 1, iconFalseNegatives: 0, textEditDistance: 1, textTrueLength: 20)
        one.incorrectlyGrouped = 1
        one.shouldHaveGrouped = 0
        one.orderedElements = 4
        one.orderErrors = 0
        return DescriptionMetricsFile([one])
    }

    func testTheTableListsEachFigureBesideThePapers() {
        let text = DescriptionMetricsReport(metrics(), title: "m").text()
        let lines = text.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "1 screens")
        XCTAssertTrue(lines.contains("grouping errors per screen                1.00    0.62  1 screens"), text)
        XCTAssertTrue(lines.contains("predicted groups incorrectly grouped     50.0%    5.6%  2 groups"), text)
        XCTAssertTrue(lines.contains("reduction in elements to navigate        60.0%   48.5%  10 boxes, 4 elements"), text)
        XCTAssertTrue(lines.contains("icon button precision                    75.0%   90.0%  4 predicted buttons"), text)
        XCTAssertTrue(lines.contains("tab buttons: selection right                 -   90.5%  0 screens"), text)
        XCTAssertTrue(lines.contains("text character error rate                 5.0%       -  20 characters"), text)
    }

    func testThePageHoldsTheSameRowsAndNoExternalResources() {
        let html = DescriptionMetricsReport(metrics(), title: "<m>").html()
        XCTAssertTrue(html.contains("<tr><td>screens in perfect order</td><td>100.0%</td><td>73.7%</td><td>1 screens</td></tr>"), html)
        XCTAssertTrue(html.contains("<title>&lt;m&gt;</title>"))
        XCTAssertFalse(html.contains("http") || html.contains("src=") || html.contains("href="))
    }
}
