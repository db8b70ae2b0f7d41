import Foundation

/// The icon packages whose glyphs mean something we can name (icon-recognition.md, "Training
/// icons"), each as Debian installs it: three fonts whose glyph names come from their style
/// sheets, and a folder of SVG files named by meaning.
public enum GlyphFamily: String, CaseIterable, Codable, Sendable {
    case material
    case fontAwesome = "font-awesome"
    case forkAwesome = "fork-awesome"
    case bootstrap

    /// The Debian package that installs the family (`scripts/setup.sh` installs all four).
    public var package: String {
        switch self {
        case .material: return "fonts-material-design-icons-iconfont"
        case .fontAwesome: return "fonts-font-awesome"
        case .forkAwesome: return "fonts-fork-awesome"
        case .bootstrap: return "bootstrap-icons"
        }
    }

    /// Where the glyphs are: a font with the file naming its codepoints, or a folder of SVG files.
    enum Source {
        case font(file: String, names: String, format: NameFormat)
        case svgFolder(String)
    }

    /// How a font's names are written.
    enum NameFormat {
        /// `"name": e5c4,` (Material's `_variables.scss`)
        case scssMap
        /// `.fa-name:before { content: "\f060"; }`, several selectors sharing one rule for aliases
        case css
    }

    var source: Source {
        switch self {
        case .material:
            return .font(file: "/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf",
                         names: "/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss", format: .scssMap)
        case .fontAwesome:
            return .font(file: "/usr/share/fonts/truetype/font-awesome/fontawesome-webfont.ttf",
                         names: "/usr/share/fonts-font-awesome/css/font-awesome.css", format: .css)
        case .forkAwesome:
            return .font(file: "/usr/share/fonts/truetype/fork-awesome/forkawesome-webfont.ttf",
                         names: "/usr/share/fonts-fork-awesome/css/fork-awesome.css", format: .css)
        case .bootstrap:
            return .svgFolder("/usr/share/bootstrap-icons/svg")
        }
    }
}

/// Why glyphs could not be loaded.
public struct GlyphError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let problem: String
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(path): \(problem)" }
}
