import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLELinkLayer
import BLEPacketDecoding
import BLESessions
import BLEVendorDecoding

/// The protocols `bledecode packets --only` chooses between.
public enum PacketProtocol: String, Sendable, CaseIterable {
    /// Records that complete an ATT PDU (well-formed or not).
    case att
    /// Records that complete an SMP PDU.
    case smp
    /// Records that complete an LE signalling PDU (CID 0x0005) or a BR/EDR one (0x0001).
    case signalling
    /// HCI commands and events (not data packets).
    case hci
    /// Link-layer packets of air captures.
    case ll
}

/// What `bledecode packets` lists: every criterion given must hold; empty lists select
/// everything. Connections and devices are the ones the session analysis assigns in the same
/// pass, so `C2` and `D3` mean what they mean in the timeline and the report; devices resolved
/// from a first analysis (`resolveDevices(in:)`) select each one's connections whole.
public struct PacketFilter: Sendable {
    /// Connection ids (`C2`).
    public var connections: [ConnectionID] = []
    /// Device ids (`D3`), addresses, identities or part of a name (the timeline's rule).
    public var devices: [String] = []
    /// ATT PDUs about these handles; a response counts as about its request's handle.
    public var handles: [UInt16] = []
    /// ATT PDUs about attributes of these UUIDs (the attribute's own or its characteristic's),
    /// as the device's database is known when the packet goes by.
    public var uuids: [BluetoothUUID] = []
    public var since: TimeBound?
    public var until: TimeBound?
    /// Record numbers, inclusive (`--records 1200-1300`).
    public var records: ClosedRange<Int>?
    public var only: [PacketProtocol] = []
    /// The connections of the devices `devices` names, when resolved from an analysis of the
    /// whole capture (`resolveDevices(in:)`); nil: matched against each packet's peer as the
    /// pass knows it then, which misses a device's connections from before its name was learned.
    public private(set) var deviceConnections: Set<ConnectionID>?

    public init() {}

    /// Resolves `devices` to the connections of the devices they name among `known` (the
    /// timeline's rule, on each device as the whole capture shows it).
    public mutating func resolveDevices(in known: [Device]) {
        var connections = Set<ConnectionID>()
        for device in known where devices.contains(where: {
            DeviceQuery.matches($0, id: device.id, addresses: device.addresses.lazy.map(\.address),
                                identity: device.identity?.value, names: device.names)
        }) {
            connections.formUnion(device.connectionIDs)
        }
        deviceConnections = connections
    }

    public var isEmpty: Bool {
        connections.isEmpty && devices.isEmpty && handles.isEmpty && uuids.isEmpty && since == nil && until == nil
            && records == nil && only.isEmpty
    }

    /// Parses `1200-1300`, `1200-` (to the end), `-1300` or `1200`; nil when malformed or reversed.
    public static func recordRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let low = parts[0].isEmpty ? 1 : Int(parts[0])
        let high = parts.count == 1 ? low : (parts[1].isEmpty ? Int.max : Int(parts[1]))
        guard let low, let high, low >= 1, low <= high, !(parts.count == 2 && parts[0].isEmpty && parts[1].isEmpty)
        else { return nil }
        return low...high
    }
}

/// Decodes records and follows the sessions in the same single pass, so that each packet comes
/// with the connection and device it belongs to, as the analysis knows them at that moment.
public struct PacketStream {
    private var decoder = PacketDecoder()
    private var sessions: SessionAnalyzer
    private var events: [SessionEvent] = []
    private var firstUs: Int64?
    /// The handle of the outstanding request per link and direction of the request, so that its
    /// response (which carries no handle) is about the same attribute.
    private var requestHandles: [RequestKey: UInt16] = [:]

    private struct RequestKey: Hashable {
        var link: LinkID
        var direction: Direction
    }

    /// `profiles` identify devices as the report does (their identity rules tie addresses to one
    /// device), so that device ids are the report's when it is run with the same profiles.
    public init(profiles: [Profile] = []) {
        sessions = SessionAnalyzer(options: SessionOptions(transactions: .none, classifier: VendorLayer.classifier(for: profiles)))
    }

    /// The decoded packet and the connection it travelled on, if one was up (or came up with it).
    public mutating func decode(_ record: CaptureRecord) -> (packet: DecodedPacket, peer: LinkPeer?) {
        var packet = DecodedPacket(record: record), swapped = record
        decoder.decode(swapping: &swapped, into: &packet)
        firstUs = firstUs ?? record.timestampUs
        let link = Self.link(of: packet)
        // Looked up before the packet is analysed (a Disconnection Complete ends the link) and
        // after (a Connection Complete starts it). A record that starts a link belongs to the new
        // one, also where it takes the place of a link whose end the capture lacks.
        let before = link.flatMap { $0.startsIt ? nil : sessions.peer(of: $0.id) }
        sessions.process(lent: &packet, into: &events)
        events.removeAll(keepingCapacity: true)
        return (packet, before ?? link.flatMap { sessions.peer(of: $0.id) })
    }

    /// Problems left at the end of the capture (PDUs never completed).
    public mutating func finish() -> [PacketIssue] { decoder.finish() }

    /// True when `packet` passes every criterion of `filter`. Call once per packet, in order:
    /// it keeps the requests' handles for their responses.
    public mutating func matches(_ filter: PacketFilter, _ packet: DecodedPacket, peer: LinkPeer?) -> Bool {
        // Requests are followed on every packet (their responses may pass the other criteria).
        let handles = filter.handles.isEmpty && filter.uuids.isEmpty ? [] : attHandles(packet)
        guard !filter.isEmpty else { return true }
        let record = packet.record
        if let records = filter.records, !records.contains(record.index) { return false }
        let start = firstUs ?? record.timestampUs
        if let since = filter.since, record.timestampUs < since.resolve(start: start) { return false }
        if let until = filter.until, record.timestampUs > until.resolve(start: start) { return false }
        if !filter.only.isEmpty, !filter.only.contains(where: { Self.carries(packet, $0) }) { return false }
        if !filter.connections.isEmpty {
            guard let id = peer?.connectionID, filter.connections.contains(id) else { return false }
        }
        if let resolved = filter.deviceConnections {
            guard let id = peer?.connectionID, resolved.contains(id) else { return false }
        } else if !filter.devices.isEmpty {
            guard let peer, filter.devices.contains(where: peer.matches(device:)) else { return false }
        }
        if !filter.handles.isEmpty, !handles.contains(where: { filter.handles.contains($0.handle) }) { return false }
        if !filter.uuids.isEmpty {
            let about = handles.contains { entry in
                sessions.attributeUUIDs(on: entry.link, handle: entry.handle).contains(where: filter.uuids.contains)
            }
            if !about { return false }
        }
        return true
    }

    /// True once no later record can pass the filter's record range.
    public static func isPast(_ filter: PacketFilter, _ record: CaptureRecord) -> Bool {
        filter.records.map { record.index > $0.upperBound } ?? false
    }

    /// The handles the record's ATT PDUs are about, a response taking its request's.
    private mutating func attHandles(_ packet: DecodedPacket) -> [(link: LinkID, handle: UInt16)] {
        var found: [(link: LinkID, handle: UInt16)] = []
        for pdu in packet.l2cap {
            guard case .att(let att) = pdu.content else { continue }
            let key = RequestKey(link: pdu.link, direction: pdu.direction)
            // A discovery request covers a range of handles: it is about none of them (nor is
            // its response), however its range starts.
            if Self.rangeOpcodes.contains(att.opcode.rawValue) {
                requestHandles[key] = nil
                continue
            }
            if case .errorResponse(let error) = att.parameters, Self.rangeOpcodes.contains(error.requestOpcode.rawValue) {
                requestHandles[RequestKey(link: pdu.link, direction: Self.opposite(pdu.direction))] = nil
                continue
            }
            switch att.opcode.kind {
            case .request, .indication:
                requestHandles[key] = att.handle
                if let handle = att.handle { found.append((pdu.link, handle)) }
            case .response, .confirmation:
                let asked = RequestKey(link: pdu.link, direction: Self.opposite(pdu.direction))
                if let handle = att.handle ?? requestHandles[asked] { found.append((pdu.link, handle)) }
                requestHandles[asked] = nil
            default:
                if let handle = att.handle { found.append((pdu.link, handle)) }
            }
        }
        return found
    }

    /// Find Information, Find By Type Value, Read By Type and Read By Group Type Requests
    /// (Core v5.4 Vol 3 Part F §3.4.3–3.4.4).
    private static let rangeOpcodes: Set<UInt8> = [0x04, 0x06, 0x08, 0x10]

    private static func opposite(_ direction: Direction) -> Direction {
        switch direction {
        case .sent: .received
        case .received: .sent
        case .centralToPeripheral: .peripheralToCentral
        case .peripheralToCentral: .centralToPeripheral
        case .unknown: .unknown
        }
    }

    static func carries(_ packet: DecodedPacket, _ proto: PacketProtocol) -> Bool {
        switch proto {
        case .hci:
            switch packet.hci {
            case .command, .event: return true
            default: return false
            }
        case .ll: return packet.isAir
        case .att, .smp, .signalling:
            return packet.l2cap.contains { pdu in
                switch (pdu.content, proto) {
                case (.att, .att), (.malformedATT, .att), (.smp, .smp), (.signalling, .signalling): return true
                default: return false
                }
            }
        }
    }

    /// The link a packet travelled on or is about: its L2CAP PDUs', its ACL header's, an air data
    /// PDU's access address, or the connection handle of an HCI event about a connection; and
    /// whether the record is the one the link starts with (a CONNECT_IND, an LE or BR/EDR
    /// Connection Complete).
    static func link(of packet: DecodedPacket) -> (id: LinkID, startsIt: Bool)? {
        if let pdu = packet.l2cap.first { return (pdu.link, false) }
        let adapter = packet.record.adapter
        switch packet.hci {
        case .acl(let acl): return (.hci(adapter: adapter, handle: acl.connectionHandle), false)
        case .event(let event):
            return connectionHandle(of: event).map { (.hci(adapter: adapter, handle: $0.handle), $0.startsIt) }
        default: break
        }
        if let air = packet.air?.packet {
            switch air.pdu {
            case .data: return (.air(accessAddress: air.accessAddress), false)
            // A CONNECT_IND names the access address of the link it starts (Core v5.4 Vol 6 Part B §2.3.3.1).
            case .advertising(let advertising):
                if case .connect(let indication) = advertising.payload { return (.air(accessAddress: indication.accessAddress), true) }
            }
        }
        return nil
    }

    private static func connectionHandle(of event: HCIEventPacket) -> (handle: UInt16, startsIt: Bool)? {
        switch event.body {
        case .disconnectionComplete(let e): return (e.connectionHandle, false)
        case .encryptionChange(let e): return (e.connectionHandle, false)
        case .encryptionKeyRefreshComplete(_, let handle): return (handle, false)
        case .leMeta(let meta):
            switch meta.body {
            case .connectionComplete(let e): return (e.connectionHandle, true)
            case .connectionUpdateComplete(let e): return (e.connectionHandle, false)
            case .dataLengthChange(let e): return (e.connectionHandle, false)
            case .phyUpdateComplete(let e): return (e.connectionHandle, false)
            default: return nil
            }
        default:
            // BR/EDR link events arrive undecoded (`HCIEventPacket.classicLink`).
            switch event.classicLink {
            case .connectionComplete(let e)?: return (e.connectionHandle, true)
            case .authenticationComplete(_, let handle)?: return (handle, false)
            default: return nil
            }
        }
    }
}
