import AnalyzerTestSupport
import Foundation
import Testing

/// Every line `packets --json` writes is one JSON object in which no object names a key twice
/// (RFC 8259 §4 leaves duplicates to each reader; most keep the last value silently).
@Suite(.serialized)
struct PacketsJSONKeyTests {
    @Test func strictReaderRejectsADuplicateKey() {
        #expect(throws: StrictJSON.Problem(offset: 24, message: "key \"crc\" written twice in $.ll")) {
            try StrictJSON.check(#"{"ll": {"crc": "valid", "crc": "0x123456"}}"#)
        }
        #expect(throws: Never.self) { try StrictJSON.check(#"{"a": [1, {"a": -2.5e3}], "b": {"a": null}}"#) }
    }

    static var captures: [String] {
        var paths = ["demo-lock.pcapng"].map { CLI.sample($0) }
        for folder in ["real", "synthetic"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: SharedCaptures.path(folder))) ?? []
            paths += names.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") }.sorted()
                .map { SharedCaptures.path("\(folder)/\($0)") }
        }
        return paths
    }

    /// On the project's sample and every shared capture (real and synthetic, when ../shared is present).
    @Test func everyLineHasEachKeyOnce() throws {
        if !SharedCaptures.present { print("skipped the shared captures: \(SharedCaptures.root.path) is absent") }
        for path in Self.captures {
            let run = try CLI.run(["packets", "--json", path])
            var problems: [String] = []
            for (number, line) in run.stdout.split(separator: "\n").enumerated() {
                do { try StrictJSON.check(String(line)) } catch { problems.append("line \(number + 1): \(error)") }
            }
            #expect(problems.prefix(3) == [], "\(path)")
        }
    }
}
