import Foundation

/// A one-line progress bar on stderr, shown only when stderr is a terminal and the work has
/// already taken longer than a moment; erased when done.
final class ProgressIndicator: @unchecked Sendable {
    private let label: String
    private let start = Date()
    private let lock = NSLock()
    private var shown = false
    private let enabled: Bool
    private let showsTimeLeft: Bool

    /// A bar labelled `label`; with `showsTimeLeft`, it also estimates the time left from the
    /// rate so far.
    init(_ label: String, showsTimeLeft: Bool = false) {
        self.label = label
        self.showsTimeLeft = showsTimeLeft
        enabled = StandardError.isTerminal
    }

    /// Reports that `fraction` (0...1) of the work is done.
    func update(_ fraction: Double) {
        guard enabled, Date().timeIntervalSince(start) > 0.4 else { return }
        lock.withLock {
            let width = 30
            let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            var line = "\r\(label) [\(bar)] \(Int((fraction * 100).rounded()))%"
            if showsTimeLeft, fraction > 0 {
                let left = Int((Date().timeIntervalSince(start) * (1 - fraction) / fraction).rounded())
                line += left >= 60 ? ", about \(left / 60) min \(left % 60) s left  " : ", about \(left) s left  "
            }
            StandardError.write(line)
            shown = true
        }
    }

    /// Erases the bar.
    func finish() {
        lock.withLock {
            if shown { StandardError.write("\r" + String(repeating: " ", count: label.count + 80) + "\r") }
            shown = false
        }
    }
}
