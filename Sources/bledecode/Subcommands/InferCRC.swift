import ArgumentParser
import BLEBase
import Foundation
import BLEPacketDecoding
import BLEReports
import BLEVendorDecoding

/// `bledecode infer-crc`: finds the CRC parameters and covered range under which every frame
/// of a characteristic verifies.
struct InferCRC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer-crc",
        abstract: "Find the checksum (CRC-8/16, sum8, sum16, xor8) under which a device's frames verify.",
        discussion: """
            Frames come from the ATT values written to or notified on one characteristic of a capture \
            (--handle), joined where a frame spans several values (at the sync bytes, given with --sync \
            or taken from the values), or as hex, one frame per line, on standard input (CAPTURE '-' with \
            --hex). Fits are printed best first, with how many frames verify (a few corrupted frames are \
            tolerated and named), each with the profile's checksum section; when nothing fits, the best \
            partial fits.
            """)

    @Argument(help: "The capture, or '-' with --hex to read hex frames from standard input.")
    var capture: String

    @Option(help: "The attribute handle whose values are the frames (e.g. 0x0012).")
    var handle: String?

    @Option(help: "The sync bytes that start a frame, as hex (e.g. 55aa): values that do not start with them continue the frame before.")
    var sync: String?

    @Flag(help: "Read hex frames, one per line, from standard input instead of a capture.")
    var hex = false

    @Option(help: "How many matches to print.")
    var limit = 10

    func validate() throws {
        if !hex && handle == nil { throw ValidationError("give --handle with a capture, or --hex with frames on standard input") }
        if let handle, Self.parse(handle) == nil { throw ValidationError("--handle: \(handle) is not a handle") }
        if let sync, Hex.bytes(sync.hasPrefix("0x") ? String(sync.dropFirst(2)) : sync)?.isEmpty != false {
            throw ValidationError("--sync: \(sync) is not hex bytes")
        }
    }

    static func parse(_ text: String) -> UInt16? {
        text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
    }

    /// A frame and where it came from ("record 412", "line 5").
    struct Source {
        var bytes: [UInt8]
        var place: String
    }

    func run() throws {
        let sources = hex ? try readHexFrames() : try framesFromCapture()
        guard sources.count >= 2 else {
            Diagnostics.error("need at least 2 distinct frames to infer a checksum, found \(sources.count)")
            throw ExitCode(2)
        }
        let result = ChecksumSearch.search(frames: sources.map(\.bytes), maxMatches: limit)
        for warning in result.warnings { Diagnostics.warning(warning) }
        let out = BufferedOutput()
        if result.partial {
            let tolerated = ChecksumSearch.tolerance(total: result.frames)
            out.line("no checksum fits all \(result.frames) frames" + (tolerated > 0 ? " (or all but \(tolerated))" : "")
                     + (result.candidates.isEmpty ? "" : "; the best partial fits:"))
        }
        for (i, candidate) in result.candidates.enumerated() {
            var line = "\(i + 1). \(candidate.name): \(candidate.layout): "
            if result.partial {
                line += "\(candidate.verified) of \(candidate.total) frames"
            } else {
                line += "verifies \(candidate.verified) of \(candidate.total)"
                let failing = candidate.failing.map { sources[$0].place }
                if !failing.isEmpty {
                    let more = candidate.total - candidate.verified - failing.count
                    line += "; " + failing.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
                        + (failing.count + more == 1 ? " fails" : " fail")
                }
            }
            out.line(line)
            if !result.partial {
                out.line(candidate.yamlSnippet.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
            }
        }
        out.flush()
        if result.partial { throw ExitCode(1) }
    }

    func readHexFrames() throws -> [Source] {
        var frames: [Source] = []
        var seen = Set<[UInt8]>()
        var lineNumber = 0
        while let line = readLine() {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let bytes = Hex.bytes(trimmed) else {
                Diagnostics.error("standard input line \(lineNumber): not hex")
                throw ExitCode(2)
            }
            if seen.insert(bytes).inserted { frames.append(Source(bytes: bytes, place: "line \(lineNumber)")) }
        }
        return frames
    }

    /// The values on the handle (at most `maxValues`), joined into frames, without repeats.
    func framesFromCapture() throws -> [Source] {
        let target = Self.parse(handle ?? "") ?? 0
        let reader = try InputOptions(capture: capture).open()
        var decoder = PacketDecoder()
        var values: [[UInt8]] = []
        var records: [Int] = []
        while var record = reader.next(), values.count < Self.maxValues {
            var packet = DecodedPacket(record: record)
            decoder.decode(swapping: &record, into: &packet)
            for att in packet.attPDUs where att.handle == target {
                guard [0x12, 0x52, 0x1B, 0x1D].contains(att.opcode.rawValue), let view = att.value, !view.isEmpty else { continue }
                values.append(view.array)
                records.append(record.index)
            }
        }
        let syncBytes = sync.flatMap { Hex.bytes($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0) }
        let joined = ChecksumSearch.reassemble(values: values, sync: syncBytes)
        if let used = joined.sync, joined.frames.count < values.count {
            Diagnostics.warning("\(values.count) values on handle \(Hex.code(target, width: 4)) joined into \(joined.frames.count) "
                                + "frames at the sync bytes \(Hex.string(used))" + (syncBytes == nil ? " (taken from the values; --sync to give them)" : ""))
        }
        var frames: [Source] = []
        var seen = Set<[UInt8]>()
        for (frame, first) in zip(joined.frames, joined.firstValue) where frame.count >= 2 && seen.insert(frame).inserted {
            frames.append(Source(bytes: frame, place: "record \(records[first])"))
        }
        return Array(frames.prefix(ChecksumSearch.maxFrames))
    }

    /// ATT values read from a capture at most.
    static let maxValues = 100_000
}
