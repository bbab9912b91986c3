import BLEBase

/// The `BTSNOOP_LOG_SUMMARY` section of an Android bug report, base64-decoded (ble-facts §3):
///
/// ```
/// --- BEGIN:BTSNOOP_LOG_SUMMARY (13855 bytes in) ---
/// Ai+Gt4LnFgYAeJytWgl0VEUWfb+3dLo73UmnCQEm8ANBVNYEEFHZsgGOgCCShV02kRFB…   (128-character lines)
/// --- END:BTSNOOP_LOG_SUMMARY ---
/// ```
struct BugreportSection: Equatable {
    /// The ring buffer's size before compression, as the BEGIN line states it.
    var declaredBytes: Int?
    /// The decoded bytes: preamble, then the zlib stream.
    var blob: [UInt8]
    /// 1-based line number of the BEGIN line.
    var beginLine: Int
    /// False when the text ends before the END line.
    var complete: Bool
}

/// What a streamed text holds.
enum BugreportScan: Equatable {
    case section(BugreportSection)
    /// No section; `dumpstate` tells whether the text is nonetheless a bug report.
    case noSection(dumpstate: Bool)
}

/// Finds the `BTSNOOP_LOG_SUMMARY` section in a text of any size, streaming: outside the section
/// only the first bytes of each line are kept, and reading stops at the END line.
struct BugreportScanner {
    static let beginMarker = Array("--- BEGIN:BTSNOOP_LOG_SUMMARY".utf8)
    static let endMarker = Array("--- END:BTSNOOP_LOG_SUMMARY ---".utf8)
    static let dumpstateMarker = Array("== dumpstate".utf8)
    /// The most decoded bytes a summary may have (it is a ring buffer of a few hundred KiB).
    static let maximumBlobBytes = 64 << 20
    /// Line bytes kept for recognising marker lines.
    private static let lineHeadLimit = 64
    /// How many lines may come before `== dumpstate` for the text to count as a bug report.
    private static let dumpstateLines = 8

    private enum LineMode { case undecided, base64, marker }

    private let file: String
    private var line = 1
    private var offset = 0
    private var lineStart = 0
    private var lineHead: [UInt8] = []
    private var dumpstate = false
    /// Set between the BEGIN and END lines.
    private var decoder: Base64Decoder?
    private var mode = LineMode.undecided
    private var declaredBytes: Int?
    private var beginLine = 0
    private var result: BugreportSection?

    private init(file: String) { self.file = file }

    /// Reads `source` up to the end of the first section (or the end of the text).
    static func scan(_ source: any ByteSource, file: String) throws(CaptureError) -> BugreportScan {
        var scanner = BugreportScanner(file: file)
        while scanner.result == nil {
            let chunk = try source.read(max: BufferedInput.chunkSize)
            if chunk.isEmpty { break }
            try scanner.consume(chunk[...])
        }
        if let result = scanner.result { return .section(result) }
        if scanner.decoder != nil {
            try scanner.finishSection(complete: false)
            if let result = scanner.result { return .section(result) }
        }
        return .noSection(dumpstate: scanner.dumpstate)
    }

    private mutating func consume(_ chunk: ArraySlice<UInt8>) throws(CaptureError) {
        var rest = chunk
        while !rest.isEmpty && result == nil {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let part = rest[..<(newline ?? rest.endIndex)]
            if decoder != nil { try sectionBytes(part) } else { keepHead(part) }
            offset += part.count
            guard let newline else { return }
            try endOfLine()
            offset += 1
            lineStart = offset
            rest = rest[(newline + 1)...]
        }
    }

    private mutating func keepHead(_ part: ArraySlice<UInt8>) {
        lineHead.append(contentsOf: part.prefix(Self.lineHeadLimit - lineHead.count))
    }

    /// Bytes of a line inside the section: base64 goes to the decoder; a line whose first
    /// character is `-` is kept to be compared with the END line.
    private mutating func sectionBytes(_ part: ArraySlice<UInt8>) throws(CaptureError) {
        var at = offset
        for byte in part {
            switch (mode, byte) {
            case (_, UInt8(ascii: " ")), (_, UInt8(ascii: "\t")), (_, UInt8(ascii: "\r")):
                if mode == .marker { keepHead([byte]) }
            case (.undecided, UInt8(ascii: "-")):
                mode = .marker
                keepHead([byte])
            case (.marker, _):
                keepHead([byte])
            default:
                mode = .base64
                do throws(Base64Decoder.Failure) {
                    try decoder?.feed(byte)
                } catch {
                    throw base64Error(error, at: at)
                }
            }
            at += 1
        }
    }

    private mutating func endOfLine() throws(CaptureError) {
        defer {
            lineHead.removeAll(keepingCapacity: true)
            mode = .undecided
            line += 1
        }
        if decoder != nil {
            guard mode == .marker else { return }
            guard lineHead.starts(with: Self.endMarker) else {
                throw CaptureError(file: file, byteOffset: lineStart,
                                   message: "line \(line): expected base64 or the END:BTSNOOP_LOG_SUMMARY line inside the BTSNOOP_LOG_SUMMARY section")
            }
            try finishSection(complete: true)
        } else if lineHead.starts(with: Self.beginMarker) {
            declaredBytes = Self.declaredBytes(in: lineHead.dropFirst(Self.beginMarker.count))
            beginLine = line
            decoder = Base64Decoder(limit: Self.maximumBlobBytes)
        } else if line <= Self.dumpstateLines && lineHead.starts(with: Self.dumpstateMarker) {
            dumpstate = true
        }
    }

    private mutating func finishSection(complete: Bool) throws(CaptureError) {
        guard var decoder else { return }
        do throws(Base64Decoder.Failure) {
            try decoder.finish()
        } catch {
            throw base64Error(error, at: offset)
        }
        result = BugreportSection(declaredBytes: declaredBytes, blob: decoder.bytes, beginLine: beginLine,
                                  complete: complete)
        self.decoder = nil
    }

    /// ` (13855 bytes in) ---` → 13855; nil when the BEGIN line does not say.
    private static func declaredBytes(in rest: ArraySlice<UInt8>) -> Int? {
        guard rest.starts(with: Array(" (".utf8)) else { return nil }
        let digits = rest.dropFirst(2).prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard !digits.isEmpty, rest.dropFirst(2 + digits.count).starts(with: Array(" bytes in)".utf8)) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    private func base64Error(_ failure: Base64Decoder.Failure, at byteOffset: Int) -> CaptureError {
        let reason: String
        switch failure {
        case .invalidCharacter(let byte):
            let shown = (0x21...0x7E).contains(byte) ? " '\(String(decoding: [byte], as: UTF8.self))'" : ""
            reason = "invalid base64 character \(Hex.code(byte))\(shown)"
        case .dataAfterPadding:
            reason = "base64 data after '=' padding"
        case .tooLarge(let limit):
            reason = "the section decodes to more than \(limit >> 20) MiB; a summary is a ring buffer of a few hundred KiB"
        case .danglingCharacter:
            reason = "base64 data ends one character into a 4-character group"
        }
        return CaptureError(file: file, byteOffset: byteOffset,
                            message: "line \(line): \(reason) in the BTSNOOP_LOG_SUMMARY section (begun on line \(beginLine))")
    }
}
