import BLEBase

/// LLID of a data channel PDU (Core v5.4 Vol 6 Part B §2.4, Table 2.13).
public struct LLID: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0b01: continuation fragment of an L2CAP message, or an empty PDU.
    public static let continuation = LLID(rawValue: 1)
    /// 0b10: start of an L2CAP message (or a complete one with no fragmentation).
    public static let start = LLID(rawValue: 2)
    /// 0b11: LL control PDU.
    public static let control = LLID(rawValue: 3)

    public var name: String {
        switch rawValue {
        case 1: return "LL Data continuation"
        case 2: return "LL Data start"
        case 3: return "LL Control"
        default: return "Reserved (\(Hex.code(rawValue)))"
        }
    }
}

/// The 16-bit data channel PDU header (Core v5.4 Vol 6 Part B §2.4, Figure 2.19):
///
/// ```
/// bit 0      2      3    4    5    6     8                15
/// +----------+------+----+----+----+-----+-----------------+
/// | LLID (2) | NESN | SN | MD | CP | RFU | Length (octets) |
/// +----------+------+----+----+----+-----+-----------------+
/// ```
/// When CP is set, a CTEInfo octet follows the header (not counted in Length).
public struct DataChannelHeader: Sendable, Equatable {
    public var llid: LLID
    public var nesn: Bool
    public var sn: Bool
    public var md: Bool
    public var cp: Bool
    public var length: UInt8

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        let first = try reader.readUInt8("data channel header")
        llid = LLID(rawValue: first & 0x03)
        nesn = first & 0x04 != 0
        sn = first & 0x08 != 0
        md = first & 0x10 != 0
        cp = first & 0x20 != 0
        length = try reader.readUInt8("data channel length")
    }
}

/// What a data channel PDU's payload is, once the link's encryption state is known.
public enum DataPDUContent: Sendable, Equatable {
    /// LLID 01 with Length 0: flow control only.
    case empty
    /// LLID 10: starts an L2CAP PDU.
    case l2capStart([UInt8])
    /// LLID 01: continues an L2CAP PDU.
    case l2capContinuation([UInt8])
    case control(ControlPDU)
    /// The payload is ciphertext (plus MIC); nothing above the LL can read it.
    case encrypted([UInt8])
    /// LLID 00 (reserved): kept raw.
    case reserved([UInt8])
}

/// A data physical channel PDU (Core v5.4 Vol 6 Part B §2.4).
public struct DataChannelPDU: Sendable, Equatable {
    public var header: DataChannelHeader
    public var cteInfo: UInt8?
    public var content: DataPDUContent
    /// The 4-byte MIC that a decrypting sniffer left after the plaintext.
    public var mic: [UInt8]?

    /// `encrypted`: the payload is ciphertext; `decrypted`: plaintext, followed by the MIC when
    /// `micIncluded` (Core v5.4 Vol 6 Part B §2.4: the MIC is counted in Length). The nRF Sniffer
    /// writes decrypted PDUs with the MIC removed and Length reduced, so nothing is split off.
    public init(parsing reader: inout ByteReader, encrypted: Bool, decrypted: Bool,
                micIncluded: Bool = true) throws(DecodeError) {
        header = try DataChannelHeader(parsing: &reader)
        if header.cp { cteInfo = try reader.readUInt8("CTEInfo") }
        var body = try reader.slice(byteCount: Int(header.length), "data channel payload")
        if header.length == 0 {
            content = header.llid == .continuation ? .empty : .reserved([])
            return
        }
        if encrypted && !decrypted {
            content = .encrypted(body.readRemainingBytes())
            return
        }
        if decrypted && micIncluded {
            guard body.remaining >= 4 else {
                throw DecodeError.truncated(layer: .linkLayer, field: "MIC", at: body.reportedOffset,
                                            needed: 4, available: body.remaining)
            }
            var plain = try body.slice(byteCount: body.remaining - 4, "decrypted payload")
            mic = body.readRemainingBytes()
            content = try Self.content(llid: header.llid, body: &plain)
        } else {
            content = try Self.content(llid: header.llid, body: &body)
        }
    }

    private static func content(llid: LLID, body: inout ByteReader) throws(DecodeError) -> DataPDUContent {
        switch llid {
        case .start: return .l2capStart(body.readRemainingBytes())
        case .continuation: return body.isAtEnd ? .empty : .l2capContinuation(body.readRemainingBytes())
        case .control: return .control(try ControlPDU(parsing: &body))
        default: return .reserved(body.readRemainingBytes())
        }
    }

    public var isEmpty: Bool { content == .empty }
}
