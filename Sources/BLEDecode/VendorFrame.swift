internal import BLEVendorDecoding

/// A vendor frame: decoded from a capture (`CaptureReport.vendorFrames`) or from bytes
/// (`VendorProfile.frames(in:direction:)`).
public struct VendorFrame: Sendable, Hashable {
    /// Which way a frame went.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// From the app (the central) to the gadget: written to its characteristic.
        case hostToDevice = "host-to-device"
        /// From the gadget to the app: notified or indicated on its characteristic.
        case deviceToHost = "device-to-host"
    }

    /// Which way the frame went.
    public let direction: Direction
    /// The bytes as sent.
    public let bytes: [UInt8]
    /// The de-obfuscated payload; nil when the frame is malformed.
    public let payload: [UInt8]?
    /// Whether the frame's checksum is right; nil when the profile has no checksum or the frame
    /// is malformed.
    public let checksumOK: Bool?
    /// The command code; nil when the frame is malformed.
    public let command: Int?
    /// The command's name in the profile (`GET_INFO`); nil when the profile names none.
    public let commandName: String?
    /// The sequence number; nil when the profile has none or the frame is malformed.
    public let sequence: Int?
    /// The status of a device's frame that the profile reads one from; nil otherwise.
    public let status: Int?
    /// Whether the profile counts `status` as success; nil when there is no status.
    public let statusOK: Bool?
    /// Why the bytes do not make a well-formed frame; nil when they do.
    public let problem: String?
    /// From a capture: the connection (`C1`); nil for frames decoded from bytes.
    public let connectionID: String?
    /// From a capture: the time of the frame's first ATT value, microseconds since 1970 (UTC);
    /// nil for frames decoded from bytes.
    public let timeUs: Int64?
    /// From a capture: the record number of the frame's first ATT value (as Wireshark numbers
    /// frames); nil for frames decoded from bytes.
    public let record: Int?
    /// From a capture: what became of it (`ok`, `failed`, `no-response`, `crc-mismatch`,
    /// `malformed`, `unsolicited`; docs/report.md); nil for frames decoded from bytes.
    public let outcome: String?

    init(captured frame: BLEVendorDecoding.VendorFrame) {
        self.init(frame, direction: frame.direction == .hostToDevice ? .hostToDevice : .deviceToHost, captured: true)
    }

    init(decoded frame: BLEVendorDecoding.VendorFrame, direction: Direction) {
        self.init(frame, direction: direction, captured: false)
    }

    private init(_ frame: BLEVendorDecoding.VendorFrame, direction: Direction, captured: Bool) {
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
