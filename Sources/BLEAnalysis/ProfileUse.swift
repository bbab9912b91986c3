import BLEBase
import BLESessions
import BLEVendorDecoding

/// What became of a profile in a capture (the report's `profiles[]`): the devices and connections
/// it decoded, and, when it decoded nothing, why not, from what the capture showed.
public struct ProfileUse: Sendable, Equatable {
    public var name: String
    public var devices: Int
    public var connections: [ConnectionID]
    public var frames: Int
    /// Nil when it decoded frames.
    public var why: String?

    /// Works out why a profile decoded nothing: per criterion of its match rule, the connections
    /// where it held, or that it held nowhere and where the others did; or the connections it
    /// matched without a frame on its channels.
    static func make(_ profile: Profile, devices: Int, connections: [ConnectionID], frames: Int, report: SessionReport) -> ProfileUse {
        var use = ProfileUse(name: profile.name, devices: devices, connections: connections, frames: frames, why: nil)
        guard frames == 0 else { return use }
        if !connections.isEmpty {
            use.why = "matched \(list(connections)) but found no frames on its channels"
            return use
        }
        // Per criterion, on every connection (one begun before the capture with no device known
        // too): where it held, and where it did not although others did (the partial evidence).
        let devicesByID = Dictionary(report.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let links = report.connections.map { c in (id: c.id, device: c.deviceID.flatMap { devicesByID[$0] }, gatt: c.gatt) }
        typealias Link = (id: ConnectionID, device: Device?, gatt: [GATTAttribute])
        let match = profile.match
        var criteria: [(holds: (Link) -> Bool, what: String, held: String, missing: String, anyDevice: (Device) -> Bool)] = []
        if let company = match.companyID {
            let test = { (d: Device) in d.companyIDs.contains(company) }
            criteria.append(({ $0.device.map(test) ?? false }, "company \(Hex.code(company, width: 4))", "advertised by the device of",
                             "company \(Hex.code(company, width: 4)) never advertised", test))
        }
        if let rule = match.name {
            let test = { (d: Device) in d.names.contains(where: rule.matches) }
            criteria.append(({ $0.device.map(test) ?? false }, "a matching name", "advertised by the device of",
                             "no advertised name matches", test))
        }
        if let uuid = match.advertisedService {
            let test = { (d: Device) in d.serviceUUIDs.contains(uuid) }
            criteria.append(({ $0.device.map(test) ?? false }, "service \(uuid)", "advertised by the device of",
                             "service \(uuid) never advertised", test))
        }
        if let uuid = match.gattService {
            let discovered = { (gatt: [GATTAttribute]) in gatt.contains { $0.kind == .service && $0.uuid == uuid } }
            criteria.append(({ discovered($0.device?.gatt ?? $0.gatt) }, "service \(uuid)", "discovered on",
                             "service \(uuid) never discovered", { discovered($0.gatt) }))
        }
        let partial = links.filter { link in criteria.contains { $0.holds(link) } }.map(\.id)
        var reasons: [String] = []
        for criterion in criteria {
            let held = links.filter(criterion.holds).map(\.id)
            if !held.isEmpty {
                reasons.append("\(criterion.what) \(criterion.held) \(list(held))")
                continue
            }
            // Said where the other criteria held; else whether devices never connected showed it.
            var missing = criterion.missing
            if !partial.isEmpty {
                missing += (criterion.held == "discovered on" ? " on " : " by the device of ") + list(partial)
            } else if criterion.held != "discovered on", report.devices.contains(where: criterion.anyDevice) {
                missing += " by a connected device"
            }
            reasons.append(missing)
        }
        if reasons.isEmpty || criteria.allSatisfy({ c in links.contains(where: c.holds) }) {
            reasons.append("no connection shows every criterion at once")
        }
        use.why = "matched no connection: " + reasons.joined(separator: "; ")
        return use
    }

    /// `C1, C2, …`: at most six ids, and an ellipsis for the rest.
    private static func list(_ ids: [ConnectionID]) -> String {
        ids.prefix(6).map(\.description).joined(separator: ", ") + (ids.count > 6 ? ", …" : "")
    }
}
