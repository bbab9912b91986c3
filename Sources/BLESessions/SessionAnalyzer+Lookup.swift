import BLEBase
import BLEPacketDecoding

/// Who a link is with, as the analysis knows it at this point of the capture: what a packet
/// listing names on each line and what `--connection`/`--device` select on.
public struct LinkPeer: Sendable, Equatable {
    /// `C2`.
    public var connectionID: ConnectionID
    /// `D3`; nil while the peer's address is unknown (a link seen only from its traffic).
    public var deviceID: DeviceID?
    /// The connection's peer address and its device's first address.
    public var addresses: [BluetoothAddress]
    public var identity: String?
    /// Names the device advertised so far.
    public var names: [String]

    /// The `--device` rule (`DeviceQuery`) on what is known of the peer so far.
    public func matches(device wanted: String) -> Bool {
        DeviceQuery.matches(wanted, id: deviceID, addresses: addresses, identity: identity, names: names)
    }
}

/// What `--device` selects, in the timeline and the packet listing alike: the device's id, one of
/// its addresses or its identity (case-insensitive), or part of one of its names.
public enum DeviceQuery {
    public static func matches(_ wanted: String, id: DeviceID?, addresses: some Sequence<BluetoothAddress>,
                               identity: String?, names: [String]) -> Bool {
        let needle = wanted.lowercased()
        return (id != nil && DeviceID(wanted) == id)
            || addresses.contains { $0.description.lowercased() == needle }
            || identity?.lowercased() == needle
            || names.contains { $0.lowercased().contains(needle) }
    }
}

extension SessionAnalyzer {
    /// The live connection on `link` and its device; nil when no connection is up there.
    public mutating func peer(of link: LinkID) -> LinkPeer? {
        guard let conn = live[link] else { return nil }
        var peer = LinkPeer(connectionID: conn.connection.id, deviceID: deviceID(of: conn),
                            addresses: conn.connection.peerAddress.map { [$0] } ?? [], identity: nil, names: [])
        if let slot = conn.slot {
            let root = registry.root(slot)
            for index in Set([slot, root]).sorted() {
                let state = registry.states[index]
                if !peer.addresses.contains(state.address) { peer.addresses.append(state.address) }
                peer.identity = peer.identity ?? state.identity?.value
                peer.names += state.names
            }
        }
        return peer
    }

    /// The UUID of `handle` in the database of the device on `link`, and the UUID of the
    /// characteristic it belongs to (its value or a descriptor of it), as discovered so far.
    public mutating func attributeUUIDs(on link: LinkID, handle: UInt16) -> [BluetoothUUID] {
        guard let slot = live[link]?.slot else { return [] }
        let database = gatt[registry.root(slot)]
        return [database.uuid(of: handle), database.characteristic(containing: handle)?.uuid].compactMap { $0 }
    }
}
