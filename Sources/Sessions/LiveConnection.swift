import ATT
import CaptureFormats
import PacketDecoding

/// A connection that is up, with what is in flight on it. A class: the handlers change it in
/// place through one reference (a struct in `live` was taken out and put back on every packet).
final class LiveConnection {
    var connection: Connection
    let slot: Int?
    var pending = PendingRequests()
    var disconnectRequested = false
    /// Time of the peripheral's last packet (air captures: answers prove the link is alive).
    var lastPeripheralUs: Int64?
    /// Read Blob / Prepare Write values being joined, per handle (bounded).
    var longValues: [UInt16: [UInt8]] = [:]
    /// The device id of `slot` and the union-find root it was made for (rebuilt when a merge moves the root).
    var device: (root: Int, id: String)?

    /// Unanswered values (commands, notifications) counted per opcode and handle while the link is
    /// up: the first `maxListedCounts` keys in a list searched in order (a link uses a handful,
    /// and hashing a key per packet cost 2 % of the worker), the rest in `connection.valueCounts`,
    /// where `keep` merges the list.
    private var valueCounts: [(key: ValueCountKey, count: Int)] = []
    static let maxListedCounts = 16

    init(connection: Connection, slot: Int?) {
        self.connection = connection
        self.slot = slot
    }

    func countValue(opcode: UInt8, handle: UInt16) {
        let key = ValueCountKey(opcode: opcode, handle: handle)
        for i in valueCounts.indices where valueCounts[i].key == key {
            valueCounts[i].count += 1
            return
        }
        if valueCounts.count < Self.maxListedCounts {
            valueCounts.append((key, 1))
        } else {
            connection.valueCounts[key, default: 0] += 1
        }
    }

    /// The connection as the report keeps it, its value counts complete.
    func ended() -> Connection {
        for (key, count) in valueCounts { connection.valueCounts[key, default: 0] += count }
        valueCounts = []
        return connection
    }
}

struct PendingRequest {
    var pdu: ATTPDU
    var transaction: ATTTransaction
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
    private var byHandle = [LiveConnection?](repeating: nil, count: 2 * handles)
    /// Connection handles are 12 bits (Core v5.4 Vol 4 Part E §5.4.2).
    private static let handles = 0x1000

    var count: Int { all.count }

    subscript(link: LinkID) -> LiveConnection? {
        guard let index = Self.tableIndex(link) else { return all[link] }
        return byHandle[index]
    }

    mutating func insert(_ conn: LiveConnection, for link: LinkID) {
        all[link] = conn
        if let index = Self.tableIndex(link) { byHandle[index] = conn }
    }

    mutating func remove(_ link: LinkID) -> LiveConnection? {
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
