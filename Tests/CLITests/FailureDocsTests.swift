import AnalyzerTestSupport
import Foundation
import Testing

/// docs/failures.md's examples are entries of the reports they say they come from: every field an
/// example shows has that value in one entry of `failures[]` or `notices[]`, and an example without
/// `severity` is a `failure` (the page leaves it out there).
struct FailureDocsTests {
    /// The objects of each JSON block under "## Examples", block by block.
    static func examples() throws -> [[[String: Any]]] {
        try DocCodeBlocks("docs/failures.md").blocks("json", after: "## Examples").map { block in
            try block.lines.joined(separator: "\n").components(separatedBy: "\n\n").map { text in
                try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            }
        }
    }

    /// The examples that no entry of the report of `arguments` matches field for field.
    static func unmatched(_ examples: [[String: Any]], report arguments: [String]) throws -> [String] {
        let run = try CLI.run(["report"] + arguments)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let entries = (report["failures"] as? [[String: Any]] ?? []) + (report["notices"] as? [[String: Any]] ?? [])
        return examples.filter { example in
            !entries.contains { entry in
                example.merging(["severity": "failure"]) { shown, _ in shown }
                    .allSatisfy { key, value in (entry[key] as? NSObject) == (value as? NSObject) }
            }
        }.map { "\($0["kind"] ?? "?") at \($0["timeUs"] ?? "?")" }
    }

    @Test func theSampleExamplesAreTheSamplesEntries() throws {
        let blocks = try Self.examples()
        #expect(blocks.count == 3)
        #expect(blocks.first?.count == 5)
        #expect(try Self.unmatched(blocks[0], report: ["Samples/demo-lock.btsnoop"]) == [])
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func theDemoFaultsExamplesAreItsEntries() throws {
        let blocks = try Self.examples()
        let capture = SharedCaptures.path("synthetic/demo-faults.btsnoop")
        #expect(try Self.unmatched(blocks[1], report: [capture]) == [])
        #expect(try Self.unmatched(blocks[2], report: [capture, "--profile", "Samples/profiles/demo-lock.yaml"]) == [])
    }
}
