internal import VendorDecoding

/// A vendor frame: decoded from a capture (`CaptureReport.vendorFrames`) or from bytes
/// (`VendorProfile.frames(in:direction:)`).
public struct VendorFrame: Sendable, Equatable {
    /// Which way a frame went.
    public enum Direction: String, Sendable, CaseIterable {
        case hostToDevice = "host-to-device"
        case deviceToHost = "device-to-host"
    }

    public let direction: Direction
    /// The bytes as sent.
    public let bytes: [UInt8]
    /// The de-obfuscated payload; nil when the frame is malformed.
    public let payload: [UInt8]?
    /// Whether the frame's checksum is right; nil when the profile has no checksum or the frame
    /// is malformed.
    public let checksumOK: Bool?
    /// The command code and its name in the profile (`GET_INFO`).
    public let command: Int?
    public let commandName: String?
    public let sequence: Int?
    /// A response's status and whether the profile counts it as success.
    public let status: Int?
    public let statusOK: Bool?
    /// Why the bytes do not make a well-formed frame.
    public let problem: String?
    /// From a capture: the connection (`C1`), the time of its first value (microseconds since
    /// 1970, UTC) and its record, and what became of it (`ok`, `failed`, `no-response`,
    /// `crc-mismatch`, `malformed`, `unsolicited`); nil for frames decoded from bytes.
    public let connectionID: String?
    public let timeUs: Int64?
    public let record: Int?
    public let outcome: String?

    init(captured frame: VendorDecoding.VendorFrame) {
        self.init(frame, direction: frame.direction == .hostToDevice ? .hostToDevice : .deviceToHost, captured: true)
    }

    init(decoded frame: VendorDecoding.VendorFrame, direction: Direction) {
        self.init(frame, direction: direction, captured: false)
    }

    private init(_ frame: VendorDecoding.VendorFrame, direction: Direction, captured: Bool) {
        self.direction = direction
        bytes = frame.raw.array
        payload = frame.plaintext
        checksumOK = frame.checksumOK
        command = frame.command
        commandName = frame.commandName
        sequence = frame.sequence
        status = frame.status
        statusOK = frame.statusOK
        problem = frame.problem
        connectionID = captured ? frame.connection.description : nil
        timeUs = captured ? frame.firstTimeUs : nil
        record = captured ? frame.firstRecord : nil
        outcome = captured ? frame.outcome.rawValue : nil
    }
}
