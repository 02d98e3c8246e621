// swift-tools-version:6.0
import PackageDescription

// The layers, with dependencies pointing one way:
//   TagshModel   <- TagshQuery <- TagshRules <- TagshShell <- tagsh (executable)
//   TagshModel   <- TagshFormats <-'            TagshTerminal (libedit) <-'
// Only TagshTerminal imports libedit. CPrefetch is one inline C function (a prefetch) for TagshModel and TagshRules.
let package = Package(
    name: "tagsh",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tagsh", targets: ["tagsh"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(name: "CPrefetch"),
        .target(name: "TagshModel", dependencies: ["CPrefetch"]),
        .target(name: "TagshQuery", dependencies: ["TagshModel"]),
        .target(name: "TagshFormats", dependencies: ["TagshModel"]),
        .target(name: "TagshRules", dependencies: ["CPrefetch", "TagshModel", "TagshQuery"]),
        .target(name: "TagshShell", dependencies: ["TagshModel", "TagshQuery", "TagshFormats", "TagshRules"]),
        .target(name: "TagshTerminal", dependencies: ["CLibEdit"]),
        .executableTarget(
            name: "tagsh",
            dependencies: [
                "TagshShell", "TagshTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks; built, never run by the tests.
        .executableTarget(name: "tagsh-bench", dependencies: ["TagshShell", "TagshTerminal"]),
        // Fuzzing: the targets (replayed by the tests) and the libFuzzer driver (scripts/fuzz).
        .target(name: "TagshFuzzTargets", dependencies: ["TagshFormats", "TagshQuery", "TagshModel", "TagshShell"]),
        .executableTarget(name: "tagsh-fuzz", dependencies: ["TagshFuzzTargets"]),
        // The tests' seeded generator, shared by the test targets.
        .target(name: "TagshTestSupport", path: "Tests/Support"),
        .testTarget(name: "TagshModelTests", dependencies: ["TagshModel", "TagshTestSupport"]),
        .testTarget(name: "TagshQueryTests", dependencies: ["TagshQuery", "TagshModel", "TagshTestSupport"]),
        .testTarget(name: "TagshFuzzRegressionTests", dependencies: ["TagshFuzzTargets"], path: "Tests/Fuzz",
                    resources: [.copy("Regressions")]),
        .testTarget(name: "TagshFormatsTests", dependencies: ["TagshFormats", "TagshModel", "TagshTestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "TagshShellTests", dependencies: ["TagshShell", "TagshModel", "TagshQuery", "TagshFormats", "TagshRules",
                                                            "TagshTerminal", "TagshTestSupport"],
                    resources: [.copy("Transcripts")]),
    ]
)
