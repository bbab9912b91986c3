import AnalyzerTestSupport
import Foundation
import Testing

/// The outputs the README shows are what bledecode prints for the commands it shows: an excerpt's
/// lines are consecutive lines of the output, except where a `…` line stands for lines left out.
struct ReadmeExampleTests {
    /// The lines of the first plain code block opened after the line holding `marker`.
    static func excerpt(after marker: String) throws -> [String] {
        try #require(try DocCodeBlocks("README.md").blocks("", after: marker).first).lines
    }

    /// The first run of the excerpt's lines (between `…` lines) that is not where it should be in
    /// `output`, or nil when the excerpt is one of `output`. Each run must be consecutive lines of
    /// the output, each `…` stands for one line or more, and the excerpt may begin and end anywhere.
    static func misplaced(_ excerpt: [String], in output: String) -> [String]? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let runs = excerpt.split(separator: "…", omittingEmptySubsequences: false).map(Array.init)
        var from = 0
        for run in runs {
            // The earliest place leaves the most room to the runs after it.
            guard let start = (from...max(from, lines.count - run.count)).first(where: { start in
                start + run.count <= lines.count && Array(lines[start..<(start + run.count)]) == run
            }) else { return run }
            from = start + run.count + 1
        }
        return nil
    }

    @Test func excerptsAreConsecutiveLinesExceptWhereMarked() {
        let output = "a\nb\nc\nd\ne"
        #expect(Self.misplaced(["b", "c"], in: output) == nil)
        #expect(Self.misplaced(["a", "…", "d", "e"], in: output) == nil)
        #expect(Self.misplaced(["…", "c", "…"], in: output) == nil)
        #expect(Self.misplaced(["a", "c"], in: output) == ["a", "c"])
        #expect(Self.misplaced(["a", "…", "b"], in: output) == ["b"])
        #expect(Self.misplaced(["c", "…", "b"], in: output) == ["b"])
        #expect(Self.misplaced(["…", "a"], in: output) == ["a"])
        #expect(Self.misplaced(["e", "…"], in: output) == [])
        #expect(Self.misplaced(["b", "x"], in: output) == ["b", "x"])
    }

    @Test func theTimelineExcerptIsTheSamplesTimeline() throws {
        let lines = try Self.excerpt(after: "![The terminal timeline of Samples/demo-lock.btsnoop]")
        let run = try CLI.run(["Samples/demo-lock.btsnoop"])
        #expect(run.status == 0)
        #expect(lines.count == 13)
        #expect(Self.misplaced(lines, in: run.stdout) == nil)
    }

    @Test func theVerifyExcerptIsTheSamplesVerify() throws {
        let command = "bledecode verify Samples/demo-lock.btsnoop --profile Samples/profiles/demo-lock.yaml"
        let lines = try Self.excerpt(after: command)
        let run = try CLI.run(["verify", "Samples/demo-lock.btsnoop", "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(run.status == 1)
        #expect(lines.count == 7)
        #expect(Self.misplaced(lines, in: run.stdout) == nil)
    }
}
