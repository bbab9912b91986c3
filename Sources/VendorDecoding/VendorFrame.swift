import BLEBase

/// What became of a vendor frame (the report contract's `vendorFrames[].outcome` words).
package enum VendorOutcome: String, Sendable, Equatable, CaseIterable {
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
package struct VendorFrame: Sendable, Equatable {
    /// Sequence number within its session, in the order frames completed.
    package var id: Int
    package var connection: String
    package var direction: VendorDirection
    /// The ATT opcode of its first fragment.
    package var attOpcode: UInt8
    package var handle: UInt16
    package var firstTimeUs: Int64
    package var lastTimeUs: Int64
    package var firstRecord: Int
    package var lastRecord: Int
    /// The first record carrying any of its bytes (its first value's first L2CAP fragment),
    /// and its time: earlier than `firstRecord` when that value came in several ACL packets.
    package var firstFragmentRecord: Int
    package var firstFragmentTimeUs: Int64
    package var fragments: Int
    /// The bytes as sent (for a malformed run: the bytes that could not be framed). A frame that
    /// was one ATT value views that value in its record's batch: what keeps a frame past its
    /// packet keeps `raw.compacted`.
    package var raw: ByteView
    /// The de-obfuscated payload; nil when the frame is malformed.
    package var plaintext: [UInt8]?
    package var checksumOK: Bool?
    package var command: Int?
    package var commandName: String?
    package var sequence: Int?
    package var status: Int?
    package var statusOK: Bool?
    package var outcome: VendorOutcome
    /// For a command: the id of its response. For a response: the id of its command.
    package var matchedFrame: Int?
    /// Command → response time (on both frames of a pair).
    package var latencyUs: Int64?
    /// Why a frame is malformed.
    package var problem: String?
    /// The check value the frame carries and the one computed over its covered bytes (the
    /// report contract's `checksumCarried`, `checksumComputed`); nil without a checksum.
    package var checksumCarried: UInt16? = nil
    package var checksumComputed: UInt16? = nil
}

/// A vendor-level failure (the report contract's `vendor-*` failure kinds).
package struct VendorFailure: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case crcMismatch = "vendor-crc-mismatch"
        case statusFailure = "vendor-status-failure"
        case noResponse = "vendor-no-response"
        case malformedFrame = "vendor-malformed-frame"
    }

    package var kind: Kind
    /// When the failing frame was sent (the command's time for a missing response).
    package var timeUs: Int64
    /// When the capture showed it: the next command, the deadline, the disconnection.
    package var detectedUs: Int64
    package var connection: String
    package var frame: Int
    package var summary: String
    /// The first record of the frame the failure is about.
    package var record: Int = 0
}

/// What a session reports: frames, each with its final outcome, and failures, each right after
/// its frame. Events come out in frame id order (the order frames completed); a frame is held
/// back while an earlier command still waits for its response, so a command is emitted when
/// its response arrives or is known never to arrive.
package enum VendorEvent: Sendable, Equatable {
    case frame(VendorFrame)
    case failure(VendorFailure)
}

/// Where a session's events go as it emits them (`VendorEvent`'s order): each frame moved in,
/// so that a consumer that only counts most of them does not first collect them in a list.
package protocol VendorEventSink {
    mutating func take(_ frame: consuming VendorFrame)
    mutating func take(_ failure: VendorFailure)
}

/// A list of the events, in order.
extension Array: VendorEventSink where Element == VendorEvent {
    package mutating func take(_ frame: consuming VendorFrame) { append(.frame(frame)) }
    package mutating func take(_ failure: VendorFailure) { append(.failure(failure)) }
}
