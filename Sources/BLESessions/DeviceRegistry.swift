import BLEBase
import BLEHCI

/// Every address seen (advertisers and connection peers) and which of them belong to one device.
///
/// Addresses are merged with a union-find: an SMP Identity Address Information PDU, an Enhanced
/// Connection Complete's peer RPA next to the identity address, or an identity a vendor profile
/// extracts from advertising data ties them to one device.
struct DeviceRegistry {
    struct AddressState {
        var address: BluetoothAddress
        var type: AddressType
        var order: Int
        var advertisements = 0
        var scanResponses = 0
        var rssi = RSSIHistogram()
        var firstSeenUs: Int64?
        var lastSeenUs: Int64?
        var names: [String] = []
        var companyIDs: [UInt16] = []
        var serviceUUIDs: [BluetoothUUID] = []
        var txPower: Int8?
        var identity: DeviceIdentity?
        /// The vendor profile that matched this address's advertising.
        var profile: String?
        var connectionIDs: [ConnectionID] = []
        var bursts = AdvertisingBursts()
        /// The Data bytes of the address's last legacy advertisement and scan response.
        var lastAdvertisingData: [UInt8]?
        var lastScanResponseData: [UInt8]?
    }

    private(set) var states: [AddressState] = []
    /// Changes whenever a device's id or profile may have: a merge or a new profile.
    private(set) var version = 0
    private var index: [BluetoothAddress: Int] = [:]
    private var parent: [Int] = []
    private var byIdentity: [String: Int] = [:]
    /// At most this many names / UUIDs / company ids kept per address (hostile captures).
    static let listCap = 16

    /// The slot for an address, created on first sight.
    mutating func slot(_ address: BluetoothAddress, type: AddressType) -> Int {
        if let existing = index[address] { return existing }
        let slot = states.count
        states.append(AddressState(address: address, type: type, order: slot))
        parent.append(slot)
        index[address] = slot
        return slot
    }

    func existingSlot(_ address: BluetoothAddress) -> Int? { index[address] }

    mutating func root(_ slot: Int) -> Int {
        var node = slot
        while parent[node] != node {
            parent[node] = parent[parent[node]]
            node = parent[node]
        }
        return node
    }

    /// Ties two addresses to one device (the earlier-seen address stays the representative).
    mutating func merge(_ a: Int, _ b: Int) {
        let ra = root(a), rb = root(b)
        guard ra != rb else { return }
        let (kept, joined) = ra < rb ? (ra, rb) : (rb, ra)
        parent[joined] = kept
        version += 1
        if states[kept].profile == nil { states[kept].profile = states[joined].profile }
    }

    /// Records an identity for an address and merges it with every address of the same identity.
    mutating func assign(_ identity: DeviceIdentity, to slot: Int) {
        if states[slot].identity == nil { states[slot].identity = identity }
        if let other = byIdentity[identity.value] {
            merge(other, slot)
        } else {
            byIdentity[identity.value] = slot
        }
    }

    /// The address's latest advertising data and scan response data, one after the other (AD
    /// structures, Core v5.4 Vol 3 Part C §11, concatenate).
    func advertisingBytes(of slot: Int) -> [UInt8] {
        (states[slot].lastAdvertisingData ?? []) + (states[slot].lastScanResponseData ?? [])
    }

    mutating func sawAdvertisement(slot: Int, timeUs: Int64, rssi: Int8?, scanResponse: Bool, data: AdvertisingData?) {
        // Changed in place: a copy would copy its RSSI histogram and bursts on write.
        Self.count(timeUs: timeUs, rssi: rssi, scanResponse: scanResponse, data: data, in: &states[slot])
    }

    /// A report (legacy, or extended with its fragments joined): counted, and its Data parsed and
    /// returned only when it differs from the address's last one of the same kind. The same bytes
    /// again would add nothing: what the structures give is kept as a set (names, company ids,
    /// UUIDs) or is the same (TX power).
    mutating func sawAdvertisement(slot: Int, timeUs: Int64, rssi: Int8?, scanResponse: Bool,
                                   dataBytes: ByteReader) -> AdvertisingData? {
        let bytes = dataBytes.unreadBytes
        let last = scanResponse ? states[slot].lastScanResponseData : states[slot].lastAdvertisingData
        if let last, Self.same(last, bytes) {
            Self.count(timeUs: timeUs, rssi: rssi, scanResponse: scanResponse, data: nil, in: &states[slot])
            return nil
        }
        if scanResponse { states[slot].lastScanResponseData = Array(bytes) } else { states[slot].lastAdvertisingData = Array(bytes) }
        var reader = dataBytes
        let data = AdvertisingData(parsing: &reader)
        Self.count(timeUs: timeUs, rssi: rssi, scanResponse: scanResponse, data: data, in: &states[slot])
        return data
    }

    /// Byte by byte by index (`elementsEqual` would go through generic iterators, far slower).
    private static func same(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where a[i] != b[b.startIndex + i] { return false }
        return true
    }

    private static func count(timeUs: Int64, rssi: Int8?, scanResponse: Bool, data: AdvertisingData?,
                              in state: inout AddressState) {
        if scanResponse { state.scanResponses += 1 } else { state.advertisements += 1 }
        let dBm = rssi.flatMap { $0 == 127 ? nil : Int($0) }
        if let dBm { state.rssi.add(dBm) }
        state.bursts.add(timeUs: timeUs, rssi: dBm)
        state.firstSeenUs = min(state.firstSeenUs ?? timeUs, timeUs)
        state.lastSeenUs = max(state.lastSeenUs ?? timeUs, timeUs)
        guard let data else { return }
        // One pass over the structures, with what `localName`, `manufacturerData`,
        // `serviceUUIDs` and `txPower` would give (each of them is a pass, and most build an array).
        var name: String?
        var nameIsComplete = false
        var power: Int8?
        // By index: `for structure in` would copy each structure out (its arrays retained and released).
        for i in data.structures.indices {
            switch data.structures[i].value {
            case .localName(let local):
                if !nameIsComplete && (name == nil || local.isComplete), let unpadded = Self.withoutPadding(local.name) {
                    name = unpadded
                    nameIsComplete = local.isComplete
                }
            case .manufacturerSpecificData(let company, _): Self.append(company, to: &state.companyIDs)
            case .serviceUUIDs(let uuids, _): for uuid in uuids { Self.append(uuid, to: &state.serviceUUIDs) }
            case .txPowerLevel(let dBm): power = power ?? dBm
            default: break
            }
        }
        if let name { Self.append(name, to: &state.names) }
        if let power { state.txPower = power }
    }

    /// A name without the NUL octets some firmware pads its fixed-size name field with (the
    /// rest stays, escaped at the output edge); nil when nothing else is left.
    static func withoutPadding(_ name: String) -> String? {
        guard name.last == "\0" else { return name }
        var trimmed = Substring(name)
        while trimmed.last == "\0" { trimmed = trimmed.dropLast() }
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// A name the capture gave for an address outside its advertising (Remote Name Request
    /// Complete, Extended Inquiry Result).
    mutating func sawName(_ name: String, slot: Int) {
        guard let name = Self.withoutPadding(name) else { return }
        Self.append(String(name.prefix(248)), to: &states[slot].names)
    }

    mutating func sawConnection(slot: Int, id: ConnectionID, timeUs: Int64) {
        Self.append(id, to: &states[slot].connectionIDs)
        states[slot].firstSeenUs = min(states[slot].firstSeenUs ?? timeUs, timeUs)
        states[slot].lastSeenUs = max(states[slot].lastSeenUs ?? timeUs, timeUs)
    }

    /// A connection that turned out to be an attempt no longer belongs to the device.
    mutating func forgetConnection(slot: Int, id: ConnectionID) {
        states[slot].connectionIDs.removeAll { $0 == id }
    }

    static func append<T: Equatable>(_ value: T, to list: inout [T]) {
        if !list.contains(value) && list.count < listCap { list.append(value) }
    }

    /// Records a profile for an address and for its device (the union-find root, which `merge`
    /// keeps informed), so the lookup per ATT value is two reads.
    mutating func setProfile(_ profile: String, of slot: Int) {
        guard states[slot].profile != profile else { return }
        states[slot].profile = profile
        version += 1
        let root = root(slot)
        if states[root].profile == nil { states[root].profile = profile }
    }

    /// The profile matched by any address of the slot's device.
    mutating func profile(of slot: Int) -> String? {
        states[slot].profile ?? states[root(slot)].profile
    }

    /// Device id of a slot: the 1-based order of the device's first address.
    mutating func deviceID(of slot: Int) -> DeviceID { DeviceID(number: root(slot) + 1) }
}

/// RSSI values from −128 to 127 dBm counted in 256 bins: exact median in constant memory.
struct RSSIHistogram {
    private var bins = [UInt32](repeating: 0, count: 256)
    private(set) var count = 0

    mutating func add(_ dBm: Int) {
        bins[max(0, min(255, dBm + 128))] += 1
        count += 1
    }

    mutating func add(_ other: RSSIHistogram) {
        for i in 0..<256 { bins[i] += other.bins[i] }
        count += other.count
    }

    var statistics: RSSIStatistics? {
        guard count > 0, let low = bins.firstIndex(where: { $0 > 0 }), let high = bins.lastIndex(where: { $0 > 0 }) else {
            return nil
        }
        var seen = 0
        var median = low
        for i in low...high {
            seen += Int(bins[i])
            if seen * 2 >= count { median = i; break }
        }
        return RSSIStatistics(min: low - 128, median: median - 128, max: high - 128, count: count)
    }
}
