// swift-tools-version: 6.1
//
// MemoryPressure: a memory-pressure and purge policy engine.
// Licensed under the Apache License, Version 2.0 (LICENSE, NOTICE); SPDX-License-Identifier: Apache-2.0
// Module roles and the data flow between them are described in README.md ("Architecture").

import PackageDescription

/// Internal consistency checks (`_checkInvariants()` at the end of every mutator) are always on when
/// the package is built with `MEMORYPRESSURE_INTERNAL_CHECKS=1` in the environment. A debug build
/// without it checks when run with that variable set (`make test-checks`); release builds and
/// benchmarks never pay for them.
let internalChecks: [SwiftSetting] =
    Context.environment["MEMORYPRESSURE_INTERNAL_CHECKS"] == nil ? [] : [.define("MEMORYPRESSURE_INTERNAL_CHECKS")]

let package = Package(
    name: "MemoryPressure",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "IndexedHeapModule", targets: ["IndexedHeapModule"]),
        .library(name: "MemoryPressure", targets: ["MemoryPressure"]),
        .library(name: "MemoryPressureFormats", targets: ["MemoryPressureFormats"]),
        .library(name: "MemoryPressureSimulation", targets: ["MemoryPressureSimulation"]),
        .library(name: "MemoryPressureJemalloc", targets: ["MemoryPressureJemalloc"]),
        .library(name: "MemoryPressureLinux", targets: ["MemoryPressureLinux"]),
        .library(name: "MemoryPressureMetrics", targets: ["MemoryPressureMetrics"]),
        .library(name: "MemoryPressureMetricsServer", targets: ["MemoryPressureMetricsServer"]),
        .executable(name: "mempressure", targets: ["mempressure"]),
    ],
    // TLS for the metrics endpoint (`watch --web-config`) is a trait, on by default. Building
    // without it (`--disable-default-traits`) leaves swift-nio-ssl and its BoringSSL out of the build,
    // which a newcomer's `make run` and the sanitizer builds do (docs/ci.md: about 140 CPU-seconds
    // a build); `--web-config` with a `tls_server_config` then says the binary has no TLS.
    traits: [
        .trait(name: "TLS", description: "HTTPS for `watch --metrics-port` (swift-nio-ssl, BoringSSL)."),
        .default(enabledTraits: ["TLS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // MemoryPressureMetrics reports through swift-metrics; `watch --metrics-port` serves it
        // with swift-prometheus (which brings swift-atomics 1.3.0).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // MemoryPressureMetricsServer serves them over HTTP on SwiftNIO, as a swift-service-lifecycle
        // service (`watch` runs in a ServiceGroup: SIGTERM and SIGINT drain it).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // TLS for the metrics endpoint (`watch --web-config`, the Prometheus exporters' web configuration).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Tests only: property-based tests of the parsers and the accountant.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Documentation only: `swift package generate-documentation` (make docs) builds each
        // library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "IndexedHeapModule",
            swiftSettings: internalChecks
        ),
        // The engine: no file formats, no Yams, no Foundation.
        .target(
            name: "MemoryPressure",
            dependencies: ["IndexedHeapModule"],
            swiftSettings: internalChecks
        ),
        // Files, parsing and writing: policies (read and write, and the shipped ones), snapshots,
        // the kill-order report, the event log's JSON Lines.
        .target(
            name: "MemoryPressureFormats",
            dependencies: ["MemoryPressure", .product(name: "Yams", package: "Yams")],
            // The policy files are compiled in (ShippedPolicies.swift, made by
            // scripts/generate-shipped-policies.py), so a binary copied anywhere finds them.
            exclude: ["Policies"],
            swiftSettings: internalChecks
        ),
        .target(
            name: "MemoryPressureSimulation",
            dependencies: ["MemoryPressure", "MemoryPressureFormats"],
            // The shipped workload files are compiled in (ShippedWorkloads.swift, made by
            // scripts/generate-shipped-workloads.py), as the policies are.
            exclude: ["Workloads"],
            swiftSettings: internalChecks
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        .target(
            name: "MemoryPressureJemalloc",
            // Formats only for the default policy (`Policy.ios4`) of `RealMemoryHost`.
            dependencies: ["MemoryPressure", "MemoryPressureFormats", "CJemalloc"],
            swiftSettings: internalChecks
        ),
        .target(
            name: "MemoryPressureLinux",
            dependencies: ["MemoryPressure"],
            swiftSettings: internalChecks
        ),
        .target(
            name: "MemoryPressureMetrics",
            dependencies: ["MemoryPressure", .product(name: "CoreMetrics", package: "swift-metrics")],
            swiftSettings: internalChecks
        ),
        .systemLibrary(
            name: "CCrypt",
            providers: [.apt(["libcrypt-dev"])]
        ),
        // The metrics over HTTP: a SwiftNIO server (a ServiceLifecycle service) and the handler an
        // embedding server mounts on its own NIO pipeline.
        .target(
            name: "MemoryPressureMetricsServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "CCrypt",
            ],
            swiftSettings: internalChecks
        ),
        // The commit `mempressure --version` prints, stamped by scripts/dist.sh (`make dist`,
        // `make install`) through a header in the build folder; "unknown" in any other build.
        .target(name: "CBuildInfo"),
        .executableTarget(
            name: "mempressure",
            dependencies: [
                "CBuildInfo",
                "MemoryPressure",
                "MemoryPressureFormats",
                "MemoryPressureSimulation",
                "MemoryPressureJemalloc",
                "MemoryPressureLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "MemoryPressureMetrics",
                "MemoryPressureMetricsServer",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // A non-test target with helpers shared by the test targets (seeded generators, reference models).
        .target(
            name: "TestSupport",
            dependencies: ["IndexedHeapModule", "MemoryPressure", "MemoryPressureFormats", "MemoryPressureSimulation"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "IndexedHeapModuleTests", dependencies: ["IndexedHeapModule", "TestSupport"]),
        .testTarget(
            name: "MemoryPressureTests",
            dependencies: [
                "MemoryPressure", "MemoryPressureFormats", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "MemoryPressureSimulationTests",
            dependencies: [
                "MemoryPressureSimulation", "MemoryPressureFormats", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "MemoryPressureJemallocTests",
            dependencies: [
                "MemoryPressureJemalloc", "MemoryPressureFormats", "MemoryPressureSimulation", "TestSupport",
            ]),
        .testTarget(
            name: "MemoryPressureLinuxTests",
            dependencies: [
                "MemoryPressureLinux", "MemoryPressureFormats", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "MemoryPressureMetricsTests",
            dependencies: [
                "MemoryPressureMetrics", "MemoryPressureMetricsServer", "TestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "MempressureCLITests",
            dependencies: ["mempressure", "MemoryPressureFormats", "MemoryPressureSimulation", "TestSupport"]),
    ]
)

// The sanitizer builds (scripts/sanitizers.sh sets MEMORYPRESSURE_LIBRARIES_ONLY=1) leave out the
// command-line tool, its C stamp and its suite. That suite drives the tool as a child process and
// runs in debug only (`make test`; docs/ci.md, "Where each suite runs"), so compiling it and the
// tool under a sanitizer cost each of CI's sanitizer builds a minute or more for nothing.
if Context.environment["MEMORYPRESSURE_LIBRARIES_ONLY"] != nil {
    let commandLine: Set = ["mempressure", "CBuildInfo", "MempressureCLITests"]
    package.products.removeAll { commandLine.contains($0.name) }
    package.targets.removeAll { commandLine.contains($0.name) }
}
