// swift-tools-version:6.0
import PackageDescription

// Generic x86-64 codegen is SSE2 only; the hot loops need AVX2 and FMA (haswell and later) to vectorise.
let hotLoopFlags: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell"])]

let package = Package(
    name: "UIDetect",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "uidetect", targets: ["uidetect"]),
        .library(name: "Engine", targets: ["Engine"]),
        .library(name: "Layers", targets: ["Layers"]),
        .library(name: "Optimizers", targets: ["Optimizers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian, found by pkg-config.
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),

        // Tensors, the tape, and every differentiable op.
        .target(name: "Engine", dependencies: ["CBLAS"], swiftSettings: hotLoopFlags),
        // Parameterised building blocks with named parameters.
        .target(name: "Layers", dependencies: ["Engine"], swiftSettings: hotLoopFlags),
        // Optimizers, learning-rate schedules, gradient clipping.
        .target(name: "Optimizers", dependencies: ["Engine"], swiftSettings: hotLoopFlags),
        // The engine self-check and the speed measurements behind `uidetect bench`.
        .target(name: "Diagnostics", dependencies: ["Engine", "Layers", "Optimizers", "CBLAS"], swiftSettings: hotLoopFlags),
        // The command-line tool: glue only.
        .executableTarget(
            name: "uidetect",
            dependencies: [
                "Engine", "Layers", "Optimizers", "Diagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .target(name: "TestSupport", dependencies: ["Engine"], path: "Tests/TestSupport"),
        .testTarget(name: "EngineTests", dependencies: ["Engine", "TestSupport"]),
        .testTarget(name: "LayersTests", dependencies: ["Layers", "Optimizers", "TestSupport"]),
        .testTarget(name: "OptimizersTests", dependencies: ["Optimizers", "TestSupport"]),
        .testTarget(name: "CommandLineTests", dependencies: ["uidetect"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics"]),
    ],
    swiftLanguageModes: [.v5]
)
