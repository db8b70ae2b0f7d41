// swift-tools-version:6.0
import Foundation
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer) for the readers of files that come from elsewhere.
// Built and run by scripts/fuzz.sh, which adds `-sanitize=fuzzer,address`. Each target's main hands
// its test to libFuzzer's driver (FuzzDriver).
// A path dependency is named after its folder, which is whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let uidetect = root.lastPathComponent

func target(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzDriver"] + products.map { .product(name: $0, package: uidetect) },
        path: "Sources/\(name)")
}

let package = Package(
    name: "UIDetectFuzz",
    dependencies: [.package(path: root.path)],
    targets: [
        .target(name: "FuzzDriver"),
        target("FuzzDetectionJSON", ["Evaluation", "Shards"]),
        target("FuzzSafetensors", ["Checkpoints", "Detection"]),
        target("FuzzShardReader", ["Shards"]),
        target("FuzzRunConfig", ["Training"]),
        target("FuzzImageDecode", ["Images"]),
    ],
    swiftLanguageModes: [.v6]
)
