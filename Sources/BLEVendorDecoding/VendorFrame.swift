import BLEBase

/// What became of a vendor frame (the report contract's `vendorFrames[].outcome` words).
public enum VendorOutcome: String, Sendable, Equatable, CaseIterable {
    case ok
    /// The device answered with a failure status (on the response and its command).
    case failed
    /// A command that got no response before the next command (devices that do not queue), its
    /// timeout, the link drop or the end of the capture.
    case noResponse = "no-response"
    case crcMismatch = "crc-mismatch"
    case malformed
    /// A device frame that answers no pending command.
    case unsolicited
}

/// One reassembled vendor frame of a connection, with its final outcome.
public struct VendorFrame: Sendable, Equatable {
    /// Sequence number within its session, in the order frames completed.
    public var id: Int
    public var connection: ConnectionID
    public var direction: VendorDirection
    /// The ATT opcode of its first fragment.
    public var attOpcode: UInt8
    public var handle: UInt16
    public var firstTimeUs: Int64
    public var lastTimeUs: Int64
    public var firstRecord: Int
    public var lastRecord: Int
    /// The first record carrying any of its bytes (its first value's first L2CAP fragment),
    /// and its time: earlier than `firstRecord` when that value came in several ACL packets.
    public var firstFragmentRecord: Int
    public var firstFragmentTimeUs: Int64
    public var fragments: Int
    /// The bytes as sent (for a malformed run: the bytes that could not be framed). A frame that
    /// was one ATT value views that value in its record's batch: what keeps a frame past its
    /// packet keeps `raw.compacted`.
    public var raw: ByteView
    /// The de-obfuscated payload; nil when the frame is malformed.
    public var plaintext: [UInt8]?
    public var checksumOK: Bool?
    public var command: Int?
    public var commandName: String?
    public var sequence: Int?
    public var status: Int?
    public var statusOK: Bool?
    public var outcome: VendorOutcome
    /// For a command: the id of its response. For a response: the id of its command.
    public var matchedFrame: Int?
    /// Command → response time (on both frames of a pair).
    public var latencyUs: Int64?
    /// Why a frame is malformed.
    public var problem: String?
    /// The check value the frame carries and the one computed over its covered bytes (the
    /// report contract's `checksumCarried`, `checksumComputed`); nil without a checksum.
    public var checksumCarried: UInt16? = nil
    public var checksumComputed: UInt16? = nil
    /// The profile's command field size in bytes: how wide `commandCode` writes the code.
    public var commandFieldSize: Int? = nil

    /// The command code as every output writes it (`0x10`, `0x0116`): as wide as the profile's
    /// command field, else as wide as the value needs.
    public static func commandCode(_ value: Int, fieldSize: Int?) -> String {
        Hex.code(value, width: fieldSize.map { $0 * 2 } ?? (value > 0xFF ? 4 : 2))
    }

    public var commandCode: String? { command.map { Self.commandCode($0, fieldSize: commandFieldSize) } }
}

/// A vendor-level failure (the report contract's `vendor-*` failure kinds).
public struct VendorFailure: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case crcMismatch = "vendor-crc-mismatch"
        case statusFailure = "vendor-status-failure"
        case noResponse = "vendor-no-response"
        case malformedFrame = "vendor-malformed-frame"
    }

    public var kind: Kind
    /// When the failing frame was sent (the command's time for a missing response).
    public var timeUs: Int64
    /// When the capture showed it: the next command, the deadline, the disconnection.
    public var detectedUs: Int64
    public var connection: ConnectionID
    public var frame: Int
    public var summary: String
    /// The first record of the frame the failure is about.
    public var record: Int = 0
}

/// What a session reports: frames, each with its final outcome, and failures, each right after
/// its frame. Events come out in frame id order (the order frames completed); a frame is held
/// back while an earlier command still waits for its response, so a command is emitted when
/// its response arrives or is known never to arrive.
public enum VendorEvent: Sendable, Equatable {
    case frame(VendorFrame)
    case failure(VendorFailure)
}

/// Where a session's events go as it emits them (`VendorEvent`'s order): each frame moved in,
/// so that a consumer that only counts most of them does not first collect them in a list.
public protocol VendorEventSink {
    mutating func take(_ frame: consuming VendorFrame)
    mutating func take(_ failure: VendorFailure)
}

/// A list of the events, in order.
extension Array: VendorEventSink where Element == VendorEvent {
    public mutating func take(_ frame: consuming VendorFrame) { append(.frame(frame)) }
    public mutating func take(_ failure: VendorFailure) { append(.failure(failure)) }
}
