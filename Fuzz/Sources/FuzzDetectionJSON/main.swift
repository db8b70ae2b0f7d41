import Evaluation
import Foundation
import FuzzDriver
import Shards

// Detection files (evaluation.md) read as `uidetect evaluate --detections` reads them. Any error
// thrown is a refusal, which is fine; a trap, overflow or runaway allocation is a finding.
private let imageIDs: Set<String> = ["a", "b", "screen-0001", "0"]

fuzz { data in
    let detections = try? EvaluationLoader.detectionsJSON(data, path: "fuzz.json", classNames: defaultClassNames, imageIDs: imageIDs, classMap: nil)
    for d in detections ?? [] {
        precondition(imageIDs.contains(d.imageID) && defaultClassNames.indices.contains(d.label), "accepted a detection outside the vocabulary")
        precondition(d.score.isFinite && d.box.xMax >= d.box.xMin && d.box.yMax >= d.box.yMin, "accepted an invalid detection")
    }
}
