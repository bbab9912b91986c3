import BLEBase

/// The destination and source CIDs of a Disconnection Request or Response
/// (Core v5.4 Vol 3 Part A §4.6, §4.7).
///
/// ```
/// 0                 2            4
/// +-----------------+------------+
/// | destination CID | source CID |
/// +-----------------+------------+
///   u16 LE            u16 LE
/// ```
public struct ChannelPair: Sendable, Equatable {
    public var destinationCID: ChannelID
    public var sourceCID: ChannelID

    public init(destinationCID: ChannelID, sourceCID: ChannelID) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        destinationCID = ChannelID(rawValue: try reader.readUInt16LE("destination CID"))
        sourceCID = ChannelID(rawValue: try reader.readUInt16LE("source CID"))
    }
}

/// Connection Parameter Update Request (Core v5.4 Vol 3 Part A §4, code 0x12).
///
/// ```
/// 0              2              4         6                  8
/// +--------------+--------------+---------+------------------+
/// | interval min | interval max | latency | timeout          |
/// +--------------+--------------+---------+------------------+
///   u16 ×1.25 ms   u16 ×1.25 ms   u16       u16 ×10 ms
/// ```
public struct ConnectionParameterUpdateRequest: Sendable, Equatable {
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    /// Peripheral latency in connection events.
    public var latency: UInt16
    public var timeoutMultiplier: UInt16

    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeoutMultiplier: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.timeoutMultiplier = timeoutMultiplier
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        intervalMin = try reader.readUInt16LE("interval min")
        intervalMax = try reader.readUInt16LE("interval max")
        latency = try reader.readUInt16LE("latency")
        timeoutMultiplier = try reader.readUInt16LE("timeout multiplier")
    }

    /// Microseconds: interval units are 1.25 ms, timeout units 10 ms.
    public var intervalMinUs: Int { Int(intervalMin) * 1250 }
    public var intervalMaxUs: Int { Int(intervalMax) * 1250 }
    public var timeoutMs: Int { Int(timeoutMultiplier) * 10 }
}

/// LE Credit Based Connection Request (Core v5.4 Vol 3 Part A §4, code 0x14).
///
/// ```
/// 0      2            4     6     8                 10
/// +------+------------+-----+-----+-----------------+
/// | SPSM | source CID | MTU | MPS | initial credits |
/// +------+------------+-----+-----+-----------------+
///   each u16 LE
/// ```
public struct LECreditBasedConnectionRequest: Sendable, Equatable {
    public var spsm: UInt16
    public var sourceCID: ChannelID
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16

    public init(spsm: UInt16, sourceCID: ChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
        self.spsm = spsm
        self.sourceCID = sourceCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        spsm = try reader.readUInt16LE("SPSM")
        sourceCID = ChannelID(rawValue: try reader.readUInt16LE("source CID"))
        mtu = try reader.readUInt16LE("MTU")
        mps = try reader.readUInt16LE("MPS")
        initialCredits = try reader.readUInt16LE("initial credits")
    }
}

/// LE Credit Based Connection Response (Core v5.4 Vol 3 Part A §4, code 0x15).
///
/// ```
/// 0                 2     4     6                 8        10
/// +-----------------+-----+-----+-----------------+--------+
/// | destination CID | MTU | MPS | initial credits | result |
/// +-----------------+-----+-----+-----------------+--------+
///   each u16 LE
/// ```
public struct LECreditBasedConnectionResponse: Sendable, Equatable {
    public var destinationCID: ChannelID
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16
    public var result: CreditBasedConnectionResult

    public init(destinationCID: ChannelID, mtu: UInt16, mps: UInt16, initialCredits: UInt16,
                result: CreditBasedConnectionResult) {
        self.destinationCID = destinationCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        destinationCID = ChannelID(rawValue: try reader.readUInt16LE("destination CID"))
        mtu = try reader.readUInt16LE("MTU")
        mps = try reader.readUInt16LE("MPS")
        initialCredits = try reader.readUInt16LE("initial credits")
        result = CreditBasedConnectionResult(rawValue: try reader.readUInt16LE("result"))
    }
}

/// Credit Based Connection Request (Core v5.4 Vol 3 Part A §4, code 0x17).
///
/// ```
/// 0      2     4     6                 8
/// +------+-----+-----+-----------------+---------------------+
/// | SPSM | MTU | MPS | initial credits | source CIDs (1...5) |
/// +------+-----+-----+-----------------+---------------------+
///   each u16 LE
/// ```
public struct CreditBasedConnectionRequest: Sendable, Equatable {
    public var spsm: UInt16
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16
    public var sourceCIDs: [ChannelID]

    public init(spsm: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16, sourceCIDs: [ChannelID]) {
        self.spsm = spsm
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.sourceCIDs = sourceCIDs
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        spsm = try reader.readUInt16LE("SPSM")
        mtu = try reader.readUInt16LE("MTU")
        mps = try reader.readUInt16LE("MPS")
        initialCredits = try reader.readUInt16LE("initial credits")
        sourceCIDs = try readChannelList(&reader, field: "source CID")
    }
}

/// Credit Based Connection Response (Core v5.4 Vol 3 Part A §4, code 0x18).
///
/// ```
/// 0     2     4                 6        8
/// +-----+-----+-----------------+--------+--------------------------+
/// | MTU | MPS | initial credits | result | destination CIDs (0...5) |
/// +-----+-----+-----------------+--------+--------------------------+
///   each u16 LE
/// ```
public struct CreditBasedConnectionResponse: Sendable, Equatable {
    public var mtu: UInt16
    public var mps: UInt16
    public var initialCredits: UInt16
    public var result: CreditBasedConnectionResult
    /// One per requested channel; 0x0000 for a refused one.
    public var destinationCIDs: [ChannelID]

    public init(mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: CreditBasedConnectionResult,
                destinationCIDs: [ChannelID]) {
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
        self.destinationCIDs = destinationCIDs
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        mtu = try reader.readUInt16LE("MTU")
        mps = try reader.readUInt16LE("MPS")
        initialCredits = try reader.readUInt16LE("initial credits")
        result = CreditBasedConnectionResult(rawValue: try reader.readUInt16LE("result"))
        destinationCIDs = try readChannelList(&reader, field: "destination CID")
    }
}

/// Credit Based Reconfigure Request (Core v5.4 Vol 3 Part A §4, code 0x19).
///
/// ```
/// 0     2     4
/// +-----+-----+--------------------------+
/// | MTU | MPS | destination CIDs (1...5) |
/// +-----+-----+--------------------------+
///   each u16 LE
/// ```
public struct CreditBasedReconfigureRequest: Sendable, Equatable {
    public var mtu: UInt16
    public var mps: UInt16
    public var destinationCIDs: [ChannelID]

    public init(mtu: UInt16, mps: UInt16, destinationCIDs: [ChannelID]) {
        self.mtu = mtu
        self.mps = mps
        self.destinationCIDs = destinationCIDs
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        mtu = try reader.readUInt16LE("MTU")
        mps = try reader.readUInt16LE("MPS")
        destinationCIDs = try readChannelList(&reader, field: "destination CID")
    }
}

/// Reads the rest of `reader` as u16 CIDs: at most five (the credit based commands' limit),
/// and an odd byte left over is malformed.
private func readChannelList(_ reader: inout ByteReader, field: StaticString) throws(DecodeError) -> [ChannelID] {
    let maximum = 5
    guard reader.remaining % 2 == 0, reader.remaining / 2 <= maximum else {
        throw DecodeError.invalid(layer: reader.layer, field: "\(field) list", at: reader.reportedOffset,
                                  reason: "\(reader.remaining) bytes is not a list of 0...\(maximum) u16 CIDs")
    }
    var cids: [ChannelID] = []
    while !reader.isAtEnd {
        cids.append(ChannelID(rawValue: try reader.readUInt16LE(field)))
    }
    return cids
}
