@testable import Engine
import TestSupport
import XCTest

/// Sections, layers inside them, and where a profile puts forward and backward time.
final class ProfilerTests: XCTestCase {
    /// A convolution big enough that its forward and backward take measurable time.
    private func convolve(_ x: Tensor, _ w: Tensor) -> Tensor { x.conv2d(weight: w, bias: nil, stride: 1, padding: 1).relu() }

    private func inputs() -> (Tensor, Tensor) {
        (randomInput([2, 16, 16, 8], seed: 1), randomInput([3, 3, 8, 8], seed: 2))
    }

    func testLayersInsideAPartAreTimedOnTheirOwnAndCountedInThePart() {
        let (x, w) = inputs()
        let profiler = Profiler(timesLayers: true)
        Autodiff.profiling(with: profiler) {
            let y = Autodiff.section("backbone") {
                Autodiff.layer("backbone.b1") { convolve(x, w) }.scaled(by: 2)  // the scale is the part's, outside the layer
            }
            Autodiff.section("loss") { y.sum() }.backward()
        }
        let layers = profiler.secondsByLayer
        XCTAssertEqual(Set(layers.keys), ["backbone.b1"])
        let b1 = try! XCTUnwrap(layers["backbone.b1"])
        XCTAssertGreaterThan(b1.forward, 0)
        XCTAssertGreaterThan(b1.backward, 0)
        let parts = profiler.secondsByPart
        XCTAssertEqual(Set(parts.keys), ["backbone", "loss"], "a layer is not a part of its own")
        let backbone = try! XCTUnwrap(parts["backbone"])
        XCTAssertGreaterThanOrEqual(backbone.forward, b1.forward)
        XCTAssertGreaterThan(backbone.backward, b1.backward, "the part's backward holds its layer's and its own op's")
    }

    /// The roll-up on fixed times: a part's forward already holds its layers' (no double count), its
    /// backward is the sum of its own ops' and its layers'.
    func testPartsAndLayersAddUpExactly() {
        let profiler = Profiler(timesLayers: true)
        profiler.addForward("backbone", 10)
        profiler.addForward("backbone/b1", 4)
        profiler.addForward("backbone/b2", 5)
        profiler.addBackward("backbone", 1)
        profiler.addBackward("backbone/b1", 2)
        profiler.addBackward("backbone/b2", 3)
        profiler.addBackward("other", 7)
        XCTAssertEqual(profiler.secondsByPart["backbone"]!.forward, 10)
        XCTAssertEqual(profiler.secondsByPart["backbone"]!.backward, 6)
        XCTAssertEqual(profiler.secondsBySection, ["backbone": 16, "other": 7])
        XCTAssertEqual(profiler.secondsByLayer["b1"]!.forward, 4)
        XCTAssertEqual(profiler.secondsByLayer["b2"]!.backward, 3)
        XCTAssertEqual(Set(profiler.secondsByLayer.keys), ["b1", "b2"])
    }

    func testLayersAreNotLabelledUnlessTheProfilerTimesThem() {
        let (x, w) = inputs()
        let profiler = Profiler()
        Autodiff.profiling(with: profiler) {
            let y = Autodiff.section("backbone") { Autodiff.layer("backbone.b1") { convolve(x, w) } }
            y.sum().backward()
        }
        XCTAssertTrue(profiler.secondsByLayer.isEmpty)
        XCTAssertEqual(Set(profiler.secondsBySection.keys), ["backbone", "other"], "the sum outside every section is 'other'")
        XCTAssertGreaterThan(profiler.secondsByPart["backbone"]!.backward, 0, "the layer's ops carry the part's label")
    }

    func testResetForgetsEverything() {
        let (x, w) = inputs()
        let profiler = Profiler(timesLayers: true)
        Autodiff.profiling(with: profiler) {
            Autodiff.section("p") { Autodiff.layer("l") { convolve(x, w) } }.sum().backward()
        }
        profiler.reset()
        XCTAssertTrue(profiler.secondsByLayer.isEmpty)
        XCTAssertTrue(profiler.secondsBySection.isEmpty)
    }
}
