import Boxes
import Checkpoints
import Engine
import Foundation
import IconRecognition
import IconVocabulary
import Images
import TestSupport
import XCTest

/// The classifier file (what it keeps, what it refuses) and crops read from files as `classify-icons` reads them.
final class IconClassifierFileTests: XCTestCase {
    /// The shared planted classifier, with a step to keep in its file.
    static func classifier(favouring name: String? = nil, threshold: Float = 0.5, otherWeight: Float = 1) -> IconClassifier {
        plantedIconClassifier(favouring: name, threshold: threshold, otherWeight: otherWeight, step: 7)
    }


    func testTheFileKeepsWeightsThresholdAndStep() throws {
        let dir = try scratchFolder(prefix: "icon-file")
        let url = dir.appendingPathComponent(IconClassifier.fileName)
        let original = Self.classifier(threshold: 0.37, otherWeight: 0.25)
        try original.write(to: url)
        let read = try IconClassifier(contentsOf: url)
        XCTAssertEqual(read.threshold, 0.37)
        XCTAssertEqual(read.step, 7)
        XCTAssertEqual(read.otherWeight, 0.25)
        XCTAssertEqual(read.network.config, original.network.config)
        let crops = [plusIcon(side: 24), plusIcon(side: 40), RGBImage(size: Size(width: 20, height: 30), fill: RGB(0, 90, 200))]
        let before = original.classify(crops), after = read.classify(crops)
        XCTAssertEqual(before.map(\.probabilities), after.map(\.probabilities), "the same weights give the same probabilities")
        for p in after {
            XCTAssertEqual(p.probabilities.reduce(0, +), 1, accuracy: 1e-4)
            XCTAssertEqual(p.top.count, 5)
            XCTAssertTrue(zip(p.top, p.top.dropFirst()).allSatisfy { $0.probability >= $1.probability }, "top is sorted")
        }
    }

    func testAFavouredTypeIsNamedWithItsLabelAndOtherIsNeverALabel() {
        let back = Self.classifier(favouring: "back").classify([plusIcon(side: 24)])[0]
        XCTAssertEqual(back.type?.name, "back")
        XCTAssertEqual(back.label, IconVocabulary.type(named: "back")!.label)
        XCTAssertGreaterThan(back.score, 0.99)
        let other = Self.classifier(favouring: "other").classify([plusIcon(side: 24)])[0]
        XCTAssertNil(other.type, "`other` wins: no type, no label")
        XCTAssertEqual(other.top[0].type.name, "other")
        let unsure = Self.classifier(threshold: 1).classify([plusIcon(side: 24)])[0]
        XCTAssertLessThan(unsure.score, 1)
        XCTAssertNil(unsure.type, "below the threshold: no type, no label")
        XCTAssertNil(unsure.label)
    }

    /// `other`'s probability weighted and the rest normalised again, by hand; the weight that divides
    /// training's prior out is a type's share over `other`'s.
    func testOtherIsWeightedBeforeTypesAreRanked() {
        var p = [Float](repeating: 0, count: IconVocabulary.types.count)
        let back = IconVocabulary.type(named: "back")!.index, other = IconVocabulary.other.index
        (p[other], p[back]) = (0.6, 0.4)
        let q = IconClassifier.balanced(p, otherWeight: 0.25)
        XCTAssertEqual(q[other], 0.15 / 0.55, accuracy: 1e-6)
        XCTAssertEqual(q[back], 0.4 / 0.55, accuracy: 1e-6)
        XCTAssertEqual(IconClassifier.prediction(q, threshold: 0.5).type?.name, "back", "back outranks other once other's prior is divided out")
        XCTAssertNil(IconClassifier.prediction(p, threshold: 0.5).type, "unweighted, other wins")
        XCTAssertEqual(IconClassifier.balanced(p, otherWeight: 1), p)
        XCTAssertEqual(IconClassifier.balancedOtherWeight(otherShare: 0.2, types: 52), 0.8 / 52 / 0.2, accuracy: 1e-7)
        XCTAssertEqual(IconClassifier.balancedOtherWeight(otherShare: 0, types: 52), 1)
        // A classifier that favours other names nothing however it is weighted, when other still wins.
        XCTAssertNil(Self.classifier(favouring: "other", otherWeight: 0.1).classify([plusIcon(side: 24)])[0].type)
    }

    /// Files that are not this vocabulary's classifier are refused with the file named and what is wrong.
    func testFilesOfAnotherKindAreRefusedNamingTheFile() throws {
        let dir = try scratchFolder(prefix: "icon-file-bad")
        func refusal(_ url: URL) -> String {
            do {
                _ = try IconClassifier(contentsOf: url)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let detector = dir.appendingPathComponent("detector.safetensors")
        try Safetensors.write([NamedTensor(name: "w", shape: [1], values: [1])], metadata: ["format": "uidetect-detector-2"], to: detector)
        XCTAssertTrue(refusal(detector).contains(detector.path), refusal(detector))
        XCTAssertTrue(refusal(detector).contains("not an icon classifier"), refusal(detector))

        let older = dir.appendingPathComponent("older.safetensors")
        try Self.classifier().write(to: older, extra: [:])
        var (tensors, metadata) = try Safetensors.read(older)
        metadata["vocabulary_version"] = "0"
        try Safetensors.write(tensors, metadata: metadata, to: older)
        XCTAssertTrue(refusal(older).contains("vocabulary version 0"), refusal(older))

        let poisoned = dir.appendingPathComponent("nan.safetensors")
        (tensors, metadata) = try Safetensors.read(dir.appendingPathComponent("older.safetensors"))
        metadata["vocabulary_version"] = String(IconVocabulary.version)
        tensors[0].values[0] = .nan
        try Safetensors.write(tensors, metadata: metadata, to: poisoned)
        XCTAssertTrue(refusal(poisoned).contains("'\(tensors[0].name)' holds nan"), refusal(poisoned))

        let weighted = dir.appendingPathComponent("weighted.safetensors")
        (tensors, metadata) = try Safetensors.read(dir.appendingPathComponent("older.safetensors"))
        metadata["vocabulary_version"] = String(IconVocabulary.version)
        metadata["other_weight"] = "1.5"
        try Safetensors.write(tensors, metadata: metadata, to: weighted)
        XCTAssertTrue(refusal(weighted).contains("'other_weight' must be a number in (0, 1], got '1.5'"), refusal(weighted))
        metadata["other_weight"] = nil
        try Safetensors.write(tensors, metadata: metadata, to: weighted)
        XCTAssertEqual(try IconClassifier(contentsOf: weighted).otherWeight, 1, "files from before the weight rank the network's own probabilities")

        let text = dir.appendingPathComponent("text.safetensors")
        try Data("hello".utf8).write(to: text)
        XCTAssertTrue(refusal(text).contains(text.path), refusal(text))
    }

    /// Unreadable, tiny and missing crops are failures of their own; the others are classified in order,
    /// and the JSON is the spec's: one object per path, `error` for the failures.
    func testCropsThatCannotBeClassifiedAreNamedAndTheRestGoOn() throws {
        let dir = try scratchFolder(prefix: "icon-crops")
        let good = dir.appendingPathComponent("0001-add.png"), tiny = dir.appendingPathComponent("tiny.png")
        let broken = dir.appendingPathComponent("broken.png"), missing = dir.appendingPathComponent("missing.png")
        try ImageCodec.writePNG(plusIcon(side: 24), to: good)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 1, height: 1), fill: RGB(0, 0, 0)), to: tiny)
        try Data("not a png".utf8).write(to: broken)
        let results = IconCrops.classify([good.path, tiny.path, broken.path, missing.path, good.path], with: Self.classifier(favouring: "add"))
        XCTAssertEqual(results.map(\.path), [good.path, tiny.path, broken.path, missing.path, good.path])
        let failures = results.map { r -> String? in if case .failure(let e) = r.outcome { return "\(e)" } else { return nil } }
        XCTAssertNil(failures[0])
        XCTAssertNil(failures[4])
        XCTAssertTrue(failures[1]?.contains("1 x 1 pixels") == true, failures[1] ?? "")
        for k in 1...3 { XCTAssertTrue(failures[k]?.contains(results[k].path) == true, failures[k] ?? "classified") }

        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(IconCrops.json(results).utf8)) as? [[String: Any]])
        XCTAssertEqual(json.count, 5)
        XCTAssertEqual(json[0]["path"] as? String, good.path)
        XCTAssertEqual(json[0]["icon_type"] as? String, "add")
        XCTAssertEqual(json[0]["label"] as? String, IconVocabulary.type(named: "add")!.label)
        XCTAssertGreaterThan(json[0]["score"] as? Double ?? 0, 0.99)
        let top = try XCTUnwrap(json[0]["top"] as? [[Any]])
        XCTAssertEqual(top.count, 5)
        XCTAssertEqual(top[0][0] as? String, "add")
        XCTAssertEqual(Set(json[1].keys), ["path", "error"])
        XCTAssertNotNil(json[2]["error"] as? String)

        // Scoring reads the type from the file name; a name without one is an error naming the file.
        let scored = try IconCrops.evaluate([good.path], with: Self.classifier(favouring: "add"))
        XCTAssertEqual(scored.evaluation.top1Accuracy, 1)
        XCTAssertThrowsError(try IconCrops.evaluate([tiny.path], with: Self.classifier())) { error in
            XCTAssertTrue("\(error)".contains(tiny.path), "\(error)")
        }
    }
}
