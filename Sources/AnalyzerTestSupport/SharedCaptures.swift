import Foundation

/// The shared sample captures (`<package root>/../shared/captures`), when present. Tests over
/// them are skipped, with a reason that says so, on machines without the directory.
public enum SharedCaptures {
    /// `<package root>/../shared/captures`, found from this source file's location.
    public static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
    public static let present = FileManager.default.fileExists(atPath: root.path)

    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The treadmill's checksum (real/horizon74_btsnoop_hci.log) as `infer-crc` writes it, found in
    /// its notifications and in its writes alike: CRC-16/IBM-3740 in the header over the body,
    /// 0x0000 in frames without one.
    public static let horizonChecksumSection = """
        checksum:
          algorithm: CRC-16/IBM-3740
          at: 8
          endian: little
          range: {from: 10, to: 0}
          empty: 0x0000
        """

    /// `capture` and `counts` of a synthetic capture's truth file.
    public struct Truth: Decodable, Sendable {
        public struct Capture: Decodable, Sendable {
            public struct TruncatedFinalRecord: Decodable, Sendable {
                public var recordBytes: Int
                public var bytesWritten: Int
            }
            public var firstTsUs: Int64
            public var lastTsUs: Int64
            public var truncatedFinalRecord: TruncatedFinalRecord?
        }
        public struct Counts: Decodable, Sendable {
            public var packets: Int
            public var attPdusByOpcode: [String: Int]
        }
        public var capture: Capture
        public var counts: Counts
    }

    public static func truth(_ name: String) throws -> Truth {
        let data = try Data(contentsOf: root.appendingPathComponent("synthetic/\(name).truth.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Truth.self, from: data)
    }

    /// One capture of `real/README.md`: its file name, tshark's frame count and ATT PDUs by
    /// opcode (keys `0x12`, upper-case hex).
    public struct RealCapture: Sendable, CustomStringConvertible {
        public var file: String
        public var frames: Int?
        public var attPDUsByOpcode: [String: Int]
        public var description: String { file }
    }

    /// Parses `real/README.md` (the counts there were taken with tshark 4.0).
    public static func realCaptures() -> [RealCapture] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("real/README.md"), encoding: .utf8) else {
            return []
        }
        var captures: [RealCapture] = []
        for section in text.components(separatedBy: "\n## `").dropFirst() {
            guard let file = section.components(separatedBy: "`").first else { continue }
            var capture = RealCapture(file: file, frames: nil, attPDUsByOpcode: [:])
            for line in section.components(separatedBy: "\n") {
                if line.hasPrefix("- Format:"), let range = line.range(of: #"(\d+) frames"#, options: .regularExpression) {
                    capture.frames = Int(line[range].split(separator: " ")[0])
                }
                if line.hasPrefix("- ATT PDUs by opcode:") {
                    for pair in line.dropFirst("- ATT PDUs by opcode:".count).split(separator: " ") {
                        let parts = pair.split(separator: ":")
                        guard parts.count == 2, let opcode = UInt8(parts[0].dropFirst(2), radix: 16),
                              let count = Int(parts[1]) else { continue }
                        capture.attPDUsByOpcode[String(format: "0x%02X", opcode)] = count
                    }
                }
            }
            captures.append(capture)
        }
        return captures
    }
}
