import AnalyzerTestSupport
import Foundation
import Testing

/// tshark, the oracle of the Wireshark round trip (docs/wireshark.md). Tests that need it are
/// skipped, saying so, where it is not installed (CI installs it: .ci/run).
enum Tshark {
    static let path: String? = ["/usr/bin/tshark", "/usr/local/bin/tshark", "/opt/homebrew/bin/tshark"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let present = path != nil

    /// Runs tshark with `arguments`; its standard output and error.
    static func run(_ arguments: [String]) throws -> CLIRun {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        return try CLI.run(arguments, executable: path)
    }

    /// The comments of each frame (index 0 is frame 1), read with `-T fields -e frame.comment`;
    /// the comments of one frame are split on a record separator, which no comment contains.
    static func comments(_ pcapng: String) throws -> [[String]] {
        let run = try Tshark.run(["-r", pcapng, "-T", "fields", "-e", "frame.comment", "-E", "occurrence=a",
                                  "-E", "aggregator=\u{1E}"])
        #expect(run.status == 0, "tshark: \(run.stderr)")
        var lines = run.stdout.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.isEmpty ? [] : $0.components(separatedBy: "\u{1E}") }
    }
}
