/// Base64 (RFC 4648 §4) decoded as it is fed, one text byte at a time: the summary's lines of
/// 128 characters arrive piece by piece from a streamed bug report. Whitespace is skipped by the
/// caller; padding may only end the data.
struct Base64Decoder {
    enum Failure: Error, Equatable {
        case invalidCharacter(UInt8)
        case dataAfterPadding
        case tooLarge(limit: Int)
        /// The data ends one character into a 4-character group (6 bits cannot make a byte).
        case danglingCharacter
    }

    private(set) var bytes: [UInt8] = []
    private var group: UInt32 = 0
    private var groupCount = 0
    private var paddingSeen = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    mutating func feed(_ character: UInt8) throws(Failure) {
        if character == UInt8(ascii: "=") {
            paddingSeen = true
            return
        }
        guard !paddingSeen else { throw .dataAfterPadding }
        guard let value = Self.value(of: character) else { throw .invalidCharacter(character) }
        group = group << 6 | UInt32(value)
        groupCount += 1
        if groupCount == 4 {
            try append(group, count: 3)
            group = 0
            groupCount = 0
        }
    }

    /// Flushes a final group of 2 or 3 characters (with or without its `=` padding).
    mutating func finish() throws(Failure) {
        switch groupCount {
        case 0: return
        case 1: throw .danglingCharacter
        default:
            let bits = group << UInt32(6 * (4 - groupCount))
            try append(bits, count: groupCount - 1)
            groupCount = 0
        }
    }

    private mutating func append(_ bits: UInt32, count: Int) throws(Failure) {
        guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
        for index in 0..<count {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(16 - 8 * index)))
        }
    }

    /// The 6-bit value of a base64 alphabet character (RFC 4648 Table 1).
    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
