import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// A connection and what became of it.
public struct Connection: Sendable {
    public var id: ConnectionID
    public var deviceID: DeviceID?
    public var link: LinkID
    public var handle: UInt16?
    public var accessAddress: UInt32?
    public var peerAddress: BluetoothAddress?
    public var peerAddressType: AddressType?
    public var role: Role
    /// The LE Create Connection (or CONNECT_IND) that started it, when seen.
    public var createUs: Int64?
    public var startUs: Int64
    public var startRecord: Int
    public var endUs: Int64?
    public var endRecord: Int?
    public var disconnectReason: HCIStatus?
    public var initiator: DisconnectInitiator?
    public var completeEvent: String
    public var parameters: [ConnectionParameters]
    public var mtu: Int
    public var dataLength: (tx: Int, rx: Int)?
    public var phy: (tx: String, rx: String)?
    public var encrypted: Bool
    public var lastActivityUs: Int64
    public var transactions: [ATTTransaction]
    /// Handle Value Notifications with their values, listed as transactions are (`--transactions
    /// all`, same caps) but apart: they answer nothing and are no transaction of the report.
    public var notifications: [ATTTransaction] = []
    public var transactionTotals: TransactionTotals
    public var subscriptions: [Subscription]
    /// Over the air: the CRC preset of the link (CONNECT_IND's CRCInit).
    public var crcInit: UInt32?
    /// Over the air: the central (CONNECT_IND's InitA); `peerAddress` is the peripheral.
    public var centralAddress: BluetoothAddress?
    public var centralAddressType: AddressType?
    /// Values that need no answer (notifications, Write Commands), counted per handle, in key
    /// order (`KeyedList`).
    public var valueCounts: [(key: ValueCountKey, value: Int)]
    /// When the client ran GATT discovery on this link (first and last discovery request).
    public var discovery: (startUs: Int64, endUs: Int64)?
    /// Why the end is inferred rather than seen, when it is: the host's Disconnect with no
    /// completion captured, or silence over the air.
    public var endInferred: String? = nil
    /// When the device discovered the other side's server (its first and last discovery request).
    public var otherSideDiscovery: (startUs: Int64, endUs: Int64)?
    /// Discoveries after the first (a new primary-service discovery from handle 0x0001).
    public var rediscoveries: [(startUs: Int64, endUs: Int64)] = []
    /// Pairings and encryption changes on this link, in time order.
    public var security = ConnectionSecurity()
    public var dangling: Bool { endUs == nil }
    /// `le` or `br-edr`: which link the connection is (LE Connection Complete or CONNECT_IND, or
    /// the BR/EDR Connection Complete).
    public var transport: Transport = .le
    /// Traffic on a link whose completion event the capture lacks: the capture began (or the
    /// sniffer joined) while it was up; it starts at its first record.
    public var startedBeforeCapture = false
    /// The ATT bearers that carried ATT on the link, in the order they were first used.
    public var bearers: [ATTBearer] = []
    /// The GATT database learned on a link whose peer the capture never named (a link begun
    /// before the capture); a known peer's database is its device's (`Device.gatt`).
    public var gatt: [GATTAttribute] = []
    /// The other side's GATT database (the capturing host's, or the central's on air), learned
    /// from the device's own discovery of it; empty when the device discovered nothing.
    public var otherSideGATT: [GATTAttribute] = []
    /// L2CAP channels whose traffic is not analysed (RFCOMM, SDP, AVDTP…), by PSM, or by CID
    /// when the capture lacks the channel's opening.
    public var channels: [ChannelUse] = []
    /// Packets on the link that are counted but not decoded (LL Control PDUs of unknown opcodes).
    public var packetsNotAnalysed: [PacketsNotAnalysed] = []

    public enum Role: String, Sendable { case central, peripheral, unknown }
    public enum Transport: String, Sendable { case le, brEdr = "br-edr" }
}

/// One ATT bearer of a connection (Core v5.4 Vol 3 Part F §3.2.11): the LE fixed channel, an
/// L2CAP channel for PSM 0x001F on BR/EDR, or an enhanced ATT channel (PSM 0x0027).
public struct ATTBearer: Sendable, Equatable {
    public enum Kind: String, Sendable { case attFixed = "att-fixed", attBREDR = "att-br-edr", eatt }
    public var kind: Kind
    /// nil on the fixed channel.
    public var psm: UInt16?
    public var localCID: UInt16
    public var remoteCID: UInt16

    public init(kind: Kind, psm: UInt16?, localCID: UInt16, remoteCID: UInt16) {
        self.kind = kind
        self.psm = psm
        self.localCID = localCID
        self.remoteCID = remoteCID
    }
}

/// Traffic on one L2CAP channel that bledecode names but does not decode.
public struct ChannelUse: Sendable, Equatable {
    /// nil when the capture lacks the channel's opening (or for a fixed channel).
    public var psm: UInt16?
    /// The channel's CID as the capture's side knows it (or the one seen, when its opening is missing).
    public var cid: UInt16
    public var packets: Int
    public var bytes: Int
    public var firstUs: Int64
    public var lastUs: Int64
}

public enum DisconnectInitiator: String, Sendable {
    case localHost = "local-host", remote, controller, unknown
}

/// Interval, latency and supervision timeout at a point in time (Core v5.4 Vol 6 Part B §4.5).
public struct ConnectionParameters: Sendable, Equatable {
    public var timeUs: Int64
    public var intervalUs: Int
    public var latency: Int
    public var supervisionTimeoutMs: Int
}

/// Which unanswered values a count is about: opcode, handle and the server the handle is of.
public struct ValueCountKey: Hashable, Sendable, Comparable {
    public var opcode: UInt8
    public var handle: UInt16
    public var server: GATTServer

    public init(opcode: UInt8, handle: UInt16, server: GATTServer) {
        self.opcode = opcode
        self.handle = handle
        self.server = server
    }

    /// The device's server first; then by handle, then opcode.
    public static func < (a: Self, b: Self) -> Bool {
        if a.server != b.server { return a.server < b.server }
        return (a.handle, a.opcode) < (b.handle, b.opcode)
    }
}

/// A CCCD write: notifications/indications turned on or off for a characteristic.
public struct Subscription: Sendable, Equatable {
    public var timeUs: Int64
    public var cccdHandle: UInt16
    public var characteristic: String
    public var notifications: Bool
    public var indications: Bool
}

/// A connection attempt that did not become a connection.
public struct ConnectionAttempt: Sendable {
    public enum Outcome: String, Sendable { case failed, cancelled, neverCompleted = "never-completed", rejected }
    public var peerAddress: BluetoothAddress?
    public var deviceID: DeviceID?
    public var createUs: Int64
    public var endUs: Int64?
    public var outcome: Outcome
    public var status: HCIStatus?
}
