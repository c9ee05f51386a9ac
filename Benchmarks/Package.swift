// swift-tools-version: 6.1
//
// Benchmarks of the MemoryPressure package, kept in their own package so that building the root package
// never builds the benchmark tooling. Run with `swift package --disable-sandbox benchmark` (see README.md).
//
// - IndexedHeapBenchmarks: the heap's single operations and the mixed kill-queue workload against competitors.
// - EngineBenchmarks: engine throughput on generated traces, the cost of a footprint change against a bare
//   heap update, and kill-order on a snapshot of 100,000 apps (the process's malloc is glibc's).
// - SimulationBenchmarks: 24-hour simulations and the engine's bytes per tracked app; it links
//   MemoryPressureJemalloc, so jemalloc is the process's malloc and its statistics measure memory.
// - LiveProcBenchmarks: one refresh of the live Linux kill order against re-reading and fully sorting,
//   on this machine's /proc and on 10,000 synthetic /proc entries; the /proc scan against earlyoom's
//   (CEarlyoomScan: its find_largest_process() compiled from its C source, MIT licence).
// - MetricsBenchmarks: a replay with no metrics, with EngineMetrics and no backend, and with
//   swift-prometheus; one scrape's exposition.
// - BenchmarkSupport: a library the executables share (the plugin only runs executables).

import PackageDescription

let package = Package(
    name: "MemoryPressureBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "MemoryPressure", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "IndexedHeapModule", package: "MemoryPressure"),
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
            ],
            path: "Benchmarks/BenchmarkSupport"
        ),
        .executableTarget(
            name: "IndexedHeapBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "IndexedHeapModule", package: "MemoryPressure"),
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Benchmarks/IndexedHeapBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "IndexedHeapModule", package: "MemoryPressure"),
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "SimulationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
                .product(name: "MemoryPressureJemalloc", package: "MemoryPressure"),
            ],
            path: "Benchmarks/SimulationBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        // earlyoom's /proc scan (find_largest_process() from its kill.c, MIT), compiled as C for
        // the side-by-side in LiveProcBenchmarks.
        .target(name: "CEarlyoomScan", path: "Benchmarks/CEarlyoomScan"),
        .executableTarget(
            name: "LiveProcBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                "CEarlyoomScan",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureFormats", package: "MemoryPressure"),
                .product(name: "MemoryPressureLinux", package: "MemoryPressure"),
            ],
            path: "Benchmarks/LiveProcBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "MetricsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "MemoryPressure", package: "MemoryPressure"),
                .product(name: "MemoryPressureMetrics", package: "MemoryPressure"),
                .product(name: "MemoryPressureSimulation", package: "MemoryPressure"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Benchmarks/MetricsBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ]
)
