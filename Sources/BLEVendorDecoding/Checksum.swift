import BLEBase

/// How a frame's check value is computed.
public enum ChecksumAlgorithm: Sendable, Equatable {
    case crc(CRCParameters)
    /// Sum of the bytes modulo 256.
    case sum8
    /// Sum of the bytes modulo 65536.
    case sum16
    /// XOR of the bytes.
    case xor8

    /// Bytes the check value occupies in the frame.
    public var size: Int {
        switch self {
        case .crc(let p): return (p.width + 7) / 8
        case .sum8, .xor8: return 1
        case .sum16: return 2
        }
    }

    public func compute<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        switch self {
        case .crc(let p): return p.compute(bytes)
        case .sum8: return bytes.reduce(0) { ($0 + UInt64($1)) & 0xFF }
        case .sum16: return bytes.reduce(0) { ($0 + UInt64($1)) & 0xFFFF }
        case .xor8: return bytes.reduce(0) { $0 ^ UInt64($1) }
        }
    }

    /// The catalogue name, `sum8`, `sum16`, `xor8`, or the CRC parameters written out.
    public var name: String {
        switch self {
        case .crc(let p):
            return CRCCatalogue.name(of: p) ?? "CRC-\(p.width) poly \(Hex.code(p.poly, width: p.width / 4)) init "
                + "\(Hex.code(p.initial, width: p.width / 4)) refin \(p.reflectIn) refout \(p.reflectOut) xorout "
                + Hex.code(p.xorOut, width: p.width / 4)
        case .sum8: return "sum8"
        case .sum16: return "sum16"
        case .xor8: return "xor8"
        }
    }
}

/// Where a frame's check value sits and what it covers. Offsets `≥ 0` count from the frame's
/// first byte; negative ones from its end (`at: -2` is the byte before a one-byte tail). `to`
/// is exclusive and counts from the end when `≤ 0` (`to: 0` is the end of the frame).
public struct ChecksumSpec: Sendable, Equatable {
    public let algorithm: ChecksumAlgorithm
    public var at: Int
    public var bigEndian: Bool
    public var from: Int
    public var to: Int
    /// True when computed over the de-obfuscated frame, false over the bytes as sent.
    public var overPlaintext: Bool
    /// The value a device writes when the covered range is empty, when that is not the
    /// algorithm's own (the treadmill writes 0x0000 where CRC-16/IBM-3740 of nothing is 0xFFFF).
    public var emptyValue: UInt64?
    /// The tables of a CRC algorithm, four bytes a step, built once (nil for sums, or when the
    /// table form does not apply), with the register it starts from and the final XOR.
    private let crcTables: SlicedCRC?
    private let crcStart: UInt64
    private let crcXorOut: UInt64
    /// `algorithm.size`, worked out once.
    private let size: Int

    public init(algorithm: ChecksumAlgorithm, at: Int, bigEndian: Bool, from: Int, to: Int,
                overPlaintext: Bool = false, emptyValue: UInt64? = nil) {
        self.algorithm = algorithm
        let crcTable = CRCTable(for: algorithm)
        crcTables = crcTable.map(SlicedCRC.init)
        if case .crc(let p) = algorithm, let crcTable {
            (crcStart, crcXorOut) = (crcTable.register(initial: p.initial), p.xorOut)
        } else {
            (crcStart, crcXorOut) = (0, 0)
        }
        size = algorithm.size
        self.at = at
        self.bigEndian = bigEndian
        self.from = from
        self.to = to
        self.overPlaintext = overPlaintext
        self.emptyValue = emptyValue
    }

    /// The covered range in a frame of `count` bytes; nil when it does not fit.
    func coveredRange(frameLength count: Int) -> Range<Int>? {
        let start = from >= 0 ? from : count + from
        let end = to > 0 ? to : count + to
        guard start >= 0, end <= count, start <= end else { return nil }
        return start..<end
    }

    /// Absolute offset of the check value in a frame of `count` bytes; nil when it does not fit.
    func position(frameLength count: Int) -> Int? {
        let start = at >= 0 ? at : count + at
        guard start >= 0, start + size <= count else { return nil }
        return start
    }

    /// Reads the stored check value and computes the expected one over `covered` (the bytes
    /// as sent or the plaintext frame, per `overPlaintext`). Nil when the frame is too short.
    /// Inlined: its caller, a frame plan, holds the rule, and a call would copy the whole rule to
    /// pass it (docs/performance.md).
    @inline(__always)
    func verify(sent: ByteView, covered: ByteView) -> (stored: UInt64, computed: UInt64)? {
        guard let position = position(frameLength: sent.count),
              let range = coveredRange(frameLength: covered.count),
              let stored = ByteReader.unsigned(in: sent, at: position, size: size, bigEndian: bigEndian) else { return nil }
        // `coveredRange` keeps the range inside `covered`: its bytes are read in place (a slice
        // of the array costs a reference count and a checked iteration per frame).
        let computed = covered.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[range])
            return bytes.isEmpty ? (emptyValue ?? compute(bytes)) : compute(bytes)
        }
        return (stored, computed)
    }

    /// The check value of `bytes`: through the table when there is one, else by definition.
    func compute(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        if let crcTables { return crcTables.crc(bytes, register: crcStart) ^ crcXorOut }
        return algorithm.compute(bytes)
    }
}
