import Foundation

/// An SVG line chart of a few series against a shared x axis (training steps), with nice
/// round ticks and a legend. Points with a nil value are skipped.
struct LineChart {
    struct Series {
        var name: String
        var color: String
        var points: [(x: Double, y: Double)]
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var series: [Series]
    var width = 520.0, height = 260.0

    func svg() -> String {
        let (left, right, top, bottom) = (56.0, 12.0, 24.0, 40.0)
        let plotW = width - left - right, plotH = height - top - bottom
        let all = series.flatMap(\.points)
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-size=\"10\">"
        s += "<text x=\"\(left)\" y=\"14\" font-size=\"12\" font-weight=\"bold\">\(HTML.escape(title))</text>"
        guard let x0 = all.map(\.x).min(), let x1 = all.map(\.x).max(), let y0 = all.map(\.y).min(), let y1 = all.map(\.y).max() else {
            return s + "<text x=\"\(left)\" y=\"\(top + 20)\">no data yet</text></svg>"
        }
        let (xs, ys) = (Self.ticks(x0, x1), Self.ticks(min(0, y0), y1))
        let (xMin, xMax, yMin, yMax) = (xs.first!, xs.last!, ys.first!, ys.last!)
        func px(_ x: Double) -> Double { left + (xMax > xMin ? (x - xMin) / (xMax - xMin) : 0.5) * plotW }
        func py(_ y: Double) -> Double { top + (1 - (yMax > yMin ? (y - yMin) / (yMax - yMin) : 0.5)) * plotH }
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotW)\" height=\"\(plotH)\" fill=\"#fafafa\" stroke=\"#999\"/>"
        for t in xs {
            s += "<line x1=\"\(px(t))\" y1=\"\(top)\" x2=\"\(px(t))\" y2=\"\(top + plotH)\" stroke=\"#e4e4e4\"/>"
            s += "<text x=\"\(px(t))\" y=\"\(top + plotH + 12)\" text-anchor=\"middle\">\(Self.format(t))</text>"
        }
        for t in ys {
            s += "<line x1=\"\(left)\" y1=\"\(py(t))\" x2=\"\(left + plotW)\" y2=\"\(py(t))\" stroke=\"#e4e4e4\"/>"
            s += "<text x=\"\(left - 4)\" y=\"\(py(t) + 3)\" text-anchor=\"end\">\(Self.format(t))</text>"
        }
        s += "<text x=\"\(left + plotW / 2)\" y=\"\(height - 6)\" text-anchor=\"middle\">\(HTML.escape(xLabel))</text>"
        s += "<text x=\"12\" y=\"\(top + plotH / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 12 \(top + plotH / 2))\">\(HTML.escape(yLabel))</text>"
        for (k, line) in series.enumerated() where !line.points.isEmpty {
            let coords = line.points.map { String(format: "%.1f,%.1f", px($0.x), py($0.y)) }.joined(separator: " ")
            s += line.points.count == 1
                ? "<circle cx=\"\(px(line.points[0].x))\" cy=\"\(py(line.points[0].y))\" r=\"3\" fill=\"\(line.color)\"/>"
                : "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"1.5\" points=\"\(coords)\"/>"
            let ly = top + 12 + Double(k) * 13
            s += "<line x1=\"\(left + plotW - 120)\" y1=\"\(ly - 3)\" x2=\"\(left + plotW - 104)\" y2=\"\(ly - 3)\" stroke=\"\(line.color)\" stroke-width=\"2\"/>"
            s += "<text x=\"\(left + plotW - 100)\" y=\"\(ly)\">\(HTML.escape(line.name))</text>"
        }
        return s + "</svg>"
    }

    /// Round ticks (1, 2 or 5 times a power of ten) covering [lo, hi].
    static func ticks(_ lo: Double, _ hi: Double) -> [Double] {
        guard hi > lo else { return [lo, lo + 1] }
        let raw = (hi - lo) / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let first = floor(lo / step) * step
        return stride(from: first, through: ceil(hi / step) * step + step / 2, by: step).map { $0 }
    }

    static func format(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e6 { return String(Int(v)) }
        return String(format: abs(v) < 0.01 ? "%.1e" : "%.3g", v)
    }
}
