import ConfigFiles
import FileKeys
import Foundation
import TestSupport
import XCTest

/// A config of every shape `StrictConfig` reads: scalars, a nested section with a key of a few
/// words, a list, and an optional written as null.
struct ToyConfig: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable { case sgd, adamw }
    struct Optimizer: Codable, Sendable, Equatable {
        var name = Kind.sgd
        var learningRate: Float = 0.1
        enum CodingKeys: String, CodingKey { case name, learningRate = "learning_rate" }
    }
    var name = "run"
    var steps = 10
    var optimizer = Optimizer()
    var sizes = [1, 2]
    @Nullable var threshold: Double? = 0.5

    /// Impossible values, by dotted key.
    static func problems(_ c: ToyConfig) -> [(key: String, problem: String)] {
        var out: [(key: String, problem: String)] = []
        if c.steps < 1 { out.append(("steps", "must be at least 1")) }
        if !(c.optimizer.learningRate > 0) { out.append(("optimizer.learning_rate", "must be above 0")) }
        return out
    }
}

/// Configs laid over their defaults with errors naming the file (or `--set`), the key and the line:
/// what run configs, icon run configs and description configs all rely on.
final class StrictConfigTests: XCTestCase {
    let strict = StrictConfig(defaults: ToyConfig(), choices: ["optimizer.name": ["sgd", "adamw"]]) { ToyConfig.problems($0) }

    func refusal(_ yaml: String?, overrides: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> ConfigError? {
        do {
            _ = try strict.load(yaml: yaml, source: "toy.yaml", overrides: overrides)
            XCTFail("accepted: \(yaml ?? "") \(overrides)", file: file, line: line)
            return nil
        } catch {
            guard let e = error as? ConfigError else { XCTFail("\(error)", file: file, line: line); return nil }
            return e
        }
    }

    func testTheFileIsLaidOverTheDefaultsAndEachSetOverTheFile() throws {
        XCTAssertEqual(try strict.load(nil), ToyConfig())
        var expected = ToyConfig()
        expected.steps = 5
        expected.optimizer.name = .adamw
        expected.optimizer.learningRate = 0.01
        expected.sizes = [3, 4, 5]
        expected.threshold = nil
        let c = try strict.load(yaml: "optimizer: {name: adamw, learning_rate: 0.5}\nsteps: 5\nthreshold: null\n", source: "toy.yaml",
                                overrides: ["optimizer.learning_rate=0.01", "sizes=[3, 4, 5]"])
        XCTAssertEqual(c, expected, "untouched keys keep their defaults; --set wins over the file; null clears an optional")
        // A section given as null keeps its defaults; --set alone works without a file.
        XCTAssertEqual(try strict.load(yaml: "optimizer: null\n", source: "toy.yaml"), ToyConfig())
        XCTAssertEqual(try strict.load(nil, overrides: ["name=x"]).name, "x")
    }

    func testUnknownKeysNameTheLineAndTheKeysThatFit() throws {
        var e = try XCTUnwrap(refusal("optimizer:\n  name: sgd\n  learning_rat: 3\n"))
        XCTAssertEqual(e.source, "toy.yaml")
        XCTAssertEqual(e.key, "optimizer.learning_rat")
        XCTAssertTrue(e.problem.contains("unknown key") && e.problem.contains("line 3") && e.problem.contains("name, learning_rate"), e.description)
        e = try XCTUnwrap(refusal("optimiser: {name: sgd}\n"))
        XCTAssertEqual(e.key, "optimiser")
        XCTAssertTrue(e.problem.contains("the top level has name, steps, optimizer, sizes, threshold"), e.description)
        // From --set, the argument is the source and no line is named.
        e = try XCTUnwrap(refusal(nil, overrides: ["optimizer.lr=0.1"]))
        XCTAssertEqual(e.source, "--set")
        XCTAssertEqual(e.key, "optimizer.lr")
    }

    func testValuesOfTheWrongTypeNameTheKeyAndWhatWasFound() throws {
        var e = try XCTUnwrap(refusal("steps: eight\n"))
        XCTAssertEqual(e.key, "steps")
        XCTAssertTrue(e.problem.contains("integer") && e.problem.contains("'eight'") && e.problem.contains("line 1"), e.description)
        e = try XCTUnwrap(refusal("optimizer: 3\n"))
        XCTAssertEqual(e.key, "optimizer")
        XCTAssertTrue(e.problem.hasPrefix("expected a mapping of keys (name, learning_rate), found '3'"), e.description)
        e = try XCTUnwrap(refusal("sizes: [1, x]\n"))
        XCTAssertEqual(e.key, "sizes[1]")
        XCTAssertTrue(e.problem.contains("an integer") && e.problem.contains("'x'"), e.description)
        e = try XCTUnwrap(refusal("optimizer: {name: adam}\n"))
        XCTAssertEqual(e.key, "optimizer.name")
        XCTAssertTrue(e.problem.contains("'adam'") && e.problem.hasSuffix("is not one of sgd, adamw"), e.description)
    }

    /// An impossible value is blamed on the `--set` that gave it (or gave a section above it), not on the file.
    func testImpossibleValuesAreBlamedOnWhatGaveThem() throws {
        var e = try XCTUnwrap(refusal("steps: 0\n"))
        XCTAssertEqual(e, ConfigError(source: "toy.yaml", key: "steps", problem: "must be at least 1"))
        e = try XCTUnwrap(refusal("name: a\n", overrides: ["steps=0"]))
        XCTAssertEqual(e.source, "--set steps=0")
        e = try XCTUnwrap(refusal("name: a\n", overrides: ["optimizer={learning_rate: -1}"]))
        XCTAssertEqual(e.source, "--set optimizer={learning_rate: -1}")
        XCTAssertEqual(e.key, "optimizer.learning_rate")
        e = try XCTUnwrap(refusal("steps: 3\n", overrides: ["sizes=[1, x]"]))
        XCTAssertEqual(e.source, "--set sizes=[1, x]")
        XCTAssertFalse(e.problem.contains("line"), "the argument's own line 1 would mislead: \(e)")
        // An argument that is no key=value.
        XCTAssertEqual(refusal(nil, overrides: ["steps"])?.problem, "expected key=value, e.g. optimizer.learning_rate=0.01")
        XCTAssertEqual(refusal(nil, overrides: ["=3"])?.source, "--set")
        XCTAssertEqual(refusal(nil, overrides: ["optimizer..name=sgd"])?.problem, "empty key part")
    }

    func testAFileThatCannotBeReadOrIsNotYAMLIsRefusedNamingIt() throws {
        let dir = try scratchFolder(prefix: "uidetect-strict")
        let absent = dir.appendingPathComponent("absent.yaml")
        XCTAssertThrowsError(try strict.load(absent)) { e in
            XCTAssertEqual(e as? ConfigError, ConfigError(source: absent.path, key: "", problem: "cannot read the file"))
        }
        XCTAssertTrue(refusal("optimizer: [unclosed\n")?.problem.contains("not valid YAML") ?? false)
    }

    /// A config written out reads back the same, with every key, nulls included, and numbers as a
    /// person writes them (Yams alone writes a float32 0.1 as 1.00000001490116e-1).
    func testAConfigWrittenOutReadsBackTheSame() throws {
        var c = ToyConfig()
        c.threshold = nil
        c.optimizer.learningRate = 0.3
        let yaml = try StrictConfig<ToyConfig>.yaml(c)
        XCTAssertTrue(yaml.contains("learning_rate: 0.3\n"), yaml)
        XCTAssertTrue(yaml.contains("threshold: null\n"), yaml)
        XCTAssertFalse(yaml.contains("e-"), yaml)
        XCTAssertEqual(try strict.load(yaml: yaml, source: "saved"), c)
    }

    func testDifferingKeysAndDefaultKeysAreDotted() {
        var other = ToyConfig()
        other.steps = 3
        other.optimizer.name = .adamw
        XCTAssertEqual(StrictConfig<ToyConfig>.differingKeys(ToyConfig(), other), ["optimizer.name", "steps"])
        XCTAssertEqual(StrictConfig<ToyConfig>.differingKeys(other, other), [])
        let keys = strict.defaultKeys()
        XCTAssertEqual(keys.map { $0.key }, ["name", "steps", "optimizer.name", "optimizer.learning_rate", "sizes", "threshold"])
        XCTAssertEqual(keys.map { $0.value }, ["run", "10", "sgd", "0.1", "[1, 2]", "0.5"])
    }

    // Moved from the training tests: what SafeYAML refuses reaches a config file's reader with the file named.

    func testYAMLThatWouldExpandOrNestWithoutEndIsRefusedAtOnce() throws {
        let dir = try scratchFolder(prefix: "uidetect-strict")
        // 441 bytes of aliases of aliases: 9^10 nodes once expanded.
        var bomb = "sizes: [&a0 [x,x,x,x,x,x,x,x,x]"
        for i in 1...10 { bomb += ", &a\(i) [" + [String](repeating: "*a\(i - 1)", count: 9).joined(separator: ",") + "]" }
        bomb += "]\n"
        let deep = "name: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        for (name, text, expected) in [("bomb.yaml", bomb, "expands to more than"), ("deep.yaml", deep, "levels deep")] {
            let url = dir.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            let start = Date()
            XCTAssertThrowsError(try strict.load(url)) { e in
                XCTAssertTrue("\(e)".contains(url.path) && "\(e)".contains(expected), "\(e)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(name) is refused before it expands")
        }
    }

    /// `steps: 10` then `steps: 20` further down: YAML keeps the second silently; refused instead.
    func testAKeyGivenTwiceInAConfigFileIsRefusedNamingBothLines() throws {
        let url = try scratchFolder(prefix: "uidetect-strict").appendingPathComponent("twice.yaml")
        try "steps: 10\noptimizer:\n  learning_rate: 0.1\nsteps: 20\n".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try strict.load(url)) { e in
            XCTAssertEqual("\(e)", "\(url.path): steps: given twice in one mapping (lines 1 and 4); YAML would keep the last silently: keep one")
        }
    }
}
