import Testing
import TestSupport

/// `withEvery` names its label and value when a case fails, as swift-collections' does.
@Suite("withEvery names the failing case")
struct WithEveryTests {
    struct Failure: Error {}

    @Test("a thrown error is recorded with the label and value of every enclosing loop")
    func namesTheCase() {
        withKnownIssue {
            do {
                try withEvery("seed", in: 0..<3) { seed in
                    try withEvery("step", in: ["a", "b"]) { step in
                        if seed == 2 && step == "b" { throw Failure() }
                    }
                }
            } catch {}
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("seed: 2, step: b") }
        }
    }

    @Test("checks made inside read the trail from TestContext")
    func trailForChecks() {
        var seen: [String] = []
        withEvery("n", in: [7]) { _ in seen.append(TestContext.annotate("mismatch")) }
        #expect(seen == ["mismatch [n: 7]"])
        #expect(TestContext.annotate("outside") == "outside")
    }
}
