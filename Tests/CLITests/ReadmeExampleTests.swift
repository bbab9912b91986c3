import AnalyzerTestSupport
import Foundation
import Testing

/// The outputs the README shows are what bledecode prints for the commands it shows: each line of
/// an excerpt (`…` stands for lines left out) is a line of the output, in the same order.
struct ReadmeExampleTests {
    /// The lines of the first plain code block opened after the line holding `marker`, without
    /// the `…` lines.
    static func excerpt(after marker: String) throws -> [String] {
        let block = try #require(try DocCodeBlocks("README.md").blocks("", after: marker).first)
        return block.lines.filter { $0 != "…" }
    }

    /// The excerpt's lines missing from `output`, or out of its order.
    static func missing(_ excerpt: [String], from output: String) -> [String] {
        var rest = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var missing: [String] = []
        for line in excerpt {
            if let found = rest.firstIndex(of: line) { rest = rest[(found + 1)...] } else { missing.append(line) }
        }
        return missing
    }

    @Test func theTimelineExcerptIsTheSamplesTimeline() throws {
        let lines = try Self.excerpt(after: "![The terminal timeline of Samples/demo-lock.btsnoop]")
        let run = try CLI.run(["Samples/demo-lock.btsnoop"])
        #expect(run.status == 0)
        #expect(lines.count == 10)
        #expect(Self.missing(lines, from: run.stdout) == [])
    }

    @Test func theVerifyExcerptIsTheSamplesVerify() throws {
        let command = "bledecode verify Samples/demo-lock.btsnoop --profile Samples/profiles/demo-lock.yaml"
        let lines = try Self.excerpt(after: command)
        let run = try CLI.run(["verify", "Samples/demo-lock.btsnoop", "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(run.status == 1)
        #expect(lines.count == 6)
        #expect(Self.missing(lines, from: run.stdout) == [])
    }
}
