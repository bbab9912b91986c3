import BLEATT
import BLEBase

/// An attribute value that crossed a connection, for vendor decoders above this layer. Who
/// the connection is with comes before its first value (`SessionEvent.device`).
public struct ATTValueEvent: Sendable {
    public var connection: ConnectionID
    /// True for values the host (the capture's side, or the central over the air) sent.
    public var hostToDevice: Bool
    public var opcode: ATTOpcode
    public var handle: UInt16
    public var uuid: BluetoothUUID?
    /// Shared with its record's bytes: the vendor layer copies what it keeps.
    public var value: ByteView
    public var timeUs: Int64
    public var record: Int
    /// The first record carrying the PDU's bytes (its first L2CAP fragment) and its time.
    public var firstFragmentRecord: Int
    public var firstFragmentUs: Int64
    public var mtu: Int
}

/// The peer of a connection as the vendor layer matches profiles by.
public struct ConnectionDevice: Sendable, Equatable {
    public var connection: ConnectionID
    public var deviceID: DeviceID?
    /// The vendor profile the device matched by its advertising, if any.
    public var profile: String?
    /// The primary services discovered so far on the device (for profiles that match by GATT
    /// service).
    public var services: [BluetoothUUID]
}

/// What the analysis tells the layer above as it goes.
public enum SessionEvent: Sendable {
    /// The connection's device, before its first value and again before a value when it
    /// changed (a merge of addresses, a profile, discovered services): not with every value,
    /// which would make each value's event longer to move and to release.
    case device(ConnectionDevice)
    case attValue(ATTValueEvent)
    /// A Write Response: the peer acknowledged the connection's Write Request.
    case writeResponse(connection: ConnectionID, timeUs: Int64)
    case connectionEnded(connection: ConnectionID, timeUs: Int64)
}
