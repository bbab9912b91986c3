import Foundation
import ArgumentParser
import BLEReports

/// The root command: holds only its subcommands.
@main
struct BLEDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bledecode",
        abstract: "Analyze Bluetooth LE captures: btsnoop, pcap/pcapng, Apple PacketLogger.",
        discussion: """
            Formats are detected from the file's content; gzip-compressed files and '-' (standard \
            input) are accepted. Exit codes: 0 the capture was read to its end; 1 the capture is \
            damaged and was read only in part; 2 usage error or a file that cannot be read as a capture.
            """,
        version: ToolVersion.current,
        subcommands: [Summary.self, Report.self, Verify.self, InferCRC.self, Packets.self, Annotate.self, Dissector.self, Batch.self],
        defaultSubcommand: Summary.self
    )

    /// Runs the command; usage errors exit with 2 (not ArgumentParser's 64) so that every
    /// command has the same three exit codes.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                Diagnostics.usage(fullMessage(for: error))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
