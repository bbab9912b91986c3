import BLEBase
import Sessions
import VendorDecoding

/// What became of a profile in a capture (the report's `profiles[]`): the devices and connections
/// it decoded, and, when it decoded nothing, why not, from what the capture showed.
public struct ProfileUse: Sendable, Equatable {
    public var name: String
    public var devices: Int
    public var connections: [String]
    public var frames: Int
    /// Nil when it decoded frames.
    public var why: String?

    /// Works out why a profile decoded nothing: the criteria no device showed, or the
    /// connections it matched without a frame on its channels.
    static func make(_ profile: Profile, devices: Int, connections: [String], frames: Int, report: SessionReport) -> ProfileUse {
        var use = ProfileUse(name: profile.name, devices: devices, connections: connections, frames: frames, why: nil)
        guard frames == 0 else { return use }
        if !connections.isEmpty {
            let shown = connections.prefix(6).joined(separator: ", ") + (connections.count > 6 ? ", …" : "")
            use.why = "matched \(shown) but found no frames on its channels"
            return use
        }
        let connected = report.devices.filter { !$0.connectionIDs.isEmpty }
        var reasons: [String] = []
        let match = profile.match
        func seen(_ test: (Device) -> Bool) -> String {
            connected.contains(where: test) ? "" : report.devices.contains(where: test) ? " by a connected device" : ""
        }
        if let company = match.companyID, !connected.contains(where: { $0.companyIDs.contains(company) }) {
            reasons.append("company \(Hex.code(company, width: 4)) never advertised" + seen { $0.companyIDs.contains(company) })
        }
        if let rule = match.name, !connected.contains(where: { $0.names.contains(where: rule.matches) }) {
            reasons.append("no advertised name matches" + seen { $0.names.contains(where: rule.matches) })
        }
        if let uuid = match.advertisedService, !connected.contains(where: { $0.serviceUUIDs.contains(uuid) }) {
            reasons.append("service \(uuid) never advertised" + seen { $0.serviceUUIDs.contains(uuid) })
        }
        if let uuid = match.gattService,
           !connected.contains(where: { $0.gatt.contains { $0.kind == .service && $0.uuid == uuid } }) {
            reasons.append("service \(uuid) never discovered")
        }
        if reasons.isEmpty { reasons.append("no connected device shows every criterion at once") }
        use.why = "matched no connection: " + reasons.joined(separator: "; ")
        return use
    }
}
