import Boxes
import Evaluation
import Engine
import Foundation
import Images
import SeededRandom
import Shards

/// What `uidetect bench evaluate` measures: the evaluator against pycocotools on the same data, as a
/// core (read the detections, evaluate, in one process) and as a whole command (process start to exit).
public struct EvaluationBenchmarkReport: Codable {
    /// What it was measured on (CPU model and family, vector registers, OpenBLAS kernels, threads).
    public var machine = Machine.current()
    public var images: Int
    public var groundTruthBoxes: Int
    public var detections: Int
    /// The core: reading and parsing the detections JSON, then AP50, AP-center, AP50-95 and AP50 by size for every class
    /// (the ground truth indexed beforehand, as pycocotools' is).
    public var oursSeconds: Double
    public var parseSeconds: Double
    /// pycocotools' core on the same data, its loading included: `loadRes(file)` + `evaluate()` + `accumulate()`
    /// at IoU 0.5 with no detection cap; nil if it could not run.
    public var pycocotoolsSeconds: Double?
    /// Of that, `evaluate()` + `accumulate()` alone.
    public var pycocotoolsEvaluateSeconds: Double?
    /// pycocotools' core over ours.
    public var speedup: Double?
    /// `uidetect evaluate --data SHARD --detections JSON --out DIR` as a user runs it: process start to every file written.
    public var commandSeconds: Double?
    /// A pycocotools script as a user runs it: process start, `COCO(gt.json)`, `loadRes(dets.json)`, `evaluate()`,
    /// `accumulate()`, `summarize()`, exit.
    public var pycocotoolsScriptSeconds: Double?
    public var commandSpeedup: Double?
    /// The largest |our coco101 AP - pycocotools' AP| over classes.
    public var maxAPDifference: Double?
    public var runs: Int

    enum CodingKeys: String, CodingKey {
        case machine
        case images, detections, runs, speedup
        case groundTruthBoxes = "ground_truth_boxes", oursSeconds = "ours_seconds", parseSeconds = "parse_seconds"
        case pycocotoolsSeconds = "pycocotools_seconds", pycocotoolsEvaluateSeconds = "pycocotools_evaluate_seconds"
        case commandSeconds = "command_seconds", pycocotoolsScriptSeconds = "pycocotools_script_seconds", commandSpeedup = "command_speedup"
        case maxAPDifference = "max_ap_difference"
    }
}

public struct EvaluationBenchmark {
    public var images: Int
    public var runs: Int
    /// The `uidetect` executable whose `evaluate` command is timed whole; nil times the core only.
    public var executable: URL?
    public init(images: Int = 5002, runs: Int = 3, executable: URL? = nil) {
        self.images = images
        self.runs = runs
        self.executable = executable
    }

    static let script = """
    import contextlib, io, json, sys, time
    import numpy as np
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    gt = json.load(open(sys.argv[1])); runs = int(sys.argv[3])
    times, evaluate_times = [], []
    for _ in range(runs):
        with contextlib.redirect_stdout(io.StringIO()):
            coco = COCO(); coco.dataset = gt; coco.createIndex()
            start = time.perf_counter()
            res = coco.loadRes(sys.argv[2])
            ev = COCOeval(coco, res, "bbox")
            ev.params.iouThrs = np.array([0.5]); ev.params.maxDets = [10 ** 9]
            ev.params.areaRng = [[0, 1e10]]; ev.params.areaRngLbl = ["all"]
            loaded = time.perf_counter(); ev.evaluate(); ev.accumulate(); end = time.perf_counter()
            times.append(end - start); evaluate_times.append(end - loaded)
    aps = {}
    for k, c in enumerate(ev.params.catIds):
        p = ev.eval["precision"][0, :, k, 0, -1]
        aps[str(c)] = None if (p < 0).any() else float(np.mean(p))
    median = lambda v: sorted(v)[len(v) // 2]
    print(json.dumps({"seconds": median(times), "evaluate_seconds": median(evaluate_times), "aps": aps}))
    """

    /// What a user of pycocotools runs to score a results file: COCO's standard evaluation, whole.
    static let userScript = """
    import sys
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    coco = COCO(sys.argv[1])
    ev = COCOeval(coco, coco.loadRes(sys.argv[2]), "bbox")
    ev.evaluate(); ev.accumulate(); ev.summarize()
    """

    public func run(progress: (String) -> Void = { _ in }) throws -> EvaluationBenchmarkReport {
        progress("making \(images) screens of boxes and detections")
        var g = SeededGenerator(seed: 5)
        let classes = defaultClassNames.count
        var gtImages: [GroundTruthImage] = []
        var cocoAnnotations: [[String: Any]] = [], cocoDets: [[String: Any]] = []
        var json = "["
        var detectionCount = 0
        func grid(_ v: Float) -> Float { (v * 16).rounded(.down) / 16 }
        for i in 0..<images {
            var boxes: [Box] = [], labels: [Int] = []
            for _ in 0..<g.int(10...30) {
                let x = grid(g.uniform(0...220)), y = grid(g.uniform(0...480))
                let b = Box(xMin: x, yMin: y, xMax: x + grid(g.uniform(4...60)), yMax: y + grid(g.uniform(4...30)))
                boxes.append(b)
                labels.append(g.int(0...(classes - 1)))
                cocoAnnotations.append(["id": cocoAnnotations.count + 1, "image_id": i + 1, "category_id": labels.last! + 1, "iscrowd": 0,
                                        "area": b.area, "bbox": [Double(b.xMin), Double(b.yMin), Double(b.width), Double(b.height)]])
            }
            gtImages.append(GroundTruthImage(imageID: "scr-\(i)", boxes: boxes, labels: labels, screenArea: 256 * 512))
            func detection(_ b: Box, _ label: Int) {
                let score = g.nextUnitDouble()
                json += (detectionCount == 0 ? "" : ",") + "{\"image_id\": \"scr-\(i)\", \"class\": \"\(defaultClassNames[label])\", \"score\": \(score), \"box\": [\(b.xMin), \(b.yMin), \(b.xMax), \(b.yMax)]}"
                cocoDets.append(["image_id": i + 1, "category_id": label + 1, "score": score,
                                 "bbox": [Double(b.xMin), Double(b.yMin), Double(b.width), Double(b.height)]])
                detectionCount += 1
            }
            for (b, l) in zip(boxes, labels) where g.chance(0.85) {
                detection(Box(xMin: b.xMin + grid(g.uniform(-2...2)), yMin: b.yMin + grid(g.uniform(-2...2)), xMax: b.xMax + grid(g.uniform(-2...2)), yMax: b.yMax + 1), l)
            }
            while detectionCount < (i + 1) * 40 {
                let x = grid(g.uniform(0...220)), y = grid(g.uniform(0...480))
                detection(Box(xMin: x, yMin: y, xMax: x + grid(g.uniform(4...60)), yMax: y + grid(g.uniform(4...30))), g.int(0...(classes - 1)))
            }
        }
        json += "]"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-bench-eval-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let detsURL = dir.appendingPathComponent("detections.json")
        try Data(json.utf8).write(to: detsURL)

        progress("timing our parse + evaluation")
        let ids = Set(gtImages.map(\.imageID))
        var parse: [Double] = [], total: [Double] = []
        var ours: EvaluationResult? = nil
        // The ground truth is indexed before the clock starts, on both sides (pycocotools' createIndex).
        let evaluator = Evaluator(interpolation: .coco101)
        let truth = evaluator.index(classNames: defaultClassNames, images: gtImages)
        for _ in 0..<runs {
            let start = monotonicSeconds()
            let dets = try EvaluationLoader.detectionsJSON(detsURL, classNames: defaultClassNames, imageIDs: ids, classMap: nil)
            let parsed = monotonicSeconds()
            ours = evaluator.evaluate(truth, detections: dets)
            total.append(monotonicSeconds() - start)
            parse.append(parsed - start)
        }

        progress("timing pycocotools evaluate + accumulate")
        let gtURL = dir.appendingPathComponent("gt.json"), cocoDetsURL = dir.appendingPathComponent("dets.json")
        try JSONSerialization.data(withJSONObject: ["images": (1...images).map { ["id": $0, "width": 256, "height": 512] }, "annotations": cocoAnnotations,
                                                    "categories": (0..<classes).map { ["id": $0 + 1, "name": defaultClassNames[$0]] }]).write(to: gtURL)
        try JSONSerialization.data(withJSONObject: cocoDets).write(to: cocoDetsURL)
        var pySeconds: Double? = nil, pyEvaluateSeconds: Double? = nil, maxDiff: Double? = nil
        if let obj = try runPythonJSON(Self.script, arguments: [gtURL.path, cocoDetsURL.path, String(runs)], in: dir) {
            pySeconds = obj["seconds"] as? Double
            pyEvaluateSeconds = obj["evaluate_seconds"] as? Double
            if let aps = obj["aps"] as? [String: Any], let ours {
                maxDiff = (0..<classes).compactMap { k in (aps["\(k + 1)"] as? Double).map { abs($0 - (ours.classes[k].ap50 ?? -1)) } }.max()
            }
        }

        var commandSeconds: Double? = nil, scriptSeconds: Double? = nil
        if let executable {
            progress("timing the whole uidetect evaluate command")
            let shard = dir.appendingPathComponent("gt.h5")
            try Self.writeGroundTruthShard(gtImages, to: shard)
            commandSeconds = try median((0..<runs).map { k in
                try timedProcess(executable, ["evaluate", "--data", shard.path, "--detections", detsURL.path, "--interpolation", "coco101",
                                              "--out", dir.appendingPathComponent("evaluation-\(k)").path])
            })
            progress("timing a pycocotools script, whole")
            let script = dir.appendingPathComponent("user.py")
            try Data(Self.userScript.utf8).write(to: script)
            if (try? timedProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, gtURL.path, cocoDetsURL.path])) != nil {
                scriptSeconds = try median((0..<runs).map { _ in
                    try timedProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, gtURL.path, cocoDetsURL.path])
                })
            }
        }
        let mine = median(total)
        return EvaluationBenchmarkReport(images: images, groundTruthBoxes: cocoAnnotations.count, detections: detectionCount,
                                         oursSeconds: mine, parseSeconds: median(parse), pycocotoolsSeconds: pySeconds,
                                         pycocotoolsEvaluateSeconds: pyEvaluateSeconds, speedup: pySeconds.map { $0 / mine },
                                         commandSeconds: commandSeconds, pycocotoolsScriptSeconds: scriptSeconds,
                                         commandSpeedup: commandSeconds.flatMap { c in scriptSeconds.map { $0 / c } },
                                         maxAPDifference: maxDiff, runs: runs)
    }

    /// The ground truth as a shard `uidetect evaluate` reads: the boxes, and blank screens for its pictures.
    static func writeGroundTruthShard(_ images: [GroundTruthImage], to url: URL) throws {
        let size = Size(width: 256, height: 512)
        let writer = try ShardWriter(url: url, classNames: defaultClassNames, imageSize: size)
        let blank = RGBImage(size: size, fill: RGB(255, 255, 255))
        for image in images {
            try writer.append(ScreenRecord(imageID: image.imageID, groupID: image.imageID, image: blank, boxes: image.boxes, labels: image.labels.map { Int32($0) }))
        }
        try writer.finish()
    }

    /// Seconds from starting `executable` to its exit; an error if it fails.
    func timedProcess(_ executable: URL, _ arguments: [String]) throws -> Double {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let start = monotonicSeconds()
        try p.run()
        p.waitUntilExit()
        let seconds = monotonicSeconds() - start
        guard p.terminationStatus == 0 else {
            throw BenchmarkError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed with status \(p.terminationStatus)")
        }
        return seconds
    }
}
