// swift-tools-version: 6.1
//
// MemoryPressure: a memory-pressure and purge policy engine.
// Module roles and the data flow between them are described in README.md ("Architecture").

import PackageDescription

/// Internal consistency checks (`_checkInvariants()` at the end of every mutator) are compiled in
/// only when the package is built with `MEMORYPRESSURE_INTERNAL_CHECKS=1` in the environment, so
/// release builds and benchmarks never pay for them.
let internalChecks: [SwiftSetting] =
    Context.environment["MEMORYPRESSURE_INTERNAL_CHECKS"] == nil ? [] : [.define("MEMORYPRESSURE_INTERNAL_CHECKS")]

let package = Package(
    name: "MemoryPressure",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "IndexedHeapModule", targets: ["IndexedHeapModule"]),
        .library(name: "MemoryPressure", targets: ["MemoryPressure"]),
        .library(name: "MemoryPressureSimulation", targets: ["MemoryPressureSimulation"]),
        .library(name: "MemoryPressureJemalloc", targets: ["MemoryPressureJemalloc"]),
        .library(name: "MemoryPressureLinux", targets: ["MemoryPressureLinux"]),
        .executable(name: "mempressure", targets: ["mempressure"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Tests only: property-based tests of the parsers and the accountant.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "IndexedHeapModule",
            swiftSettings: internalChecks
        ),
        .target(
            name: "MemoryPressure",
            dependencies: [
                "IndexedHeapModule",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The policy files are compiled in (ShippedPolicies.swift, made by
            // scripts/generate-shipped-policies.py), so a binary copied anywhere finds them.
            exclude: ["Policies"],
            swiftSettings: internalChecks
        ),
        .target(
            name: "MemoryPressureSimulation",
            dependencies: ["MemoryPressure"],
            swiftSettings: internalChecks
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        .target(
            name: "MemoryPressureJemalloc",
            dependencies: ["MemoryPressure", "CJemalloc"],
            swiftSettings: internalChecks
        ),
        .target(
            name: "MemoryPressureLinux",
            dependencies: ["MemoryPressure"],
            swiftSettings: internalChecks
        ),
        .executableTarget(
            name: "mempressure",
            dependencies: [
                "MemoryPressure",
                "MemoryPressureSimulation",
                "MemoryPressureJemalloc",
                "MemoryPressureLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // A non-test target with helpers shared by the test targets (seeded generators, reference models).
        .target(
            name: "TestSupport",
            dependencies: ["IndexedHeapModule", "MemoryPressure", "MemoryPressureSimulation"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "IndexedHeapModuleTests", dependencies: ["IndexedHeapModule", "TestSupport"]),
        .testTarget(
            name: "MemoryPressureTests",
            dependencies: [
                "MemoryPressure", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "MemoryPressureSimulationTests",
            dependencies: [
                "MemoryPressureSimulation", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "MemoryPressureJemallocTests", dependencies: ["MemoryPressureJemalloc", "MemoryPressureSimulation", "TestSupport"]),
        .testTarget(
            name: "MemoryPressureLinuxTests",
            dependencies: [
                "MemoryPressureLinux", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "MempressureCLITests", dependencies: ["mempressure", "TestSupport"]),
    ]
)
