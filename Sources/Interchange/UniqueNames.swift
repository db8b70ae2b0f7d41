/// Distinct names from names that may repeat: the first claim of `x` gets `x`, later ones `x-2`, `x-3`, ...,
/// skipping every name reserved up front, so that a file really called `x-2` keeps its own name.
public struct UniqueNames {
    private var reserved: Set<String>
    private var claimed: Set<String> = []

    /// Reserves `names` (usually every name that will be claimed) so that no suffixed name takes one of them.
    public init<S: Sequence>(reserving names: S) where S.Element == String { reserved = Set(names) }

    /// `base` if nobody has it yet, else the first free `base-N` (N = 2, 3, ...).
    public mutating func claim(_ base: String) -> String {
        if claimed.insert(base).inserted { return base }
        var n = 2
        while reserved.contains("\(base)-\(n)") || claimed.contains("\(base)-\(n)") { n += 1 }
        claimed.insert("\(base)-\(n)")
        return "\(base)-\(n)"
    }

    /// `id` as a portable file name (without extension): letters, digits, `-`, `_` and `.` kept, anything else `_`; never empty or hidden.
    public static func fileName(for id: String) -> String {
        var out = String(id.unicodeScalars.map { s -> Character in
            s.isASCII && (s.properties.isAlphabetic || s.properties.numericType != nil || "-_.".unicodeScalars.contains(s)) ? Character(s) : "_"
        })
        if out.isEmpty || out.hasPrefix(".") { out = "_" + out }
        return out
    }
}
