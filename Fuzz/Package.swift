// swift-tools-version: 6.1
//
// libFuzzer targets for every parser of the MemoryPressure package, in their own package so that
// building the root package never builds them. Build and run one with `scripts/fuzz.sh TARGET
// SECONDS` (TARGET: policy, snapshot, trace, workload, usage-log, sweep, report); docs/limits.md ("Limits and hostile
// input") reports how many inputs each ran without a crash.

import PackageDescription

let package = Package(
    name: "MemoryPressureFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "MemoryPressure", path: "../")
    ],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzPolicy",
            dependencies: [
                "FuzzSupport", .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
            ]),
        .executableTarget(
            name: "FuzzSnapshot",
            dependencies: [
                "FuzzSupport", .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
            ]),
        .executableTarget(
            name: "FuzzTrace",
            dependencies: [
                "FuzzSupport",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
            ]),
        .executableTarget(
            name: "FuzzWorkload",
            dependencies: [
                "FuzzSupport",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
            ]),
        .executableTarget(
            name: "FuzzSweep",
            dependencies: [
                "FuzzSupport",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
            ]),
        .executableTarget(
            name: "FuzzReport",
            dependencies: [
                "FuzzSupport", .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
            ]),
        .executableTarget(
            name: "FuzzUsageLog",
            dependencies: [
                "FuzzSupport",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
            ]),
    ]
)
