import BLEATT
import BLEBase
import BLECaptureFormats
import BLEL2CAP
import BLEPacketDecoding

/// A connection that is up, with what is in flight on it. A class: the handlers change it in
/// place through one reference (a struct in `live` would be taken out and put back on every packet).
final class LiveConnection {
    var connection: Connection
    /// The peer's address slot; nil until a link the capture did not see begin reveals it.
    var slot: Int?
    /// Outstanding client requests, and apart from them outstanding server indications, on the
    /// fixed ATT channel: two flows per direction (Core v5.4 Vol 3 Part F §3.3.2: one request and
    /// one indication may be outstanding at once). Other bearers' are in `bearerPending`.
    var pending = PendingRequests()
    var pendingIndications = PendingRequests()
    var securityState = SecurityState()
    /// Over the air, when each side last sent L2CAP data (a sniffer that lost part of an answer
    /// may still have seen its start).
    var lastCentralL2CAPUs: Int64?
    var lastPeripheralL2CAPUs: Int64?
    /// Over the air, the last ATT PDU each side began in a start fragment too short to hold it:
    /// when the sniffer loses the rest, an answer of which only this start was captured.
    var centralATTStart: ATTStart?
    var peripheralATTStart: ATTStart?
    var disconnectRequested = false
    /// The host's Disconnect command (time, record), kept for a completion the capture lacks.
    var disconnectRequest: (timeUs: Int64, record: Int)?
    /// The controller accepted that Disconnect (Command Status: success).
    var disconnectAccepted = false
    /// Time and record of the peripheral's last packet (air captures: answers prove the link is alive).
    var lastPeripheralUs: Int64?
    var lastPeripheralRecord: Int?
    /// Time of the central's last packet (air captures: none means the sniffer did not follow).
    var lastCentralUs: Int64?
    /// Over the air, packets with a bad CRC the sniffer took on this link's access address, or
    /// with no readable access address while the link was up: packets of this link it may have lost.
    var badCRCPackets = 0
    /// Over the air, encrypted data PDUs each side sent that the capture holds no key for (Core
    /// v5.4 Vol 6 Part B §5.1.3): an answer among them cannot be read.
    var encryptedFromPeripheral = 0
    var encryptedFromCentral = 0
    /// Read Blob / Prepare Write values being joined, per handle (bounded).
    var longValues: [UInt16: [UInt8]] = [:]
    /// What the layer above was last told of this connection's device (`SessionEvent.device`)
    /// and the registry's and GATT databases' versions then; nil before its first value.
    var sentDevice: (registry: Int, gatt: Int, device: ConnectionDevice)?

    /// Unanswered values (commands, notifications) per opcode and handle, and ATT transaction
    /// totals per opcode and handle, counted while the link is up; `ended` moves them into
    /// `connection`.
    private var valueCounts = FewKeys<ValueCountKey, Int>()
    private var transactionTotals = FewKeys<TransactionTotals.Key, TransactionTotals.Aggregate>()

    /// The outstanding requests and indications of each ATT bearer other than the fixed channel
    /// (`pending`, `pendingIndications`), by the bearer's local CID: each bearer has its own
    /// one-at-a-time rules (Core v5.4 Vol 3 Part F §3.2.11, §3.3.2).
    var bearerPending: [(cid: UInt16, requests: PendingRequests, indications: PendingRequests)] = []
    /// What discovery taught on a link with no known peer (`slot` nil).
    var ownGATT = GATTDatabase()
    /// The other side's server, discovered by the device: kept apart, its handles are not the device's.
    var otherSideGATT = GATTDatabase()
    /// Whether the fixed ATT channel has carried ATT yet (it is listed in `bearers` once).
    var fixedBearerSeen = false

    var id: ConnectionID { connection.id }

    init(connection: Connection, slot: Int?) {
        self.connection = connection
        self.slot = slot
    }

    /// The opcode of the outstanding request (or indication) of `direction` on the bearer whose
    /// local CID is `cid` (0: the fixed channel), read in place.
    func pendingOpcode(_ direction: Direction, bearer cid: UInt16, indication: Bool) -> ATTOpcode? {
        if cid == 0 { return indication ? pendingIndications.opcode(direction) : pending.opcode(direction) }
        guard let i = bearerPending.firstIndex(where: { $0.cid == cid }) else { return nil }
        return indication ? bearerPending[i].indications.opcode(direction) : bearerPending[i].requests.opcode(direction)
    }

    func peekPending(_ direction: Direction, bearer cid: UInt16, indication: Bool) -> PendingRequest? {
        if cid == 0 { return indication ? pendingIndications[direction] : pending[direction] }
        guard let i = bearerPending.firstIndex(where: { $0.cid == cid }) else { return nil }
        return indication ? bearerPending[i].indications[direction] : bearerPending[i].requests[direction]
    }

    func takePending(_ direction: Direction, bearer cid: UInt16, indication: Bool) -> PendingRequest? {
        if cid == 0 { return indication ? pendingIndications.remove(direction) : pending.remove(direction) }
        guard let i = bearerPending.firstIndex(where: { $0.cid == cid }) else { return nil }
        return indication ? bearerPending[i].indications.remove(direction) : bearerPending[i].requests.remove(direction)
    }

    /// `request` is taken, not lent: it is stored, and a lent one would be copied in (a retain of
    /// each of its references, once per ATT request).
    func setPending(_ request: consuming PendingRequest, _ direction: Direction, bearer cid: UInt16, indication: Bool) {
        if cid == 0 {
            if indication { pendingIndications[direction] = request } else { pending[direction] = request }
            return
        }
        let i = bearerPending.firstIndex(where: { $0.cid == cid }) ?? {
            bearerPending.append((cid, PendingRequests(), PendingRequests()))
            return bearerPending.count - 1
        }()
        if indication { bearerPending[i].indications[direction] = request } else { bearerPending[i].requests[direction] = request }
    }

    /// The local CIDs of the bearers with outstanding requests or indications (0: the fixed channel).
    var pendingBearers: [UInt16] { [0] + bearerPending.map(\.cid) }

    /// Counts a PDU on a channel not analysed (a handful per link, searched in order).
    func countChannel(psm: UInt16?, cid: UInt16, bytes: Int, timeUs: Int64) {
        if let i = connection.channels.firstIndex(where: { $0.psm == psm && $0.cid == cid }) {
            connection.channels[i].packets += 1
            connection.channels[i].bytes += bytes
            connection.channels[i].lastUs = timeUs
        } else {
            connection.channels.append(ChannelUse(psm: psm, cid: cid, packets: 1, bytes: bytes, firstUs: timeUs,
                                                  lastUs: timeUs))
        }
    }

    func countValue(opcode: UInt8, handle: UInt16, server: GATTServer) {
        valueCounts.update(ValueCountKey(opcode: opcode, handle: handle, server: server), default: 0) { $0 += 1 }
    }

    /// Changes the totals of `key` in place (a copy would copy its latency samples on write).
    func updateTotals(_ key: TransactionTotals.Key, _ body: (inout TransactionTotals.Aggregate) -> Void) {
        transactionTotals.update(key, default: TransactionTotals.Aggregate(), body)
    }

    /// Every bearer's outstanding requests and indications, oldest first (for a link that ends);
    /// `removeAllPending` empties them.
    var allPending: [PendingRequest] {
        let indications = pendingIndications.byRequestTime
        if indications.isEmpty && bearerPending.isEmpty { return pending.byRequestTime }
        let others = bearerPending.flatMap { $0.requests.byRequestTime + $0.indications.byRequestTime }
        return (pending.byRequestTime + indications + others).sorted { $0.transaction.requestUs < $1.transaction.requestUs }
    }

    func removeAllPending() {
        pending.removeAll()
        pendingIndications.removeAll()
        bearerPending.removeAll()
    }

    /// The connection as the report keeps it: its counts complete, its latencies frozen.
    func ended() -> Connection {
        valueCounts.move(into: &connection.valueCounts)
        transactionTotals.move(into: &connection.transactionTotals.byKey)
        connection.transactionTotals.freezeLatencies()
        if connection.deviceID == nil { connection.gatt = ownGATT.sorted }
        connection.otherSideGATT = otherSideGATT.sorted
        return connection
    }
}

/// Values by key where a link uses a handful of keys: the first `maxListed` keys in a list
/// searched in order (cheaper than hashing a key per packet), any others in a dictionary. A key lives in one of the two: once the list is full it stays as it is.
struct FewKeys<Key: Hashable, Value> {
    /// The listed keys and, at the same index, their values (apart, so that a search reads keys only).
    private var keys: [Key] = []
    private var values: [Value] = []
    private var others: [Key: Value] = [:]
    static var maxListed: Int { 16 }

    mutating func update(_ key: Key, default value: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
        if let i = keys.firstIndex(of: key) {
            body(&values[i])
        } else if keys.count < Self.maxListed {
            keys.append(key)
            values.append(value())
            body(&values[values.count - 1])
        } else {
            body(&others[key, default: value()])
        }
    }

    /// Adds every pair to `list`, which stays in key order (a pair replaces one with its key),
    /// and empties this.
    mutating func move(into list: inout [(key: Key, value: Value)]) where Key: Comparable {
        guard !keys.isEmpty else { return }
        list.reserveCapacity(list.count + keys.count + others.count)
        // Into an empty list, the listed keys (each once) in key order are the whole answer:
        // sorting their indices spares sorting the pairs, values and all.
        let inOrder = list.isEmpty && others.isEmpty
        for index in keys.indices.sorted(by: { keys[$0] < keys[$1] }) { list.append((keys[index], values[index])) }
        for (key, value) in others { list.append((key, value)) }
        if !inOrder { KeyedList.sortKeepingLast(&list) }
        self = FewKeys()
    }
}

struct PendingRequest {
    var pdu: ATTPDU
    var transaction: ATTTransaction
    /// Over the air, the link's `badCRCPackets` when the request was sent: those lost since may
    /// hold its answer.
    var badCRCBefore = 0
    /// Over the air, the encrypted PDUs the answering side had sent when the request was: those
    /// sent since may hold its answer.
    var encryptedBefore = 0
}

/// The outstanding ATT request per direction of the request (Core v5.4 Vol 3 Part F §3.3.2: one
/// per bearer and direction): a slot per `Direction`, no hashing, no allocation.
struct PendingRequests {
    private var sent: PendingRequest?
    private var received: PendingRequest?
    private var centralToPeripheral: PendingRequest?
    private var peripheralToCentral: PendingRequest?
    private var unknown: PendingRequest?

    subscript(direction: Direction) -> PendingRequest? {
        get {
            switch direction {
            case .sent: return sent
            case .received: return received
            case .centralToPeripheral: return centralToPeripheral
            case .peripheralToCentral: return peripheralToCentral
            case .unknown: return unknown
            }
        }
        set {
            switch direction {
            case .sent: sent = newValue
            case .received: received = newValue
            case .centralToPeripheral: centralToPeripheral = newValue
            case .peripheralToCentral: peripheralToCentral = newValue
            case .unknown: unknown = newValue
            }
        }
    }

    /// The opcode of the request in a slot, read in place (the subscript copies the request).
    /// `mutating` only to be handed the slots where they are: a non-mutating call loads all five
    /// slots (a request each) before it picks one.
    mutating func opcode(_ direction: Direction) -> ATTOpcode? {
        switch direction {
        case .sent: return sent?.transaction.opcode
        case .received: return received?.transaction.opcode
        case .centralToPeripheral: return centralToPeripheral?.transaction.opcode
        case .peripheralToCentral: return peripheralToCentral?.transaction.opcode
        case .unknown: return unknown?.transaction.opcode
        }
    }

    /// Takes the request out of its slot (moved, not copied).
    mutating func remove(_ direction: Direction) -> PendingRequest? {
        switch direction {
        case .sent: return sent.take()
        case .received: return received.take()
        case .centralToPeripheral: return centralToPeripheral.take()
        case .peripheralToCentral: return peripheralToCentral.take()
        case .unknown: return unknown.take()
        }
    }

    /// Every direction, in slot order.
    static let directions: [Direction] = [.sent, .received, .centralToPeripheral, .peripheralToCentral, .unknown]

    /// The outstanding requests, oldest first (for a link that ends with some unanswered).
    var byRequestTime: [PendingRequest] {
        Self.directions.compactMap { self[$0] }.sorted { $0.transaction.requestUs < $1.transaction.requestUs }
    }

    mutating func removeAll() { self = PendingRequests() }
}

/// The live connections by link. HCI links of the first adapter (or of a capture that names
/// none) are also in a table indexed by handle, so the lookup per packet needs no hashing.
struct LiveLinks {
    private(set) var all: [LinkID: LiveConnection] = [:]
    /// Unretained: `all` holds every connection of the table.
    private var byHandle = [Unmanaged<LiveConnection>?](repeating: nil, count: 2 * handles)
    /// Connection handles are 12 bits (Core v5.4 Vol 4 Part E §5.4.2).
    private static let handles = 0x1000

    var count: Int { all.count }

    subscript(link: LinkID) -> LiveConnection? {
        guard let index = Self.tableIndex(link) else { return all[link] }
        return byHandle[index]?.takeUnretainedValue()
    }

    /// The connection of `link`, unretained: valid while it stays live (until `remove`).
    func unretained(_ link: LinkID) -> Unmanaged<LiveConnection>? {
        guard let index = Self.tableIndex(link) else { return all[link].map { Unmanaged.passUnretained($0) } }
        return byHandle[index]
    }

    /// Whether `link` is live, read without taking a reference (checked on every ACL packet).
    func contains(_ link: LinkID) -> Bool {
        guard let index = Self.tableIndex(link) else { return all[link] != nil }
        return byHandle[index] != nil
    }

    mutating func insert(_ conn: LiveConnection, for link: LinkID) {
        all[link] = conn
        if let index = Self.tableIndex(link) { byHandle[index] = Unmanaged.passUnretained(conn) }
    }

    #if DEBUG
    /// Set while a connection is lent unretained (`unretained`): removing one then could free it
    /// under its borrower.
    var lending = false
    #endif

    mutating func remove(_ link: LinkID) -> LiveConnection? {
        #if DEBUG
        assert(!lending, "a live connection removed while one is lent unretained")
        #endif
        if let index = Self.tableIndex(link) { byHandle[index] = nil }
        return all.removeValue(forKey: link)
    }

    private static func tableIndex(_ link: LinkID) -> Int? {
        guard case .hci(let adapter, let handle) = link, handle < handles else { return nil }
        switch adapter {
        case nil: return Int(handle)
        case 0?: return handles + Int(handle)
        default: return nil
        }
    }
}

/// The start fragment of an ATT PDU longer than it (Core v5.4 Vol 6 Part B §2.4: LLID 10 starts an
/// L2CAP PDU, whose basic header gives its length): what it shows before the rest arrives.
struct ATTStart {
    var record: Int
    var opcode: ATTOpcode
    /// Bytes of the L2CAP PDU the fragment carried, and the whole PDU's, basic header included.
    var receivedBytes: Int
    var pduBytes: Int

    /// The start `bytes` (a start fragment's L2CAP bytes) make on the ATT channel; nil for a whole
    /// PDU, another channel, or too few bytes to show an opcode.
    init?(record: Int, bytes: [UInt8]) {
        guard let (header, first) = L2CAPBasicHeader.announced(byStart: bytes), header.channelID == .attribute,
              let first else { return nil }
        self.record = record
        opcode = ATTOpcode(rawValue: first)
        receivedBytes = bytes.count
        pduBytes = header.pduByteCount
    }
}
