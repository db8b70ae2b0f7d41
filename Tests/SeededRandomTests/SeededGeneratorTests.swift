import SeededRandom
import XCTest

/// The generator every seeded result of the project (weights, synthetic screens, augmentations,
/// splits) comes from: its sequence must be the published xoshiro256** seeded by SplitMix64 on
/// every machine, and its helpers must stay inside the ranges they promise.
final class SeededGeneratorTests: XCTestCase {
    /// The first outputs, from an independent implementation of xoshiro256** seeded by SplitMix64
    /// (Python's arbitrary-precision integers masked to 64 bits).
    func testTheSequenceIsXoshiro256StarStarSeededBySplitMix64() {
        var zero = SeededGenerator(seed: 0)
        XCTAssertEqual((0..<3).map { _ in zero.next() }, [0x99ec_5f36_cb75_f2b4, 0xbf6e_1f78_4956_452a, 0x1a5f_849d_4933_e6e0])
        var answer = SeededGenerator(seed: 42)
        XCTAssertEqual((0..<3).map { _ in answer.next() }, [0x1578_0b2e_0c2e_c716, 0x6104_d986_6d11_3a7e, 0xae17_5332_39e4_99a1])
    }

    /// Item `index` of a stream has a generator of its own, the same whatever order items are made in.
    func testIndexedStreamsDependOnSeedAndIndexOnly() {
        var item = SeededGenerator(seed: 7, index: 3)
        XCTAssertEqual([item.next(), item.next()], [0x2b4b_bd6a_8c89_c472, 0xc9d9_e4aa_6f1e_4923])
        let firsts = (0..<64).map { i -> UInt64 in var g = SeededGenerator(seed: 7, index: UInt64(i)); return g.next() }
        XCTAssertEqual(Set(firsts).count, 64, "no two items share a stream")
        let reversed = (0..<64).reversed().map { i -> UInt64 in var g = SeededGenerator(seed: 7, index: UInt64(i)); return g.next() }
        XCTAssertEqual(firsts, reversed.reversed())
        var other = SeededGenerator(seed: 8, index: 3)
        XCTAssertNotEqual(other.next(), 0x2b4b_bd6a_8c89_c472)
    }

    func testHelpersStayInTheirRangesAndReachTheirEnds() {
        var g = SeededGenerator(seed: 1)
        var ints = Set<Int>()
        for _ in 0..<2_000 {
            let f = g.uniform(-2...3)
            XCTAssertTrue(f >= -2 && f <= 3, "\(f)")
            let u = g.nextUnitDouble()
            XCTAssertTrue(u >= 0 && u < 1, "\(u)")
            let i = g.int(-3...4)
            XCTAssertTrue((-3...4).contains(i), "\(i)")
            ints.insert(i)
        }
        XCTAssertEqual(ints, Set(-3...4), "both ends of an int range come up")
        XCTAssertEqual(g.int(5...5), 5)
        XCTAssertEqual(g.uniform(2...2), 2)
        XCTAssertFalse((0..<1_000).contains { _ in g.chance(0) })
        XCTAssertTrue((0..<1_000).allSatisfy { _ in g.chance(1) })
        let picked = Set((0..<200).map { _ in g.pick(["a", "b", "c"]) })
        XCTAssertEqual(picked, ["a", "b", "c"])
    }

    /// Uniform means uniform: a coarse histogram of 40,000 draws is flat within a few percent,
    /// and `chance(p)` comes up about p of the time (bounds far outside sampling noise).
    func testDrawsAreSpreadEvenly() {
        var g = SeededGenerator(seed: 99)
        var bins = [Int](repeating: 0, count: 10)
        for _ in 0..<40_000 { bins[min(9, Int(g.uniform(0...1) * 10))] += 1 }
        for (k, n) in bins.enumerated() { XCTAssertEqual(Double(n), 4_000, accuracy: 300, "bin \(k)") }
        let hits = (0..<40_000).filter { _ in g.chance(0.25) }.count
        XCTAssertEqual(Double(hits), 10_000, accuracy: 400)
    }

    func testTheSameSeedGivesTheSameSequenceAndCopiesAreIndependent() {
        var a = SeededGenerator(seed: 123), b = SeededGenerator(seed: 123)
        XCTAssertEqual((0..<100).map { _ in a.next() }, (0..<100).map { _ in b.next() })
        var copy = a
        let fromA = a.next()
        XCTAssertEqual(copy.next(), fromA, "a copy carries on from where it was taken")
        XCTAssertNotEqual(SeededGenerator(seed: 1).hashValueOfFirst(), SeededGenerator(seed: 2).hashValueOfFirst())
    }
}

private extension SeededGenerator {
    func hashValueOfFirst() -> UInt64 { var g = self; return g.next() }
}
