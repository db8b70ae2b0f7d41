import Foundation

/// A confusion matrix as an SVG heat map with counts: rows are the truth, columns what was
/// said; shaded by count (logarithmically) or by the share of the row.
struct HeatMap {
    var names: [String]
    /// `counts[truth][said]`.
    var counts: [[Int]]
    /// Cell side in pixels (large matrices use smaller cells).
    var cell = 34.0

    func svg(normalised: Bool) -> String {
        let n = names.count
        let textWidth = Double(names.map(\.count).max() ?? 0) * 6.0
        let left = max(60, textWidth + 14), top = max(40, textWidth * 0.77 + 16)
        let width = left + cell * Double(n) + max(20, textWidth * 0.64 - cell / 2 + 10)
        let font = cell >= 30 ? 10.0 : 8.0
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(top + cell * Double(n) + 10))\" font-size=\"\(Int(font))\">"
        for (j, name) in names.enumerated() {
            let x = left + (Double(j) + 0.5) * cell
            s += "<text x=\"\(x)\" y=\"\(top - 6)\" transform=\"rotate(-50 \(x) \(top - 6))\">\(HTML.escape(name))</text>"
            s += "<text x=\"\(left - 6)\" y=\"\(top + (Double(j) + 0.6) * cell)\" text-anchor=\"end\">\(HTML.escape(name))</text>"
        }
        let maxCount = max(1, counts.flatMap { $0 }.max() ?? 1)
        for i in 0..<n {
            let rowTotal = max(1, counts[i].reduce(0, +))
            for j in 0..<n {
                let count = counts[i][j]
                let value = normalised ? Double(count) / Double(rowTotal) : (count == 0 ? 0 : log(1 + Double(count)) / log(1 + Double(maxCount)))
                let shade = Int(255 * (1 - value))
                let fill = "rgb(\(shade),\(min(255, shade + 30)),255)"
                s += "<rect x=\"\(left + Double(j) * cell)\" y=\"\(top + Double(i) * cell)\" width=\"\(cell)\" height=\"\(cell)\" fill=\"\(fill)\" stroke=\"#fff\"/>"
                let text = normalised ? (count == 0 ? "" : String(format: "%.2f", Double(count) / Double(rowTotal))) : (count == 0 ? "" : "\(count)")
                s += "<text x=\"\(left + (Double(j) + 0.5) * cell)\" y=\"\(top + (Double(i) + 0.6) * cell)\" text-anchor=\"middle\" fill=\"\(value > 0.55 ? "#fff" : "#222")\">\(text)</text>"
            }
        }
        return s + "</svg>"
    }
}
