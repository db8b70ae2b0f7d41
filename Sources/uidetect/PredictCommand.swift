import ArgumentParser
import DetectorRuns
import Evaluation
import Foundation
import Interchange
import Outputs
import Training

struct Predict: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Detect UI elements on PNG and JPEG screenshots of any size; write detections JSON and overlay PNGs.",
        discussion: """
        Each screenshot is letterboxed into the model's input, detected, filtered for deployment (per-class NMS, a threshold per
        class from --thresholds and --score-threshold for the rest, then suppression across visually similar classes at IoU > 0.8)
        and mapped back to its own pixels. Writes OUT/detections.json (evaluation.md's format, image_id = the file name
        without extension; a name already taken gets -2, -3, ...), OUT/images.json (each image_id's path, width, height and
        COCO id), OUT/detections.coco.json (COCO results; ids from --coco-ids, or else images 1, 2, ... in input order and
        categories 1, 2, ... in the detector's class order) OUT/<image_id>.png with the boxes drawn and OUT/index.html to browse them. Folders are searched
        (not recursively) for .png, .jpg and .jpeg files; a file that cannot be read as an image is reported and skipped.
        The folder is written whole or not at all, and replaces only an earlier output of predict.
        """)

    @Option(help: "Weights file, checkpoint folder, or run folder (its best).") var checkpoint: String
    @Option(help: "A thresholds.json (from uidetect evaluate or thresholds): one threshold per class.") var thresholds: String?
    @Option(help: "Threshold for classes without one in --thresholds.") var scoreThreshold: Float = 0.25
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Skip the overlay PNGs.") var noOverlays = false
    @Option(help: "A COCO instances JSON whose image ids (matched by image_id) and categories (by name) detections.coco.json uses.") var cocoIds: String?
    @Argument(help: "Screenshots (PNG or JPEG) and folders of them.") var inputs: [String]
    @OptionGroup var threads: ThreadOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image or folder") }
        guard scoreThreshold >= 0 && scoreThreshold <= 1 else { throw ValidationError("--score-threshold must lie in [0, 1]") }
    }

    func run() throws { try threads.scope(body) }

    private func body() throws {
        try reportingErrors {
            let screenshots = try ScreenshotFiles(inputs)
            let folder = try OutputFolder(out, command: "predict", inputs: inputs + [checkpoint, thresholds, cocoIds].compactMap { $0 })
            defer { folder.discard() }
            let trained = try TrainedDetector(checkpoint)
            let picked = try DeploymentThresholds(file: thresholds, classNames: trained.classNames)
            let prediction = PredictionRun(detector: trained.detector, classNames: trained.classNames,
                                           filter: picked.filter(classNames: trained.classNames, fallback: scoreThreshold), overlays: !noOverlays,
                                           notes: ["checkpoint: \(checkpoint)", "thresholds: " + picked.describe(fallback: scoreThreshold)])
            let progress = ProgressLine()
            let outcome = try prediction.run(screenshots, cocoIDs: try cocoIds.map { try COCOIDMap(contentsOf: URL(fileURLWithPath: $0)) }, into: folder.staging) { k, n in
                progress.update("\(k)/\(n) screenshots", fractionDone: Double(k) / Double(n))
            }
            progress.finish()
            try folder.commit()
            let left = outcome.cocoLeftOut
            if left.unknownClass + left.unknownImage > 0 {
                print("\(COCOResultsFile.fileName) leaves out \(left.unknownClass) detections of classes without a category and \(left.unknownImage) on images without an id in \(cocoIds ?? "")")
            }
            print(String(format: "%d screenshots, %d detections, %.2f s per screenshot", outcome.screenshots, outcome.detections, outcome.seconds / Double(max(1, outcome.screenshots))))
            for s in outcome.skipped { print("skipped \(s)") }
            print("wrote \(DetectionsFile.fileName), \(ImagesFile.fileName), \(COCOResultsFile.fileName)"
                  + (noOverlays ? "" : ", an overlay PNG per screenshot and index.html to browse them") + " in \(folder.final.path)")
            if outcome.screenshots == 0 { throw ExitCode(1) }
        }
    }
}
