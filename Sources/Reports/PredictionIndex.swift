import Foundation
import Images

/// `index.html` beside `predict`'s overlay PNGs: every screenshot as a thumbnail linking to its
/// full-size overlay, with its file, size and what was found, and the class colours.
public struct PredictionIndex {
    /// One screenshot of the run.
    public struct Entry {
        public var imageID: String
        /// The overlay's file name in the same folder.
        public var overlay: String
        /// The screenshot's own path, size and its detections' classes (indices into the class names).
        public var source: String
        public var width: Int
        public var height: Int
        public var labels: [Int]

        public init(imageID: String, overlay: String, source: String, width: Int, height: Int, labels: [Int]) {
            self.imageID = imageID
            self.overlay = overlay
            self.source = source
            self.width = width
            self.height = height
            self.labels = labels
        }
    }

    /// The file's name beside the PNGs.
    public static let fileName = "index.html"

    public var title: String
    /// What the run used (checkpoint, thresholds), one line each.
    public var notes: [String]
    public var classNames: [String]
    public var entries: [Entry]

    public init(title: String, notes: [String], classNames: [String], entries: [Entry]) {
        self.title = title
        self.notes = notes
        self.classNames = classNames
        self.entries = entries
    }

    /// The page; pictures are the overlay files beside it, by relative link.
    public func html() -> String {
        let e = HTML.escape
        var h = notes.map { "<p class=\"note\">\(e($0))</p>" }.joined()
        h += "<p>\(entries.count) screenshots, \(entries.reduce(0) { $0 + $1.labels.count }) detections. Click a picture for its full size.</p>"
        h += "<div class=\"legend\">" + classNames.enumerated().map { k, name in
            "<span><i style=\"background:\(EvaluationReport.hex(ClassColors.color(k)))\"></i>\(e(name))</span>"
        }.joined() + "</div><div class=\"shots\">"
        for entry in entries {
            var counts = [Int](repeating: 0, count: classNames.count)
            for l in entry.labels where l >= 0 && l < counts.count { counts[l] += 1 }
            let found = counts.enumerated().filter { $0.element > 0 }.sorted { $0.element > $1.element }
                .map { "\(e(classNames[$0.offset])) \($0.element)" }.joined(separator: ", ")
            let link = e(Self.relativeLink(entry.overlay))
            h += "<figure class=\"shot\"><a href=\"\(link)\"><img src=\"\(link)\" alt=\"\(e(entry.imageID))\" loading=\"lazy\"></a>"
            h += "<figcaption><b>\(e(entry.imageID))</b><br>\(entry.width) &times; \(entry.height)"
            h += " &middot; \(entry.labels.count) detections<br><span class=\"found\">\(found.isEmpty ? "nothing found" : found)</span>"
            h += "<br><code>\(e(entry.source))</code></figcaption></figure>"
        }
        h += "</div>"
        let style = """
            .shots{display:flex;flex-wrap:wrap;gap:14px}.shot{margin:0;width:240px;border:1px solid #ddd;padding:6px}
            .shot img{width:240px;height:auto;display:block;background:#eee}.shot figcaption{font-size:12px;margin-top:4px;overflow-wrap:anywhere}
            .found{color:#444}
            """
        return HTML.head(title: title, maxWidth: nil, style: HTML.tableStyle + "\n" + HTML.figureStyle + "\n" + style) + h + "\n</body></html>\n"
    }

    /// A file name as a relative URL: each path segment percent-encoded (spaces, '#', '?' and '%' included).
    static func relativeLink(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "#?%;")
        return name.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }.joined(separator: "/")
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws { try HTML.write(html(), to: url) }
}
