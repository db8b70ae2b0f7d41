/// What the self-contained pages of this module share: the head with the common CSS, and escaping.
enum HTMLPage {
    /// Tables with a grey header row, numbers right-aligned and the first column left.
    static let tableStyle = """
        table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right}
        th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
        """

    /// The page up to and including its heading: `title`, the common body style (as wide as
    /// `maxWidth` pixels at most), then `style`.
    static func head(title: String, maxWidth: Int?, style: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>\(escapeHTML(title))</title>
        <style>
        body{font-family:-apple-system,Helvetica,Arial,sans-serif;margin:24px;color:#222\(maxWidth.map { ";max-width:\($0)px" } ?? "")}
        \(style)
        </style></head><body>
        <h1>\(escapeHTML(title))</h1>

        """
    }
}

/// `text` safe inside HTML text and attribute values.
func escapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}
