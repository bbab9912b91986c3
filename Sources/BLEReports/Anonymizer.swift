import BLEAnalysis
import BLEBase
import BLESessions

/// Pseudonyms for what identifies a device (addresses, identities, names), so a report can be
/// pasted into a public tracker. One mapping per analysis: the same original always gets the
/// same pseudonym, in the model's fields and inside free text (failure summaries, vendor notes),
/// so every output format agrees. Attribute values and vendor payload bytes are not rewritten.
public struct Anonymizer: Sendable {
    /// Original → pseudonym, in order of first appearance.
    public private(set) var addresses: [(original: BluetoothAddress, pseudonym: BluetoothAddress)] = []
    public private(set) var names: [(original: String, pseudonym: String)] = []
    public private(set) var identities: [(original: String, pseudonym: String)] = []
    private var addressMap: [BluetoothAddress: BluetoothAddress] = [:]
    /// Text replacements, longest original first so a name inside a longer one is not split.
    private var replacements: [(original: String, pseudonym: String)] = []

    /// Names shorter than this are replaced in their own fields but not searched for in free
    /// text, where they would match inside ordinary words.
    static let shortestNameInText = 3

    public init(_ analysis: Analysis) {
        let report = analysis.report
        for device in report.devices {
            for address in device.addresses {
                pseudonym(for: address.address, random: address.type != .publicAddress && address.type != .publicIdentity)
            }
            for name in device.names where !names.contains(where: { $0.original == name }) {
                names.append((name, "Name-\(names.count + 1)"))
            }
            if let identity = device.identity?.value, !identities.contains(where: { $0.original == identity }) {
                identities.append((identity, "Identity-\(identities.count + 1)"))
            }
        }
        for connection in report.connections {
            if let peer = connection.peerAddress { pseudonym(for: peer, random: connection.peerAddressType?.isRandom ?? false) }
            // Over the air the central is named too (CONNECT_IND's InitA), often a phone seen nowhere else.
            if let central = connection.centralAddress {
                pseudonym(for: central, random: connection.centralAddressType?.isRandom ?? false)
            }
        }
        for attempt in report.attempts { if let peer = attempt.peerAddress { pseudonym(for: peer, random: false) } }
        var texts: [(String, String)] = []
        for (original, pseudonym) in addresses {
            texts.append((original.description, pseudonym.description))
            texts.append((original.description.lowercased(), pseudonym.description))
        }
        texts += identities.map { ($0.original, $0.pseudonym) }
        texts += names.filter { $0.original.count >= Self.shortestNameInText }.map { ($0.original, $0.pseudonym) }
        replacements = texts.filter { !$0.0.isEmpty }.sorted { $0.0.count > $1.0.count }
    }

    /// Numbers addresses in order; a random address keeps its two most significant bits (its
    /// sub-type, Core v5.4 Vol 6 Part B §1.3.2): `40:00:00:00:00:01` for a resolvable private one.
    private mutating func pseudonym(for address: BluetoothAddress, random: Bool) {
        guard addressMap[address] == nil else { return }
        let subType = random ? address.value & 0xC000_0000_0000 : 0
        let pseudonym = BluetoothAddress(value: subType | UInt64(addresses.count + 1))
        addressMap[address] = pseudonym
        addresses.append((address, pseudonym))
    }

    public func address(_ address: BluetoothAddress) -> BluetoothAddress { addressMap[address] ?? address }

    /// Replaces every original in `text`, in one left-to-right pass (a pseudonym is never
    /// rewritten again).
    public func scrub(_ text: String) -> String {
        guard replacements.contains(where: { text.contains($0.original) }) else { return text }
        var out = ""
        var rest = Substring(text)
        while let first = rest.first {
            if let hit = replacements.first(where: { rest.hasPrefix($0.original) }) {
                out += hit.pseudonym
                rest = rest.dropFirst(hit.original.count)
            } else {
                out.append(first)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    public func apply(to analysis: Analysis) -> Analysis {
        var out = analysis
        out.info.path = scrub(analysis.info.path)
        out.report.devices = analysis.report.devices.map { device in
            var device = device
            device.addresses = device.addresses.map { var a = $0; a.address = address(a.address); return a }
            device.names = device.names.map { name in names.first { $0.original == name }?.pseudonym ?? name }
            device.identity = device.identity.map { DeviceIdentity(value: scrub($0.value), source: scrub($0.source)) }
            return device
        }
        out.report.connections = analysis.report.connections.map { connection in
            var connection = connection
            connection.peerAddress = connection.peerAddress.map(address)
            connection.centralAddress = connection.centralAddress.map(address)
            return connection
        }
        out.report.attempts = analysis.report.attempts.map { attempt in
            var attempt = attempt
            attempt.peerAddress = attempt.peerAddress.map(address)
            return attempt
        }
        func scrubbed(_ failure: Failure) -> Failure {
            var failure = failure
            failure.summary = scrub(failure.summary)
            failure.details = failure.details.map { Field($0.name, scrub($0.value), display: $0.display.map(scrub)) }
            return failure
        }
        out.report.failures = analysis.report.failures.map(scrubbed)
        out.report.notices = analysis.report.notices.map(scrubbed)
        // A command's line is made of these parts when it is read (`VendorCommandEvent.summary`).
        out.vendorCommands = analysis.vendorCommands.map { command in
            var command = command
            command.name = scrub(command.name)
            command.problem = command.problem.map(scrub)
            command.run = command.run.map {
                VendorCommandEvent.Run(endUs: $0.endUs, count: $0.count, failed: $0.failed, summary: scrub($0.summary))
            }
            return command
        }
        return out
    }

    func scrub(_ value: FieldValue) -> FieldValue {
        switch value {
        case .string(let text): .string(scrub(text))
        case .address(let a): .address(address(a))
        case .list(let items): .list(items.map(scrub))
        case .object(let fields): .object(fields.map { Field($0.name, scrub($0.value), display: $0.display.map(scrub)) })
        default: value
        }
    }

    /// `{"addresses": {"40:00:00:00:00:01": "6B:30:F9:0E:C7:DD", …}, "names": {…}, "identities": {…}}`:
    /// pseudonym → original, for the reporter to keep.
    public func mappingJSON() -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("addresses")
        json.beginObject()
        for (original, pseudonym) in addresses { json.dynamicKey(pseudonym.description); json.string(original.description) }
        json.endObject()
        for (key, list) in [("names", names), ("identities", identities)] {
            json.dynamicKey(key)
            json.beginObject()
            for (original, pseudonym) in list { json.dynamicKey(pseudonym); json.string(original) }
            json.endObject()
        }
        json.endObject()
        return json.bytes
    }
}
