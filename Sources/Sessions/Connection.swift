import ATT
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding

/// A connection and what became of it.
package struct Connection: Sendable {
    package var id: String
    package var deviceID: String?
    package var link: LinkID
    package var handle: UInt16?
    package var accessAddress: UInt32?
    package var peerAddress: BluetoothAddress?
    package var peerAddressType: AddressType?
    package var role: Role
    /// The LE Create Connection (or CONNECT_IND) that started it, when seen.
    package var createUs: Int64?
    package var startUs: Int64
    package var startRecord: Int
    package var endUs: Int64?
    package var endRecord: Int?
    package var disconnectReason: HCIStatus?
    package var initiator: DisconnectInitiator?
    package var completeEvent: String
    package var parameters: [ConnectionParameters]
    package var mtu: Int
    package var dataLength: (tx: Int, rx: Int)?
    package var phy: (tx: String, rx: String)?
    package var encrypted: Bool
    package var lastActivityUs: Int64
    package var transactions: [ATTTransaction]
    /// Handle Value Notifications with their values, listed as transactions are (`--transactions
    /// all`, same caps) but apart: they answer nothing and are no transaction of the report.
    package var notifications: [ATTTransaction] = []
    package var transactionTotals: TransactionTotals
    package var subscriptions: [Subscription]
    /// Over the air: the CRC preset of the link (CONNECT_IND's CRCInit).
    package var crcInit: UInt32?
    /// Over the air: the central (CONNECT_IND's InitA); `peerAddress` is the peripheral.
    package var centralAddress: BluetoothAddress?
    package var centralAddressType: AddressType?
    /// Values that need no answer (notifications, Write Commands), counted per handle.
    package var valueCounts: [ValueCountKey: Int]
    /// When the client ran GATT discovery on this link (first and last discovery request).
    package var discovery: (startUs: Int64, endUs: Int64)?
    /// Why the end is inferred rather than seen, when it is: the host's Disconnect with no
    /// completion captured, or silence over the air.
    package var endInferred: String? = nil
    /// Discoveries after the first (a new primary-service discovery from handle 0x0001).
    package var rediscoveries: [(startUs: Int64, endUs: Int64)] = []
    /// Pairings and encryption changes on this link, in time order.
    package var security = ConnectionSecurity()
    package var dangling: Bool { endUs == nil }
    /// `le` or `br-edr`: which link the connection is (LE Connection Complete or CONNECT_IND, or
    /// the BR/EDR Connection Complete).
    package var transport: Transport = .le
    /// Traffic on a link whose completion event the capture lacks: the capture began (or the
    /// sniffer joined) while it was up; it starts at its first record.
    package var startedBeforeCapture = false
    /// The ATT bearers that carried ATT on the link, in the order they were first used.
    package var bearers: [ATTBearer] = []
    /// The GATT database learned on a link whose peer the capture never named (a link begun
    /// before the capture); a known peer's database is its device's (`Device.gatt`).
    package var gatt: [GATTAttribute] = []
    /// L2CAP channels whose traffic is not analysed (RFCOMM, SDP, AVDTP…), by PSM, or by CID
    /// when the capture lacks the channel's opening.
    package var channels: [ChannelUse] = []

    package enum Role: String, Sendable { case central, peripheral, unknown }
    package enum Transport: String, Sendable { case le, brEdr = "br-edr" }
}

/// One ATT bearer of a connection (Core v5.4 Vol 3 Part F §3.2.11): the LE fixed channel, an
/// L2CAP channel for PSM 0x001F on BR/EDR, or an enhanced ATT channel (PSM 0x0027).
package struct ATTBearer: Sendable, Equatable {
    package enum Kind: String, Sendable { case attFixed = "att-fixed", attBREDR = "att-br-edr", eatt }
    package var kind: Kind
    /// nil on the fixed channel.
    package var psm: UInt16?
    package var localCID: UInt16
    package var remoteCID: UInt16

    package init(kind: Kind, psm: UInt16?, localCID: UInt16, remoteCID: UInt16) {
        self.kind = kind
        self.psm = psm
        self.localCID = localCID
        self.remoteCID = remoteCID
    }
}

/// Traffic on one L2CAP channel that bledecode names but does not decode.
package struct ChannelUse: Sendable, Equatable {
    /// nil when the capture lacks the channel's opening (or for a fixed channel).
    package var psm: UInt16?
    /// The channel's CID as the capture's side knows it (or the one seen, when its opening is missing).
    package var cid: UInt16
    package var packets: Int
    package var bytes: Int
    package var firstUs: Int64
    package var lastUs: Int64
}

package enum DisconnectInitiator: String, Sendable {
    case localHost = "local-host", remote, controller, unknown
}

/// Interval, latency and supervision timeout at a point in time (Core v5.4 Vol 6 Part B §4.5).
package struct ConnectionParameters: Sendable, Equatable {
    package var timeUs: Int64
    package var intervalUs: Int
    package var latency: Int
    package var supervisionTimeoutMs: Int
}

/// Which unanswered values a count is about: opcode and handle.
package struct ValueCountKey: Hashable, Sendable, Comparable {
    package var opcode: UInt8
    package var handle: UInt16
    package static func < (a: Self, b: Self) -> Bool { (a.handle, a.opcode) < (b.handle, b.opcode) }
}

/// A CCCD write: notifications/indications turned on or off for a characteristic.
package struct Subscription: Sendable, Equatable {
    package var timeUs: Int64
    package var cccdHandle: UInt16
    package var characteristic: String
    package var notifications: Bool
    package var indications: Bool
}

/// A connection attempt that did not become a connection.
package struct ConnectionAttempt: Sendable {
    package enum Outcome: String, Sendable { case failed, cancelled, neverCompleted = "never-completed", rejected }
    package var peerAddress: BluetoothAddress?
    package var deviceID: String?
    package var createUs: Int64
    package var endUs: Int64?
    package var outcome: Outcome
    package var status: HCIStatus?
}
