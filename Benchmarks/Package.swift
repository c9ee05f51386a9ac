// swift-tools-version: 6.1
//
// Benchmarks for IndexedHeapModule, kept in their own package so that building the root package never
// builds the benchmark tooling. Run with `swift package --disable-sandbox benchmark` (see README.md).

import PackageDescription

let package = Package(
    name: "MemoryPressureBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "MemoryPressure", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "IndexedHeapBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "IndexedHeapModule", package: "MemoryPressure"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Benchmarks/IndexedHeapBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        )
    ]
)
