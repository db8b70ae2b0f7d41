import Foundation

/// The drawing of an SVG icon file as a `VectorGlyph`: its `path`, `circle` and `rect` elements
/// (with a `transform` matrix where given) and their fill rule, which is all bootstrap-icons uses.
/// Arcs become cubic curves, quadratic curves conic ones.
enum SVGGlyph {
    static func read(_ url: URL) throws -> VectorGlyph {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw GlyphError(path: url.path, problem: "cannot read the SVG file") }
        return try parse(text, path: url.path)
    }

    static func parse(_ text: String, path: String) throws -> VectorGlyph {
        var contours: [[VectorGlyph.Point]] = []
        var evenOdd = false
        for element in elements(in: text) {
            let a = element.attributes
            var drawn: [[VectorGlyph.Point]]
            switch element.name {
            case "path":
                guard let d = a["d"] else { continue }
                do { drawn = try PathData.contours(d) } catch { throw GlyphError(path: path, problem: "path data: \(error)") }
            case "circle":
                let (cx, cy, r) = (number(a["cx"]), number(a["cy"]), number(a["r"]))
                drawn = [ellipse(cx: cx, cy: cy, rx: r, ry: r)]
            case "rect":
                drawn = [rectangle(x: number(a["x"]), y: number(a["y"]), width: number(a["width"]), height: number(a["height"]), rx: number(a["rx"] ?? a["ry"]))]
            default:
                continue
            }
            if a["fill-rule"] == "evenodd" { evenOdd = true }
            if let t = a["transform"] {
                guard let m = matrix(t) else { throw GlyphError(path: path, problem: "transform '\(t)' is not a matrix(...) we read") }
                drawn = drawn.map { $0.map { p in VectorGlyph.Point(x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5], kind: p.kind) } }
            }
            contours += drawn
        }
        guard !contours.isEmpty else { throw GlyphError(path: path, problem: "no path, circle or rect to draw") }
        return VectorGlyph(contours: contours, evenOdd: evenOdd)
    }

    /// The elements of a (flat) SVG document with their attributes: enough for icon files.
    static func elements(in text: String) -> [(name: String, attributes: [String: String])] {
        var out: [(String, [String: String])] = []
        let scanner = Scanner(string: text)
        scanner.charactersToBeSkipped = nil
        while !scanner.isAtEnd {
            _ = scanner.scanUpToString("<")
            guard scanner.scanString("<") != nil else { break }
            guard let name = scanner.scanCharacters(from: .letters) else { continue }
            let body = scanner.scanUpToString(">") ?? ""
            var attributes: [String: String] = [:]
            let pattern = try! NSRegularExpression(pattern: #"([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*"([^"]*)""#)
            for m in pattern.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                attributes[String(body[Range(m.range(at: 1), in: body)!])] = String(body[Range(m.range(at: 2), in: body)!])
            }
            out.append((name, attributes))
        }
        return out
    }

    static func number(_ text: String?) -> Double { text.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0 }

    /// `matrix(a b c d e f)` (commas or spaces).
    static func matrix(_ text: String) -> [Double]? {
        guard text.hasPrefix("matrix("), text.hasSuffix(")") else { return nil }
        let values = text.dropFirst(7).dropLast().split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        return values.count == 6 ? values : nil
    }

    /// A full ellipse as four cubic quarter arcs.
    static func ellipse(cx: Double, cy: Double, rx: Double, ry: Double) -> [VectorGlyph.Point] {
        let k = 0.5522847498  // 4/3 (sqrt(2) - 1): the cubic closest to a quarter circle
        let (ox, oy) = (rx * k, ry * k)
        return [
            .init(x: cx + rx, y: cy, kind: .on),
            .init(x: cx + rx, y: cy + oy, kind: .cubic), .init(x: cx + ox, y: cy + ry, kind: .cubic), .init(x: cx, y: cy + ry, kind: .on),
            .init(x: cx - ox, y: cy + ry, kind: .cubic), .init(x: cx - rx, y: cy + oy, kind: .cubic), .init(x: cx - rx, y: cy, kind: .on),
            .init(x: cx - rx, y: cy - oy, kind: .cubic), .init(x: cx - ox, y: cy - ry, kind: .cubic), .init(x: cx, y: cy - ry, kind: .on),
            .init(x: cx + ox, y: cy - ry, kind: .cubic), .init(x: cx + rx, y: cy - oy, kind: .cubic),
        ]
    }

    /// A rectangle, its corners rounded by `rx` (quarter arcs) when positive.
    static func rectangle(x: Double, y: Double, width w: Double, height h: Double, rx r0: Double) -> [VectorGlyph.Point] {
        let r = min(r0, w / 2, h / 2)
        guard r > 0 else { return [.init(x: x, y: y, kind: .on), .init(x: x + w, y: y, kind: .on), .init(x: x + w, y: y + h, kind: .on), .init(x: x, y: y + h, kind: .on)] }
        let o = r * (1 - 0.5522847498)
        return [
            .init(x: x + r, y: y, kind: .on), .init(x: x + w - r, y: y, kind: .on),
            .init(x: x + w - o, y: y, kind: .cubic), .init(x: x + w, y: y + o, kind: .cubic), .init(x: x + w, y: y + r, kind: .on),
            .init(x: x + w, y: y + h - r, kind: .on),
            .init(x: x + w, y: y + h - o, kind: .cubic), .init(x: x + w - o, y: y + h, kind: .cubic), .init(x: x + w - r, y: y + h, kind: .on),
            .init(x: x + r, y: y + h, kind: .on),
            .init(x: x + o, y: y + h, kind: .cubic), .init(x: x, y: y + h - o, kind: .cubic), .init(x: x, y: y + h - r, kind: .on),
            .init(x: x, y: y + r, kind: .on),
            .init(x: x, y: y + o, kind: .cubic), .init(x: x + o, y: y, kind: .cubic),
        ]
    }
}

/// SVG path data (`d`): moveto, lineto (with H and V), cubic and quadratic curves (with their
/// smooth forms), elliptical arcs and closepath, absolute and relative, as closed contours.
enum PathData {
    struct Problem: Error, CustomStringConvertible { let description: String }

    static func contours(_ d: String) throws -> [[VectorGlyph.Point]] {
        var tokens = Tokens(Array(d.utf8))
        var out: [[VectorGlyph.Point]] = []
        var contour: [VectorGlyph.Point] = []
        var (x, y) = (0.0, 0.0), (startX, startY) = (0.0, 0.0)
        var lastControl: (x: Double, y: Double, cubic: Bool)?
        var command: UInt8 = 0
        func close() {
            // FreeType closes every contour itself: a last point equal to the first adds nothing.
            if contour.count > 1, let f = contour.first, let l = contour.last, l.kind == .on, abs(f.x - l.x) < 1e-9, abs(f.y - l.y) < 1e-9 { contour.removeLast() }
            if contour.count > 1 { out.append(contour) }
            contour = []
        }
        func on(_ px: Double, _ py: Double) { contour.append(.init(x: px, y: py, kind: .on)); (x, y) = (px, py) }
        while true {
            if let next = tokens.command() {
                command = next
            } else if command != 0 && tokens.peekNumber() {
                // Numbers after a command repeat it; after a moveto they are linetos.
                if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") } else if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            } else if tokens.atEnd {
                break
            } else {
                throw Problem(description: "a command letter was expected at byte \(tokens.i)")
            }
            let relative = command >= UInt8(ascii: "a")
            let (ox, oy) = relative ? (x, y) : (0, 0)
            var control: (x: Double, y: Double, cubic: Bool)? = nil
            switch command | 0x20 {  // lowercase
            case UInt8(ascii: "m"):
                close()
                let (px, py) = (try tokens.number() + ox, try tokens.number() + oy)
                on(px, py)
                (startX, startY) = (px, py)
            case UInt8(ascii: "l"): on(try tokens.number() + ox, try tokens.number() + oy)
            case UInt8(ascii: "h"): on(try tokens.number() + ox, y)
            case UInt8(ascii: "v"): on(x, try tokens.number() + oy)
            case UInt8(ascii: "c"):
                let p = try (0..<6).map { _ in try tokens.number() }
                contour.append(.init(x: p[0] + ox, y: p[1] + oy, kind: .cubic))
                contour.append(.init(x: p[2] + ox, y: p[3] + oy, kind: .cubic))
                control = (p[2] + ox, p[3] + oy, true)
                on(p[4] + ox, p[5] + oy)
            case UInt8(ascii: "s"):
                let p = try (0..<4).map { _ in try tokens.number() }
                let r = lastControl.flatMap { $0.cubic ? (2 * x - $0.x, 2 * y - $0.y) : nil } ?? (x, y)
                contour.append(.init(x: r.0, y: r.1, kind: .cubic))
                contour.append(.init(x: p[0] + ox, y: p[1] + oy, kind: .cubic))
                control = (p[0] + ox, p[1] + oy, true)
                on(p[2] + ox, p[3] + oy)
            case UInt8(ascii: "q"):
                let p = try (0..<4).map { _ in try tokens.number() }
                contour.append(.init(x: p[0] + ox, y: p[1] + oy, kind: .conic))
                control = (p[0] + ox, p[1] + oy, false)
                on(p[2] + ox, p[3] + oy)
            case UInt8(ascii: "t"):
                let p = try (0..<2).map { _ in try tokens.number() }
                let r = lastControl.flatMap { !$0.cubic ? (2 * x - $0.x, 2 * y - $0.y) : nil } ?? (x, y)
                contour.append(.init(x: r.0, y: r.1, kind: .conic))
                control = (r.0, r.1, false)
                on(p[0] + ox, p[1] + oy)
            case UInt8(ascii: "a"):
                let (rx, ry, angle) = (try tokens.number(), try tokens.number(), try tokens.number())
                let (large, sweep) = (try tokens.flag(), try tokens.flag())
                let (px, py) = (try tokens.number() + ox, try tokens.number() + oy)
                for p in arc(from: (x, y), to: (px, py), rx: rx, ry: ry, angle: angle, large: large, sweep: sweep) { contour.append(p) }
                (x, y) = (px, py)
            case UInt8(ascii: "z"):
                close()
                (x, y) = (startX, startY)
                command = 0
            default:
                throw Problem(description: "command '\(Character(Unicode.Scalar(command)))' is not SVG path data")
            }
            lastControl = control
        }
        close()
        return out
    }

    /// An elliptical arc (SVG's endpoint form, implementation notes F.6) as cubic pieces of at most
    /// a quarter turn each, ending with the on-curve end point.
    static func arc(from p0: (Double, Double), to p1: (Double, Double), rx rx0: Double, ry ry0: Double, angle: Double,
                    large: Bool, sweep: Bool) -> [VectorGlyph.Point] {
        var (rx, ry) = (abs(rx0), abs(ry0))
        if rx == 0 || ry == 0 || (p0.0 == p1.0 && p0.1 == p1.1) { return [.init(x: p1.0, y: p1.1, kind: .on)] }
        let phi = angle * .pi / 180, (c, s) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
        let dx = (p0.0 - p1.0) / 2, dy = (p0.1 - p1.1) / 2
        let x1 = c * dx + s * dy, y1 = -s * dx + c * dy
        let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        var k = (max(0, num) / (rx * rx * y1 * y1 + ry * ry * x1 * x1)).squareRoot()
        if large == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        let cx = c * cx1 - s * cy1 + (p0.0 + p1.0) / 2, cy = s * cx1 + c * cy1 + (p0.1 + p1.1) / 2
        func angleOf(_ ux: Double, _ uy: Double) -> Double { atan2(uy, ux) }
        let theta1 = angleOf((x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angleOf((-x1 - cx1) / rx, (-y1 - cy1) / ry) - theta1
        if sweep && delta < 0 { delta += 2 * .pi }
        if !sweep && delta > 0 { delta -= 2 * .pi }
        let pieces = max(1, Int((abs(delta) / (.pi / 2)).rounded(.up)))
        let step = delta / Double(pieces)
        let t = 4.0 / 3.0 * tan(step / 4)
        var out: [VectorGlyph.Point] = []
        func point(_ a: Double) -> (Double, Double) { (cx + rx * cos(a) * cos(phi) - ry * sin(a) * sin(phi), cy + rx * cos(a) * sin(phi) + ry * sin(a) * cos(phi)) }
        func derivative(_ a: Double) -> (Double, Double) { (-rx * sin(a) * cos(phi) - ry * cos(a) * sin(phi), -rx * sin(a) * sin(phi) + ry * cos(a) * cos(phi)) }
        var a = theta1
        for k in 0..<pieces {
            let b = a + step
            let (pa, da, pb, db) = (point(a), derivative(a), point(b), derivative(b))
            out.append(.init(x: pa.0 + t * da.0, y: pa.1 + t * da.1, kind: .cubic))
            out.append(.init(x: pb.0 - t * db.0, y: pb.1 - t * db.1, kind: .cubic))
            // The last end point is exactly the path's, not the rounding of the arc's.
            out.append(k == pieces - 1 ? .init(x: p1.0, y: p1.1, kind: .on) : .init(x: pb.0, y: pb.1, kind: .on))
            a = b
        }
        return out
    }

    /// The numbers, flags and command letters of path data.
    struct Tokens {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSeparators() {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 44 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        }

        /// The next command letter, if the next token is one.
        mutating func command() -> UInt8? {
            skipSeparators()
            guard i < bytes.count else { return nil }
            let b = bytes[i]
            guard (b >= 65 && b <= 90) || (b >= 97 && b <= 122), b != UInt8(ascii: "e"), b != UInt8(ascii: "E") else { return nil }
            i += 1
            return b
        }

        var atEnd: Bool {
            mutating get {
                skipSeparators()
                return i >= bytes.count
            }
        }

        mutating func peekNumber() -> Bool {
            skipSeparators()
            guard i < bytes.count else { return false }
            let b = bytes[i]
            return (b >= 48 && b <= 57) || b == 45 || b == 43 || b == 46
        }

        /// A number: sign, digits, one point, exponent; "1.5.5" is two numbers, "-1-2" too.
        mutating func number() throws -> Double {
            skipSeparators()
            let start = i
            if i < bytes.count, bytes[i] == 45 || bytes[i] == 43 { i += 1 }
            var sawPoint = false, sawDigit = false
            while i < bytes.count {
                let b = bytes[i]
                if b >= 48 && b <= 57 { sawDigit = true; i += 1 } else if b == 46 && !sawPoint { sawPoint = true; i += 1 } else { break }
            }
            if sawDigit, i < bytes.count, bytes[i] == 101 || bytes[i] == 69 {
                var j = i + 1
                if j < bytes.count, bytes[j] == 45 || bytes[j] == 43 { j += 1 }
                if j < bytes.count, bytes[j] >= 48 && bytes[j] <= 57 {
                    i = j
                    while i < bytes.count, bytes[i] >= 48 && bytes[i] <= 57 { i += 1 }
                }
            }
            guard sawDigit, let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else {
                throw Problem(description: "a number was expected at byte \(start)")
            }
            return v
        }

        /// An arc flag: a single 0 or 1, which may stand without a separator ("a1 1 0 00-1 1").
        mutating func flag() throws -> Bool {
            skipSeparators()
            guard i < bytes.count, bytes[i] == 48 || bytes[i] == 49 else { throw Problem(description: "an arc flag (0 or 1) was expected at byte \(i)") }
            i += 1
            return bytes[i - 1] == 49
        }
    }
}
