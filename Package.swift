// swift-tools-version:6.0
import PackageDescription

// Portable: no CPU flags here (they would forbid other packages from depending on these
// libraries and break arm64). scripts/build-flags.sh tunes each build for the CPU it runs on.
let package = Package(
    name: "UIDetect",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "uidetect", targets: ["uidetect"]),
        .library(name: "Engine", targets: ["Engine"]),
        .library(name: "Layers", targets: ["Layers"]),
        .library(name: "Optimizers", targets: ["Optimizers"]),
        // The readers of files from elsewhere, for packages built on them (and Fuzz/, the fuzz targets).
        .library(name: "Checkpoints", targets: ["Checkpoints"]),
        .library(name: "Detection", targets: ["Detection"]),
        .library(name: "Evaluation", targets: ["Evaluation"]),
        .library(name: "Images", targets: ["Images"]),
        .library(name: "Shards", targets: ["Shards"]),
        .library(name: "Training", targets: ["Training"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.0"),
    ],
    targets: [
        // C libraries from Debian, found by pkg-config.
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(name: "CHDF5", pkgConfig: "hdf5", providers: [.apt(["libhdf5-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CMPI", pkgConfig: "ompi-c", providers: [.apt(["libopenmpi-dev"])]),
        // Tesseract's C API: its header's types and constants only. The OCR module loads the library
        // with dlopen, so that uidetect starts (and describe goes on without OCR) where it is missing.
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng"])]),

        // PNG decoding with libpng's full API: its errors jump (longjmp), so the jump lands in C.
        .target(name: "PNGDecoding", dependencies: ["CPNG"]),

        // Tensors, the tape, and every differentiable op.
        // A portable seeded random generator, shared by the engine and the data code.
        .target(name: "SeededRandom"),
        // Strict YAML configs (laid over defaults, errors naming the key) for run and description configs.
        .target(name: "ConfigFiles", dependencies: ["Yams"]),
        // How config and result files name their keys: nil written as null (`Nullable`), and
        // impossible values named by dotted key, each section checking its own (`ConfigProblems`).
        .target(name: "FileKeys"),
        // Work spread over threads: parallelMap, and the wrapper for values workers share safely.
        .target(name: "Workers"),
        // Where commands write: output folders staged and replaced only when they hold what the command
        // wrote, output files that are never an input, plain sentences for file-system errors.
        .target(name: "Outputs"),
        // Non-temporal stores for the engine's passes over tensors larger than the caches (Swift has no spelling for them).
        .target(name: "StreamingStores"),
        // The vector register width the build targets (AVX-512, AVX2, NEON), which Swift has no condition for.
        .target(name: "TargetVectors"),
        .target(name: "Engine", dependencies: ["CBLAS", "SeededRandom", "StreamingStores", "TargetVectors", "Workers"]),
        // Parameterised building blocks with named parameters.
        .target(name: "Layers", dependencies: ["Engine"]),
        // Optimizers, learning-rate schedules, gradient clipping.
        .target(name: "Optimizers", dependencies: ["Engine"]),
        // The SSD MobileNetV1 + FPN detector: model, anchors, box coder, matcher (ssd-model.md).
        .target(name: "Detection", dependencies: ["Engine", "Layers", "Boxes", "Images", "Checkpoints", "FileKeys", .product(name: "Algorithms", package: "swift-algorithms")]),
        // Named float32 tensors as safetensors files: checkpoints and exports.
        .target(name: "Checkpoints", dependencies: ["Outputs"]),
        // The icon vocabulary (icon-recognition.md): 52 types and `other`, with what a screen reader says for each.
        .target(name: "IconVocabulary"),
        // Glyphs of Debian's icon packages with what each means, drawn at any size and weight with FreeType.
        .target(name: "Glyphs", dependencies: ["CFreeType", "IconVocabulary"]),
        // The icon classifier (icon-recognition.md): its network, file, inference on crops, training samples and scores.
        .target(name: "IconRecognition", dependencies: ["Boxes", "Checkpoints", "Engine", "FileKeys", "Glyphs", "IconVocabulary", "Images", "Layers", "SeededRandom"]),
        // Box geometry: IoU, NMS, coordinate conversions. Depends on nothing.
        .target(name: "Boxes"),
        // RGB images: PNG and JPEG codecs, resizing, drawing boxes and text.
        .target(name: "Images", dependencies: ["Boxes", "CPNG", "PNGDecoding", "CTurboJPEG", "CFreeType"]),
        // Screen shards (HDF5), splits, statistics, the input pipeline and augmentation.
        .target(name: "Shards", dependencies: ["Boxes", "IconVocabulary", "Images", "CHDF5", "ConfigFiles", "FileKeys", "SeededRandom", "Workers", "Yams"]),
        // The synthetic iOS-style screen generator.
        .target(name: "Synthesis", dependencies: ["Boxes", "Glyphs", "IconVocabulary", "Images", "Shards", "SeededRandom", "Workers"]),
        // Other tools' files (COCO instances and results, Ultralytics data.yaml, id mappings) and exports of shards into them.
        .target(name: "Interchange", dependencies: ["Boxes", "ConfigFiles", "FileKeys", "Images", "Shards", "Yams"]),
        // Checks of shards before training: leakage between splits (perceptual hashes), suspicious boxes, rare classes.
        .target(name: "DataChecks", dependencies: ["Boxes", "Images", "Shards"]),
        // Importers for COCO, Pascal VOC and YOLO data sets.
        .target(name: "Importers", dependencies: ["Boxes", "Images", "Shards", "Interchange", "VocabularyMaps", "Yams"]),
        // Per-class AP, AP-center, PR curves, thresholds, confusion matrices (evaluation.md).
        .target(name: "Evaluation", dependencies: ["Boxes", "FileKeys", "Shards", "Interchange", "Workers"]),
        // Screen descriptions (screen-description.md): from detections to accessibility elements, and their metrics.
        .target(name: "ScreenDescription", dependencies: ["Boxes", "FileKeys", "IconVocabulary", "Images", "Outputs", "VocabularyMaps"]),
        // What each class of a detector vocabulary becomes in a description (vocabulary map files), and the interactive truth it decides.
        .target(name: "VocabularyMaps", dependencies: ["Boxes", "ConfigFiles", "Yams"]),
        // Text recognition for descriptions: the TextRecognizer protocol and Tesseract behind it.
        .target(name: "OCR", dependencies: ["CTesseract", "Images", "Boxes"]),
        // Reports a person reads: the evaluation's HTML page, screen descriptions and their metrics.
        .target(name: "Reports", dependencies: ["Boxes", "Evaluation", "IconVocabulary", "Shards", "ScreenDescription", "Images"]),
        // A detector run over inputs and written as the commands write it: evaluations of shards (evaluate and each
        // validation), predictions on screenshots, the deployment filter from a thresholds file.
        .target(name: "DetectorRuns", dependencies: ["Detection", "Engine", "Evaluation", "Images", "Interchange", "Reports", "Shards", "Workers"]),
        // Training runs: YAML run configs, the training loop, checkpoints, validation, prediction over shards.
        .target(name: "Training", dependencies: ["Outputs", "DetectorRuns", "Glyphs", "IconRecognition", "IconVocabulary", "Engine", "Layers", "Optimizers", "Detection", "Boxes", "Images", "Shards", "Evaluation", "Reports", "Checkpoints", "TensorBoard", "Distributed", "ConfigFiles", "FileKeys", "Yams", .product(name: "Logging", package: "swift-log")],
                ),
        // Protocol-buffer wire encoding by hand (no protobuf runtime). Depends on nothing.
        .target(name: "Protobuf"),
        // Data-parallel runs over MPI: the process group, deterministic collectives, synchronised batch norm.
        .target(name: "Distributed", dependencies: ["CMPI", "Engine"]),
        // Screen Recognition end to end: detector, deployment filter, OCR and the description heuristics.
        .target(name: "ScreenRecognition", dependencies: ["Boxes", "ConfigFiles", "Detection", "Engine", "IconRecognition", "IconVocabulary", "Images", "Interchange", "OCR", "Reports", "ScreenDescription", "Shards", "VocabularyMaps"]),
        // Exports for other runtimes: the detector as ONNX (encoded with Protobuf).
        .target(name: "Export", dependencies: ["Engine", "Layers", "Detection", "Boxes", "Protobuf"]),
        // TensorBoard event files: scalars, images and PR curves, TFRecord-framed.
        .target(name: "TensorBoard", dependencies: ["Protobuf", "Images"]),
        // The engine self-check and the speed measurements behind `uidetect bench`.
        .target(name: "Diagnostics", dependencies: ["Engine", "Layers", "Optimizers", "CBLAS", "Shards", "Synthesis", "Evaluation", "Detection", "Training", "Images", "Export", "IconRecognition"]),
        // The command-line tool: glue only.
        .executableTarget(
            name: "uidetect",
            dependencies: [
                "Outputs", "DetectorRuns", "IconRecognition", "IconVocabulary", "Engine", "Layers", "Optimizers", "Diagnostics", "Detection", "Distributed", "Training", "ScreenRecognition", "ScreenDescription", "VocabularyMaps", "OCR", "Checkpoints", "Export", "Boxes", "Images", "Shards", "Synthesis", "Importers", "Interchange", "Evaluation", "Reports", "DataChecks", "Workers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ]),

        // Helpers every test target shares: temporary folders, running programs and the built uidetect, the gradient
        // check, a reference convolution, the planted detector, synthetic shards, and the locators of shared data and Python packages.
        .target(name: "TestSupport", dependencies: ["Boxes", "Engine", "Detection", "IconRecognition", "IconVocabulary", "Images", "Shards", "Synthesis"], path: "Tests/TestSupport"),
        .testTarget(name: "EngineTests", dependencies: ["Engine", "TestSupport"]),
        .testTarget(name: "LayersTests", dependencies: ["Layers", "Optimizers", "TestSupport"]),
        .testTarget(name: "OptimizersTests", dependencies: ["Optimizers", "TestSupport"]),
        .testTarget(name: "CommandLineTests", dependencies: ["uidetect", "Boxes", "Checkpoints", "Detection", "Engine", "IconRecognition", "IconVocabulary", "Images", "Shards", "Training", "TestSupport"]),
        .testTarget(name: "BoxesTests", dependencies: ["Boxes"]),
        .testTarget(name: "OutputsTests", dependencies: ["Outputs", "TestSupport"]),
        .testTarget(name: "GlyphsTests", dependencies: ["Boxes", "Glyphs", "IconVocabulary", "Images"]),
        .testTarget(name: "IconRecognitionTests", dependencies: ["IconRecognition", "Boxes", "Checkpoints", "Glyphs", "IconVocabulary", "Images", "Engine", "TestSupport"]),
        .testTarget(name: "ConfigFilesTests", dependencies: ["ConfigFiles", "FileKeys", "Yams", "TestSupport"]),
        .testTarget(name: "FileKeysTests", dependencies: ["FileKeys"]),
        .testTarget(name: "SeededRandomTests", dependencies: ["SeededRandom"]),
        .testTarget(name: "WorkersTests", dependencies: ["Workers"]),
        .testTarget(name: "IconVocabularyTests", dependencies: ["IconVocabulary"]),
        .testTarget(name: "DistributedTests", dependencies: ["Distributed", "Engine"]),
        .testTarget(name: "DetectorRunsTests", dependencies: ["DetectorRuns", "Detection", "Evaluation", "Images", "Interchange", "Shards", "Synthesis", "TestSupport"]),
        .testTarget(name: "ScreenRecognitionTests", dependencies: ["ScreenRecognition", "OCR", "ScreenDescription", "Detection", "IconRecognition", "IconVocabulary", "Images", "Interchange", "Shards", "Synthesis", "TestSupport"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "Detection", "Engine", "Layers", "Shards", "Synthesis", "TestSupport"]),
        .testTarget(name: "CheckpointsTests", dependencies: ["Checkpoints", "TestSupport"]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "Engine", "Detection", "IconRecognition", "Layers", "Shards", "Synthesis", "Checkpoints", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ExportTests", dependencies: ["Export", "Training", "Detection", "Checkpoints", "Engine", "Boxes", "Images", "Synthesis", "TestSupport"]),
        .testTarget(name: "DetectionTests", dependencies: ["Detection", "Optimizers", "Images", "TestSupport"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Images", "SeededRandom", "TestSupport"], resources: [.copy("Scripts")]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Evaluation", "Shards", "ScreenDescription", "Images", "TestSupport"]),
        .testTarget(name: "ScreenDescriptionTests", dependencies: ["ScreenDescription", "Boxes", "IconVocabulary", "Images", "VocabularyMaps", "TestSupport"]),
        .testTarget(name: "VocabularyMapsTests", dependencies: ["VocabularyMaps", "Boxes"]),
        .testTarget(name: "OCRTests", dependencies: ["OCR", "Images", "Boxes", "TestSupport"]),
        .testTarget(name: "ImagesTests", dependencies: ["Images", "TestSupport"]),
        .testTarget(name: "ShardsTests", dependencies: ["Shards", "Synthesis", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DataChecksTests", dependencies: ["DataChecks", "Shards", "Images", "Boxes", "TestSupport"]),
        .testTarget(name: "SynthesisTests", dependencies: ["Synthesis"]),
        .testTarget(name: "ProtobufTests", dependencies: ["Protobuf"]),
        .testTarget(name: "TensorBoardTests", dependencies: ["TensorBoard", "Images", "Boxes", "TestSupport"], resources: [.copy("Scripts")]),
        .testTarget(name: "ImportersTests", dependencies: ["Importers", "Interchange", "Images", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "InterchangeTests", dependencies: ["Interchange", "Importers", "Evaluation", "Shards", "Images", "Boxes", "SeededRandom", "TestSupport"], resources: [.copy("Scripts")]),
    ],
    swiftLanguageModes: [.v6]
)
