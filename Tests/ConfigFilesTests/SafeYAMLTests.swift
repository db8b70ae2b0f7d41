import Foundation
import XCTest
import Yams
@testable import ConfigFiles

/// YAML a user wrote by mistake (a key twice) or a file made to hurt (nesting without end) is
/// refused with the file, the key and the lines; the parser's thread starts wherever a process can
/// start one, and says so when it cannot.
final class SafeYAMLTests: XCTestCase {
    func refusal(_ text: String, source: String = "run.yaml") -> ConfigError? {
        do { _ = try SafeYAML.compose(text, source: source); return nil } catch { return error as? ConfigError }
    }

    func testAKeyGivenTwiceIsRefusedNamingTheKeyAndBothLines() throws {
        let nested = try XCTUnwrap(refusal("optimizer:\n  learning_rate: 0.1\n  momentum: 0.9\n  learning_rate: 0.01\nsteps: 10\n"))
        XCTAssertEqual(nested.source, "run.yaml")
        XCTAssertEqual(nested.key, "optimizer.learning_rate")
        XCTAssertTrue(nested.problem.contains("lines 2 and 4"), nested.problem)
        let top = try XCTUnwrap(refusal("steps: 10\nname: a\nsteps: 20\n"))
        XCTAssertEqual(top.key, "steps")
        XCTAssertTrue(top.problem.contains("lines 1 and 3"), top.problem)
        // In a list's mapping, and in flow style; a quoted key is the same key.
        XCTAssertEqual(refusal("classes:\n- name: a\n  colour: red\n- name: b\n  'name': c\n")?.key, "classes[1].name")
        XCTAssertEqual(refusal("size: {width: 3, height: 4, width: 5}\n")?.key, "size.width")
        // The same key in two mappings, and a merge overridden by its mapping, are fine.
        XCTAssertNil(refusal("a: {x: 1}\nb: {x: 2}\n"))
        XCTAssertNil(refusal("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  x: 3\n"))
    }

    func testStrictConfigsRefuseAKeyGivenTwiceBeforeLayingItOverTheDefaults() throws {
        struct Config: Codable, Sendable { var steps = 10; var name = "run" }
        let strict = StrictConfig(defaults: Config()) { _ in [] }
        XCTAssertThrowsError(try strict.load(yaml: "steps: 5\nsteps: 6\n", source: "c.yaml")) { e in
            XCTAssertEqual("\(e)", "c.yaml: steps: given twice in one mapping (lines 1 and 2); YAML would keep the last silently: keep one")
        }
        XCTAssertEqual(try strict.load(yaml: "steps: 5\nname: x\n", source: "c.yaml").steps, 5)
    }

    /// 64 levels, the most accepted, of every kind of nesting: block mappings, block sequences,
    /// compact ones (`- - -`, `? ? ?`) and flow collections, each with a scalar at the bottom.
    func deepestAccepted() -> [(String, String)] {
        let levels = SafeYAML.maximumDepth - 1  // the root is level 1; the scalar at the bottom is the 64th
        let block = (0..<levels).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n") + " v\n"
        let sequences = (0..<levels).map { String(repeating: "  ", count: $0) + "-" }.joined(separator: "\n") + " v\n"
        let compact = String(repeating: "- ", count: levels) + "v\n"
        let keys = String(repeating: "? ", count: levels) + "v\n"
        let flow = String(repeating: "[", count: levels) + "v" + String(repeating: "]", count: levels) + "\n"
        let mixed = "[" + String(repeating: "{a: [", count: levels / 2) + "v" + String(repeating: "]}", count: levels / 2) + "]\n"
        return [("block", block), ("sequences", sequences), ("compact", compact), ("keys", keys), ("flow", flow), ("mixed", mixed)]
    }

    func testTheDeepestAcceptedDocumentsParseOnTheSmallestStackTried() throws {
        let smallest = try XCTUnwrap(SafeYAML.parserStackSizes.last)
        for (name, text) in deepestAccepted() {
            XCTAssertNotNil(try SafeYAML.compose(text, source: name, stackSizes: [smallest]), name)
            // One level more is refused, whichever way it nests.
            let deeper = name == "flow" ? "[" + text.dropLast() + "]\n" : "- " + text.split(separator: "\n").joined(separator: "\n  ") + "\n"
            XCTAssertThrowsError(try SafeYAML.compose(deeper, source: name, stackSizes: [smallest]), name) { e in
                XCTAssertTrue("\(e)".hasPrefix("\(name): nests more than 64 levels deep"), "\(e)")
            }
        }
    }

    /// Nesting a text scan would miss (a quote opened in a plain or literal scalar, `? ? ?`) is
    /// found by libyaml's events before anything recurses: refused, not a stack overflow.
    func testNestingHiddenFromATextScanIsRefusedBeforeItIsComposed() {
        let hidden = ["a: |\n  it's\nb: " + String(repeating: "[", count: 200_000) + "\n",
                      "a b 'c: " + String(repeating: "[", count: 200_000) + "\n",
                      String(repeating: "? ", count: 200_000) + "v\n",
                      String(repeating: "- ? ", count: 100_000) + "v\n"]
        for text in hidden {
            let start = Date()
            XCTAssertTrue(refusal(text, source: "hostile.yaml")?.problem.contains("levels deep") ?? false, String(text.prefix(30)))
            XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        }
    }

    func testAStackThatCannotBeHadFallsBackToASmallerOne() throws {
        let impossible = 1 << 60  // no address space holds it
        let node = try SafeYAML.compose("a: [1, 2]\n", source: "x.yaml", stackSizes: [impossible, SafeYAML.parserStackSizes.last!])
        XCTAssertEqual(node?["a"]?.sequence?.count, 2)
        XCTAssertThrowsError(try SafeYAML.compose("a: 1\n", source: "x.yaml", stackSizes: [impossible])) { e in
            let text = "\(e)"
            XCTAssertTrue(text.hasPrefix("x.yaml: cannot be read: the YAML parser's thread could not start (stack of \(impossible >> 20) MiB: "), text)
            XCTAssertTrue(text.contains("ulimit -v"), text)
        }
    }

    /// What the composer really uses of its stack, for the deepest accepted documents: the thread's
    /// stack is painted with a pattern first, and the deepest byte changed is the need. The smallest
    /// stack tried must hold eight times that.
    func testTheSmallestStackHoldsEightTimesWhatTheDeepestDocumentUses() throws {
        // What compose runs on its own thread: the composer and the check of what it built.
        var direct = 0
        for (_, text) in deepestAccepted() {
            direct = max(direct, try stackUse {
                if let node = try? Yams.compose(yaml: text) { try? SafeYAML.check(node, source: "x") }
            })
        }
        print("stack used composing the deepest accepted documents: \(direct / 1024) KiB")
        XCTAssertLessThanOrEqual(direct * 8, SafeYAML.parserStackSizes.last!, "the composer needs \(direct) bytes of stack")
    }

    /// Bytes of stack `work` touched, on a thread whose 64 MiB stack was painted beforehand.
    func stackUse(_ work: @escaping () -> Void) throws -> Int {
        let size = 64 << 20
        let stack = try XCTUnwrap(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        XCTAssertNotEqual(stack, UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
        defer { munmap(stack, size) }
        memset(stack, 0xA5, size)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        XCTAssertEqual(pthread_attr_setstack(&attributes, stack, size), 0)
        final class Job { let work: () -> Void; init(_ w: @escaping () -> Void) { work = w } }
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(work))
        XCTAssertEqual(pthread_create(&thread, &attributes, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().work()
            return nil
        }, job.toOpaque()), 0)
        pthread_join(thread, nil)
        // The stack grows down from the top; the lowest changed byte marks the deepest frame.
        let bytes = stack.assumingMemoryBound(to: UInt8.self)
        var low = 0
        while low < size && bytes[low] == 0xA5 { low += 1 }
        return size - low
    }
}
