import Boxes
import XCTest

final class BoxTests: XCTestCase {
    func testIoUByHand() {
        let a = Box(xMin: 0, yMin: 0, xMax: 10, yMax: 20)     // area 200
        let b = Box(xMin: 5, yMin: 10, xMax: 15, yMax: 30)    // area 200, overlap 5 x 10 = 50
        XCTAssertEqual(a.iou(b), 50.0 / 350.0, accuracy: 1e-15)
        XCTAssertEqual(a.iou(a), 1)
        XCTAssertEqual(a.iou(Box(xMin: 10, yMin: 0, xMax: 20, yMax: 20)), 0)  // touching edges
    }

    func testNonSquareCoordinatesAreNotSwapped() {
        let b = Box(xMin: 10, yMin: 100, xMax: 30, yMax: 400)
        XCTAssertEqual(b.width, 20)
        XCTAssertEqual(b.height, 300)
        XCTAssertEqual(b.clipped(to: Size(width: 25, height: 512)), Box(xMin: 10, yMin: 100, xMax: 25, yMax: 400))
        XCTAssertEqual(b.transformed(scaleX: 2, scaleY: 0.5, offsetX: 1, offsetY: 0), Box(xMin: 21, yMin: 50, xMax: 61, yMax: 200))
    }

    func testValidityAndContainment() {
        XCTAssertFalse(Box(xMin: 1, yMin: 1, xMax: 1, yMax: 5).isValid)
        XCTAssertFalse(Box(xMin: .nan, yMin: 1, xMax: 3, yMax: 5).isValid)
        XCTAssertTrue(Box(xMin: 0, yMin: 0, xMax: 2, yMax: 2).contains(x: 2, y: 0))  // edges count
        XCTAssertFalse(Box(xMin: 0, yMin: 0, xMax: 2, yMax: 2).contains(x: 2.0001, y: 1))
    }

    func testSizeParsing() {
        XCTAssertEqual(Size(parsing: "256x512"), Size(width: 256, height: 512))
        XCTAssertNil(Size(parsing: "256"))
        XCTAssertNil(Size(parsing: "0x5"))
    }
}
