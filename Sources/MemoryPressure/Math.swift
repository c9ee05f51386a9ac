#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's elementary functions, which the standard library does not offer: the engine
/// calls them here rather than through Foundation, so the core module needs no Foundation. They
/// are the same functions Foundation re-exported (the C library's `log`, `log1p`, `exp`), so the
/// results are bit-for-bit those of before.
enum Math {
    /// The natural logarithm.
    static func log(_ x: Double) -> Double {
        #if canImport(Glibc)
            Glibc.log(x)
        #elseif canImport(Musl)
            Musl.log(x)
        #else
            Darwin.log(x)
        #endif
    }

    /// ln(1 + x), exact for small x.
    static func log1p(_ x: Double) -> Double {
        #if canImport(Glibc)
            Glibc.log1p(x)
        #elseif canImport(Musl)
            Musl.log1p(x)
        #else
            Darwin.log1p(x)
        #endif
    }

    /// log(e^a + e^b) without overflow: the sum of two counts kept as logarithms (−∞ for none).
    static func logAdd(_ a: Double, _ b: Double) -> Double {
        let high = Swift.max(a, b)
        guard high > -.infinity else { return -.infinity }
        return high + log(exp(a - high) + exp(b - high))
    }

    /// e raised to x.
    static func exp(_ x: Double) -> Double {
        #if canImport(Glibc)
            Glibc.exp(x)
        #elseif canImport(Musl)
            Musl.exp(x)
        #else
            Darwin.exp(x)
        #endif
    }
}
