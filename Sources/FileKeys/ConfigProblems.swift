/// An impossible value in a config: its dotted key and what is wrong with it.
public typealias ConfigProblem = (key: String, problem: String)

/// The impossible values a config section finds, each named by one of the section's own coding
/// keys, with those of the sections nested in it under theirs (`workers` of `data` is
/// `data.workers`). Each section checks only its own values and its parent only prefixes: no
/// section spells another's keys, and no key is spelt apart from the coding key that reads it.
public struct ConfigProblems<Key: CodingKey> {
    /// The problems in the order they were found, keys dotted from this section down.
    public private(set) var list: [ConfigProblem] = []

    /// No problems yet, in a section whose keys are `keys`.
    public init(_ keys: Key.Type) {}

    /// `problem` at `key`.
    public mutating func add(_ key: Key, _ problem: String) {
        list.append((key.stringValue, problem))
    }

    /// The problems of the section at `key`, each named within it.
    public mutating func nest(_ key: Key, _ problems: [ConfigProblem]) {
        list += problems.map { (key.stringValue + "." + $0.key, $0.problem) }
    }
}
