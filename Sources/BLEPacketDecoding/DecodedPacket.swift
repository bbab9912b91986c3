import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLELinkLayer

/// One capture record decoded as deep as its bytes allow. Decoding is lax at packet level: a
/// malformed layer becomes an `issue` and the layers above it are simply absent.
public struct DecodedPacket: Sendable {
    public var record: CaptureRecord
    /// The HCI packet, for HCI-level captures; `.absent` otherwise (not an optional: storing into
    /// an empty optional destroys it through the runtime's generic witness).
    public var hci: HCIPacket = .absent
    /// The link-layer packet, for air captures (pseudo-header, PDU, CRC verdict, flags).
    public var air: LinkLayerResult? {
        get { airFields?.result }
        set { airFields = AirFields(result: newValue, advertisingData: airAdvertisingData) }
    }
    /// True for a packet of an air capture (`air` is then set): a test that copies nothing out.
    public var isAir: Bool { airFields != nil }
    /// The advertising data of an air advertising PDU, decoded by the same decoder as HCI reports.
    public var airAdvertisingData: AdvertisingData? {
        get { airFields?.advertisingData }
        set { airFields = AirFields(result: air, advertisingData: newValue) }
    }
    /// The two air fields, boxed: nil on every HCI capture; inline, they would make every packet
    /// much longer to copy and destroy. Immutable, so copies of a packet never share a change.
    private var airFields: AirFields?
    /// L2CAP PDUs this record completed (usually none or one), with what they carry.
    public var l2cap = L2CAPPDUs()
    /// Extended advertising reports completed by this record (fragments joined by data status).
    public var joinedAdvertising: [ExtendedAdvertisingAssembler.Output] = []
    /// Decode problems and anomalies found on this record.
    public var issues: [PacketIssue] = []

    public init(record: CaptureRecord) { self.record = record }

    /// Holds `record` and nothing else but the previous `hci`, list capacities kept, the previous
    /// record going into `record`, for `PacketDecoder.decode(swapping:into:)`, which sets `hci` for
    /// every record: the previous one is then destroyed once, when it is replaced.
    mutating func replaceRecord(swapping record: inout CaptureRecord) {
        swap(&self.record, &record)
        clearLayers()
    }

    /// Sets `hci` to an ACL packet. When `hci` holds an ACL packet or none (most records), no
    /// reference is held and it is overwritten in place: assigned, the previous packet would go
    /// through the enum's outlined destroy on every record.
    mutating func setHCI(acl: ACLDataPacket) {
        let holdsNoReference: Bool
        switch hci {
        case .acl, .absent: holdsNoReference = _isPOD(ACLDataPacket.self)
        default: holdsNoReference = false
        }
        if holdsNoReference {
            withUnsafeMutablePointer(to: &hci) { $0.initialize(to: .acl(acl)) }
        } else {
            hci = .acl(acl)
        }
    }

    /// Empties what a record decodes into, but `hci`.
    private mutating func clearLayers() {
        if airFields != nil { airFields = nil }
        if l2cap.count > 0 { l2cap.removeAll() }
        if !joinedAdvertising.isEmpty { ArrayDrain.removeFirst(joinedAdvertising.count, of: &joinedAdvertising) }
        if !issues.isEmpty { ArrayDrain.removeFirst(issues.count, of: &issues) }
    }

    /// The ATT PDUs this record completed.
    public var attPDUs: [ATTPDU] {
        l2cap.compactMap { if case .att(let pdu) = $0.content { return pdu } else { return nil } }
    }
}

private final class AirFields: Sendable {
    let result: LinkLayerResult?
    let advertisingData: AdvertisingData?

    init(result: LinkLayerResult?, advertisingData: AdvertisingData?) {
        self.result = result
        self.advertisingData = advertisingData
    }
}

/// An HCI packet of any type.
public enum HCIPacket: Sendable, Equatable {
    case command(HCICommandPacket)
    case event(HCIEventPacket)
    case acl(ACLDataPacket)
    case sco(SCODataPacket)
    case iso(ISODataPacket)
    /// No HCI packet: an air capture's packet, a note or control record, or one that did not decode.
    case absent
}

/// Identifies a link across layers: an HCI connection handle on an adapter, or an air access address.
public enum LinkID: Hashable, Sendable, CustomStringConvertible {
    case hci(adapter: UInt16?, handle: UInt16)
    case air(accessAddress: UInt32)

    public var description: String {
        switch self {
        case .hci(let adapter, let handle):
            return (adapter.map { "hci\($0) " } ?? "") + "handle " + Hex.code(handle, width: 4)
        case .air(let accessAddress):
            return "AA " + Hex.code(accessAddress, width: 8)
        }
    }
}

/// A reassembled L2CAP PDU and its decoded content.
public struct L2CAPPDU: Sendable {
    public var link: LinkID
    public var direction: Direction
    public var frame: L2CAPFrame
    public var content: L2CAPContent
    /// The channel's PSM and the CIDs of both ends, for PDUs on dynamic channels
    /// (`L2CAPChannelTable`); all 0 on fixed channels.
    public var channel = ChannelEnds.fixed

    public init(link: LinkID, direction: Direction, frame: L2CAPFrame, content: L2CAPContent,
                channel: ChannelEnds = .fixed) {
        self.link = link
        self.direction = direction
        self.frame = frame
        self.content = content
        self.channel = channel
    }
}

/// What an L2CAP PDU carries, by channel (Core v5.4 Vol 3 Part A §2.1).
public enum L2CAPContent: Sendable {
    case att(ATTPDU)
    /// An ATT PDU whose parameters do not decode; the opcode when at least that byte is there.
    case malformedATT(opcode: ATTOpcode?, error: DecodeError)
    case smp(SMPCommand)
    case signalling(SignallingPDU)
    /// A channel this decoder does not go into, or a PDU of those that failed to decode.
    case other(error: DecodeError?)
}

/// A problem found while decoding one record. Each is a finding in the report, never a crash.
public struct PacketIssue: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// A layer's bytes break the specification (bad length, reserved value, leftover bytes).
        case malformed
        /// The capturing tool kept fewer bytes than were sent (btsnooz, snaplen).
        case cutByCapture = "cut-by-capture"
        /// L2CAP reassembly anomalies (Core v5.4 Vol 3 Part A §7.2 fragmentation rules).
        case orphanContinuation = "orphan-continuation"
        case interruptedPDU = "interrupted-pdu"
        case overrun
        case incompletePDU = "incomplete-pdu"
        /// Extended advertising fragments never completed.
        case advertisingAbandoned = "advertising-abandoned"
        /// A record this decoder does not go into (air captures before their decoder, unknown types).
        case notDecoded = "not-decoded"
    }

    public var kind: Kind
    public var layer: Layer
    public var message: String
    /// For an ATT PDU the capturing tool cut: its opcode, when the cut left that byte.
    public var hiddenATTOpcode: UInt8?
    /// The decoder's error, typed (field, offset, bytes needed), when a layer's bytes broke the
    /// specification; `message` is its text.
    public var error: DecodeError?

    public init(_ kind: Kind, layer: Layer, _ message: String, hiddenATTOpcode: UInt8? = nil) {
        self.kind = kind
        self.layer = layer
        self.message = message
        self.hiddenATTOpcode = hiddenATTOpcode
    }

    public init(_ error: DecodeError) {
        self.init(.malformed, layer: error.layer, error.message)
        self.error = error
    }

    public var description: String { "\(layer.rawValue): \(message)" }
}
