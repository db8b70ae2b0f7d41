import Foundation

/// The frame every page shares: one stylesheet, escaping, and atomic writing.
public enum HTML {
    /// Text safe inside HTML elements and attribute values.
    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let style = """
    body{font-family:-apple-system,Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1200px}
    table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right}
    th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
    .curves{display:flex;flex-wrap:wrap;gap:12px}.curve{border:1px solid #ddd;padding:6px}
    .curve h4{margin:0 0 4px 0;font-size:13px}.note{color:#666;font-size:12px}
    """

    /// A whole self-contained page: inline CSS, `body` as given, nothing fetched from the network.
    public static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        \(style)
        </style></head><body>
        <h1>\(escape(title))</h1>
        \(body)
        </body></html>

        """
    }

    /// Writes a page atomically.
    static func write(_ page: String, to url: URL) throws {
        try Data(page.utf8).write(to: url, options: .atomic)
    }
}
