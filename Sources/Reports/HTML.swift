import Foundation

/// The frame every page shares: one stylesheet, escaping, and atomic writing.
public enum HTML {
    /// Text safe inside HTML elements and attribute values.
    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Tables with a grey header row, numbers right-aligned and the first column left.
    static let tableStyle = """
        table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right}
        th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
        """

    /// Curves and pictures side by side, and small notes.
    static let figureStyle = """
        .curves{display:flex;flex-wrap:wrap;gap:12px}.curve{border:1px solid #ddd;padding:6px}
        .curve h4{margin:0 0 4px 0;font-size:13px}.note{color:#666;font-size:12px}
        h1{overflow-wrap:anywhere}code{overflow-wrap:anywhere;font-size:12px}
        table.kv{margin-bottom:12px}table.kv th{text-align:left;vertical-align:top;background:none;white-space:nowrap}table.kv td{text-align:left}
        .headline{font-size:15px}
        .legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;margin:6px 0 10px 0}
        .legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-2px;border:1px solid #0006}
        .screens{display:flex;flex-wrap:wrap;gap:16px}.screen{border:1px solid #ddd;padding:6px}
        .screen h4{margin:0 0 4px 0;font-size:12px;overflow-wrap:anywhere;max-width:530px}
        .pair{display:flex;gap:8px}.pair figure{margin:0}.pair figcaption{font-size:11px;color:#666;text-align:center}
        """

    /// The page up to and including its heading: `title`, the common body style (as wide as
    /// `maxWidth` pixels at most), then `style`.
    static func head(title: String, maxWidth: Int?, style: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body{font-family:-apple-system,Helvetica,Arial,sans-serif;margin:24px;color:#222\(maxWidth.map { ";max-width:\($0)px" } ?? "")}
        \(style)
        </style></head><body>
        <h1>\(escape(title))</h1>

        """
    }

    /// A whole self-contained page with tables and figures: inline CSS, `body` as given, nothing fetched from the network.
    public static func page(title: String, body: String) -> String {
        head(title: title, maxWidth: 1200, style: tableStyle + "\n" + figureStyle) + body + "\n</body></html>\n"
    }

    /// Writes a page atomically.
    static func write(_ page: String, to url: URL) throws {
        try Data(page.utf8).write(to: url, options: .atomic)
    }
}
