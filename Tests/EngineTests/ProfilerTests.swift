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
        XCTAssertEqual(profiler.secondsBySection["backbone"]!, backbone.forward + backbone.backward, accuracy: 1e-12)
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
