import Foundation
import Images
import ScreenDescription

/// One described screen for a person: the screenshot (embedded as a base64 PNG) with an inline
/// SVG overlay outlining each top-level element with its number in navigation order, and beside
/// it the ordered list of what a screen reader would speak. Nothing is fetched from the network.
public struct DescriptionPage {
    public var screen: DescribedScreen
    public var image: RGBImage
    public var title: String

    /// The page of `screen` over its screenshot `image` (original pixels, as the frames are).
    public init(screen: DescribedScreen, image: RGBImage, title: String) {
        self.screen = screen
        self.image = image
        self.title = title
    }

    /// The whole page: inline CSS, image and SVG.
    public func html() throws -> String {
        let png = try ImageCodec.encodePNG(image).base64EncodedString()
        let spoken = SpokenText.utterances(for: screen)
        // Shown at most 420 pixels wide; the SVG's viewBox keeps the frames in original pixels.
        let shownWidth = min(420, image.width)
        let stroke = max(1, Double(image.width) / Double(shownWidth) * 1.5)
        let fontSize = max(10, Double(image.width) / Double(shownWidth) * 12)
        var h = HTML.head(title: title, maxWidth: nil, style: """
        .screen{display:flex;gap:24px;align-items:flex-start}.shot{position:relative;flex:none}
        .shot img,.shot svg{display:block;width:\(shownWidth)px;height:auto}.shot svg{position:absolute;left:0;top:0;height:100%}
        ol{font-size:14px;line-height:1.5;max-width:560px}.kind{color:#888;font-size:12px}
        """)
        h += """
        <p>\(HTML.escape(screen.imageID)): \(screen.width)x\(screen.height) pixels, \(screen.elements.count) elements in navigation order.</p>
        <div class="screen"><div class="shot"><img alt="screenshot" src="data:image/png;base64,\(png)">
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(screen.width) \(screen.height)" preserveAspectRatio="none">
        """
        for (n, e) in screen.elements.enumerated() {
            let colour = Self.colour(n)
            let f = e.frame
            h += "<rect class=\"outline\" x=\"\(f.xMin)\" y=\"\(f.yMin)\" width=\"\(f.width)\" height=\"\(f.height)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(stroke)\"/>"
            h += "<text class=\"order\" x=\"\(f.xMin + Float(stroke))\" y=\"\(f.yMin + Float(fontSize))\" font-size=\"\(fontSize)\" fill=\"\(colour)\" font-weight=\"bold\">\(n + 1)</text>"
        }
        if let bar = screen.statusBar {
            let f = bar.frame
            h += "<rect class=\"status\" x=\"\(f.xMin)\" y=\"\(f.yMin)\" width=\"\(f.width)\" height=\"\(f.height)\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"\(2 * stroke)\" stroke-width=\"\(stroke)\"/>"
        }
        h += "</svg></div><div>"
        if let bar = screen.statusBar {
            // Outside the navigation order: VoiceOver reaches it by touch, not by swiping.
            h += "<p>Status bar, outside the order (dashed): \(HTML.escape(SpokenText.utterance(for: bar))) <span class=\"kind\">(id \(bar.id))</span></p>"
        }
        h += "<ol>"
        for (e, words) in zip(screen.elements, spoken) {
            h += "<li>\(HTML.escape(words)) <span class=\"kind\">(\(HTML.escape(e.kind.rawValue)), id \(e.id))</span></li>"
        }
        h += "</ol></div></div></body></html>\n"
        return h
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws {
        try Data(html().utf8).write(to: url, options: .atomic)
    }

    /// A colour per element number, from the class palette.
    static func colour(_ n: Int) -> String {
        let c = ClassColors.color(n)
        return String(format: "#%02x%02x%02x", c.r, c.g, c.b)
    }
}

/// The page listing a description run's screens, each linking to its own page.
public struct DescriptionIndexPage {
    /// One screen: its id, its page's file name, its top-level elements and what a screen reader says first.
    public struct Entry {
        public var imageID: String
        public var page: String
        public var elements: Int
        public var firstUtterance: String
        public init(imageID: String, page: String, elements: Int, firstUtterance: String) {
            self.imageID = imageID
            self.page = page
            self.elements = elements
            self.firstUtterance = firstUtterance
        }
    }

    /// The page's name in a description folder.
    public static let fileName = "index.html"

    public var title: String
    public var notes: [String]
    public var entries: [Entry]

    public init(title: String, notes: [String], entries: [Entry]) {
        self.title = title
        self.notes = notes
        self.entries = entries
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws {
        var h = notes.map { "<p>\(HTML.escape($0))</p>" }.joined()
        h += "<table><tr><th>screen</th><th>elements</th><th>first words</th></tr>"
        for e in entries {
            h += "<tr><td><a href=\"\(HTML.escape(e.page))\">\(HTML.escape(e.imageID))</a></td><td>\(e.elements)</td><td>\(HTML.escape(e.firstUtterance))</td></tr>"
        }
        try HTML.write(HTML.page(title: title, body: h + "</table>"), to: url)
    }
}
