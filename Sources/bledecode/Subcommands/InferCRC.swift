import ArgumentParser
import BLEBase
import Foundation
import PacketDecoding
import Reports
import VendorDecoding

/// `bledecode infer-crc`: finds the CRC parameters and covered range under which every frame
/// of a characteristic verifies.
struct InferCRC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer-crc",
        abstract: "Search CRC-8/CRC-16 parameters under which every frame verifies.",
        discussion: """
            Frames come from the ATT values written to or notified on one characteristic of a capture \
            (--handle), or as hex, one frame per line, on standard input (CAPTURE '-' with --hex). \
            Matches are printed catalogue names first, each with the profile's checksum section.
            """)

    @Argument(help: "The capture, or '-' with --hex to read hex frames from standard input.")
    var capture: String

    @Option(help: "The attribute handle whose values are the frames (e.g. 0x0012).")
    var handle: String?

    @Flag(help: "Read hex frames, one per line, from standard input instead of a capture.")
    var hex = false

    @Option(help: "How many matches to print.")
    var limit = 10

    func validate() throws {
        if !hex && handle == nil { throw ValidationError("give --handle with a capture, or --hex with frames on standard input") }
        if let handle, Self.parse(handle) == nil { throw ValidationError("--handle: \(handle) is not a handle") }
    }

    static func parse(_ text: String) -> UInt16? {
        text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
    }

    func run() throws {
        let frames = hex ? try readHexFrames() : try framesFromCapture()
        guard frames.count >= 2 else {
            Diagnostics.error("need at least 2 frames to infer a CRC, found \(frames.count)")
            throw ExitCode(2)
        }
        let matches = CRCInference.search(frames: frames, maxMatches: limit)
        let out = BufferedOutput()
        if matches.isEmpty {
            out.line("no CRC-8 or CRC-16 under which all \(frames.count) frames verify")
        }
        for (i, match) in matches.enumerated() {
            out.line("\(i + 1). " + (match.catalogueName ?? "CRC-\(match.parameters.width) (not in the catalogue)")
                     + ": bytes \(match.from) to end\(match.to == 0 ? "" : String(match.to)) covered, check value at end\(match.at)")
            out.line(match.yamlSnippet.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
        }
        out.flush()
        if matches.isEmpty { throw ExitCode(1) }
    }

    func readHexFrames() throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var lineNumber = 0
        while let line = readLine() {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let bytes = Hex.bytes(trimmed) else {
                Diagnostics.error("standard input line \(lineNumber): not hex")
                throw ExitCode(2)
            }
            frames.append(bytes)
        }
        return frames
    }

    func framesFromCapture() throws -> [[UInt8]] {
        let target = Self.parse(handle ?? "") ?? 0
        let reader = try InputOptions(capture: capture).open()
        var decoder = PacketDecoder()
        var frames: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        while let record = reader.next() {
            for att in decoder.decode(record).attPDUs where att.handle == target {
                guard [0x12, 0x52, 0x1B, 0x1D].contains(att.opcode.rawValue), let view = att.value, view.count >= 2,
                      case let value = view.array, seen.insert(value).inserted, frames.count < 64 else { continue }
                frames.append(value)
            }
        }
        return frames
    }
}
