import Foundation

/// Usage errors ArgumentParser words unhelpfully: a misspelt subcommand is reported as an unknown
/// option that follows it, and a missing required option hides a misspelt one. Read from the
/// tool's own description (`_dumpHelp`), so every command and option is known without a list here.
enum ArgumentHints {
    /// The part of ArgumentParser's `--experimental-dump-help` JSON these hints read.
    struct Command: Decodable {
        var commandName: String
        var subcommands: [Command]?
        var defaultSubcommand: String?
        var arguments: [Argument]?
    }
    struct Argument: Decodable {
        var kind: String
        var names: [Name]?
    }
    struct Name: Decodable {
        var kind: String
        var name: String
    }
    struct Tool: Decodable { var command: Command }

    /// A message for the first misspelt command or unknown long option in `arguments`, nil when
    /// there is none (or the description cannot be read: then the parser's own message stands).
    static func problem(in arguments: [String], tool json: String) -> String? {
        guard let root = try? JSONDecoder().decode(Tool.self, from: Data(json.utf8)).command else { return nil }
        var command = root, path = [root.commandName]
        var rest = arguments[...]
        // Down the subcommands named; a word that names none is a misspelt command.
        while let word = rest.first, let subcommands = command.subcommands, !subcommands.isEmpty, command.defaultSubcommand == nil {
            if word.hasPrefix("-") || word == "help" { return nil }
            guard let next = subcommands.first(where: { $0.commandName == word }) else {
                let names = subcommands.map(\.commandName).filter { $0 != "help" }
                let guess = closest(to: word, among: names).map { " Did you mean '\($0)'?" } ?? ""
                return "Unknown command '\(word)'.\(guess) The commands of '\(path.joined(separator: " "))' are: \(names.joined(separator: ", ")).\n"
                    + "  See '\(path.joined(separator: " ")) --help' for more information."
            }
            command = next
            path.append(word)
            rest = rest.dropFirst()
        }
        let known = Set((command.arguments ?? []).flatMap { $0.names ?? [] }.filter { $0.kind == "long" }.map(\.name) + ["help", "version"])
        for word in rest {
            if word == "--" { break }  // what follows is input, not options
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            if known.contains(name) { continue }
            let guess = closest(to: name, among: known.sorted()).map { " Did you mean '--\($0)'?" } ?? ""
            return "Unknown option '--\(name)'.\(guess)\n  See '\(path.joined(separator: " ")) --help' for more information."
        }
        return nil
    }

    /// The candidate nearest to `word` by edit distance (a swap of two neighbours counting one),
    /// if near enough to be a typo: at most 2 edits, and fewer than half the word.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 && 2 * $0.1 < max(word.count, 2) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (x, y) = (Array(a), Array(b))
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in stride(from: 1, through: x.count, by: 1) {
            for j in stride(from: 1, through: y.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }
}
