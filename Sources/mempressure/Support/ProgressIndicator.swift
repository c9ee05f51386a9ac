import Foundation

/// A one-line progress bar on stderr, shown only when stderr is a terminal and the work has
/// already taken longer than a moment; erased when done.
final class ProgressIndicator: @unchecked Sendable {
    private let label: String
    private let start = Date()
    private let lock = NSLock()
    private var shown = false
    private let enabled: Bool

    init(_ label: String) {
        self.label = label
        enabled = StandardError.isTerminal
    }

    /// Reports that `fraction` (0...1) of the work is done.
    func update(_ fraction: Double) {
        guard enabled, Date().timeIntervalSince(start) > 0.4 else { return }
        lock.withLock {
            let width = 30
            let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            StandardError.write("\r\(label) [\(bar)] \(Int((fraction * 100).rounded()))%")
            shown = true
        }
    }

    /// Erases the bar.
    func finish() {
        lock.withLock {
            if shown { StandardError.write("\r" + String(repeating: " ", count: label.count + 40) + "\r") }
            shown = false
        }
    }
}
