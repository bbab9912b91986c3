import BLEBase
import BLEHCI
import BLESessions
import BLEVendorDecoding

/// Runs vendor decoders over the ATT values the session analysis hands up: one `VendorSession`
/// per connection whose device a profile matches (by its advertising, or by a GATT service
/// discovered on the link, or a profile with no match rule, which applies everywhere).
public struct VendorLayer {
    public enum Listing: String, Sendable, CaseIterable { case all, failed, none }

    /// Frames listed in the report beyond which only failed ones are kept (totals stay exact).
    public static let listingCap = 10_000

    let profiles: [Profile]
    /// The frame plan of each profile (same indices), shared by its sessions.
    private let plans: [FramePlan]
    let listing: Listing
    /// A decoded connection: its session and its frame totals per stream.
    private struct Link {
        var session: VendorSession
        var totals: [(direction: VendorDirection, handle: UInt16, totals: VendorTotals)] = []
        var commandRun = VendorCommandRun()

        init(session: VendorSession) { self.session = session }

        var connection: ConnectionID { session.connection }

        /// Hands one ATT value to the session.
        mutating func take(_ value: consuming ATTValueEvent, keepsPlaintext: Bool, into events: inout VendorCollector) {
            session.updateMTU(value.mtu)
            session.keepsPlaintext = keepsPlaintext
            let (direction, attOpcode, handle, uuid) = (value.hostToDevice ? VendorDirection.hostToDevice : .deviceToHost,
                                                        value.opcode.rawValue, value.handle, value.uuid)
            let (timeUs, record, firstFragment) = (value.timeUs, value.record, (value.firstFragmentRecord, value.firstFragmentUs))
            // The bytes move on last, so that nothing read after them needs a copy of the event.
            session.value(direction: direction, attOpcode: attOpcode, handle: handle, uuid: uuid, bytes: (consume value).value,
                          timeUs: timeUs, record: record, firstFragment: firstFragment, into: &events)
        }
    }

    /// The links of the connections open now (a handful), found by connection id.
    private var links: [Link] = []
    /// The connection of the latest value and where its link is, nil for one in `unmatched`
    /// (values come in runs per connection). Reset when `links` changes.
    private var lastLink: (connection: ConnectionID, index: Int?)?
    /// Connections no profile applies to.
    private var unmatched: Set<ConnectionID> = []
    /// Connections no profile matches yet but one may (`PendingLink`).
    private var pending: [ConnectionID: PendingLink] = [:]
    /// Bytes the pending connections hold, together (values and a fixed cost per value).
    private var heldBytes = 0
    /// Values a pending connection holds at most, and bytes all of them hold together.
    public static let maxHeldValuesPerConnection = 4096
    public static let maxHeldBytes = 4 << 20
    /// Said where held values were dropped past the bound, or a match came from the whole capture.
    public private(set) var notes: [String] = []
    /// Profiles the user applied to connections or devices by name (`--apply PROFILE=C3`).
    private let assignments: [(profile: Int, target: ProfileTarget)]
    /// Per profile (same indices): the connections and devices it decoded, and their frames.
    public private(set) var profileConnections: [[ConnectionID]]
    public private(set) var profileDevices: [Set<DeviceID>]
    public private(set) var profileFrames: [Int]
    /// The profile decoding each connection, for its frames' count.
    private var profileOfConnection: [ConnectionID: Int] = [:]
    /// The devices of the open connections (`SessionEvent.device`).
    private var connectionDevices: [ConnectionID: ConnectionDevice] = [:]
    /// `verify`'s rows, in the order their links ended: a list, as each is written once and read
    /// in key order at the end (`takeTotals`); a dictionary of a row per connection, direction and
    /// characteristic would take about twice the memory, and more while it grows.
    private var totals: [(key: VendorTotalsKey, value: VendorTotals)] = []
    /// The sessions' frames and failures, counted and listed.
    private var collector: VendorCollector
    /// Devices and connections several profiles match (`ProfileConflicts`).
    public let conflicts: ProfileConflicts

    /// The listed frames, moved out (the layer keeps none): the report's copy is then the only one.
    mutating func takeFrames() -> [VendorFrame] { collector.takeFrames() }

    /// `verify`'s rows in key order, moved out; a key met twice keeps its last totals.
    mutating func takeTotals() -> [(key: VendorTotalsKey, value: VendorTotals)] {
        var rows = totals
        totals = []
        KeyedList.sortKeepingLast(&rows)
        return rows
    }
    public var failures: [Failure] { collector.failures }
    public var commands: [VendorCommandEvent] { collector.commands }
    public var listingCapped: Bool { collector.listingCapped }
    /// Runs of failures long enough to be one line (`VendorFailureRun`).
    public var failureRuns: [VendorFailureRun] { collector.failureRuns.closed }
    /// Failures counted but not listed (past the per-kind cap).
    public var suppressedFailures: [FailureKind: Int] { collector.suppressedFailures }

    /// `keepsCommands` false when nobody will read `commands` (the JSON report does not): one
    /// fewer list that grows with the capture.
    public init(profiles: [Profile], listing: Listing = .all, keepsCommands: Bool = true,
                conflicts: ProfileConflicts = ProfileConflicts(), assignments: [(profile: String, target: ProfileTarget)] = []) {
        self.profiles = profiles
        self.conflicts = conflicts
        self.assignments = assignments.compactMap { a in profiles.firstIndex { $0.name == a.profile }.map { ($0, a.target) } }
        profileConnections = Array(repeating: [], count: profiles.count)
        profileDevices = Array(repeating: [], count: profiles.count)
        profileFrames = Array(repeating: 0, count: profiles.count)
        plans = profiles.map(FramePlan.init)
        self.listing = listing
        collector = VendorCollector(listing: listing, keepsCommands: keepsCommands)
    }

    /// A classifier for the session analysis: identity and profile from advertising data.
    /// Several profiles matching one advertisement are recorded in `conflicts`.
    public static func classifier(for profiles: [Profile], conflicts: ProfileConflicts? = nil)
        -> (@Sendable (AdvertisingData) -> DeviceClassification?)? {
        guard !profiles.isEmpty else { return nil }
        return { data in
            let facts = AdvertisementFacts(data)
            // The GATT service rule is checked on the link, once discovery has been seen.
            func fits(_ profile: Profile) -> Bool {
                profile.match.hasAdvertisingRule && profile.matches(facts, gattServices: profile.match.gattService.map { [$0] } ?? [])
            }
            guard let first = profiles.firstIndex(where: fits) else { return nil }
            let profile = profiles[first]
            if let conflicts, profiles.count > first + 1 {
                let others = profiles[(first + 1)...].filter(fits).map(\.name).filter { $0 != profile.name }
                if !others.isEmpty {
                    let what = facts.localName.map { "the advertising of \(TerminalText.quoted($0))" } ?? "one device's advertising"
                    conflicts.record(winner: profile.name, others: others, what: what)
                }
            }
            let identity = profile.identity(from: facts).map { BLESessions.DeviceIdentity(value: $0.value, source: "profile \(profile.name): \($0.source)") }
            return DeviceClassification(identity: identity, profile: profile.name)
        }
    }

    public mutating func handle(_ event: consuming SessionEvent) {
        guard !profiles.isEmpty else { return }
        // Consumed: the value's bytes move on instead of being retained and released.
        switch consume event {
        case .device(let device):
            connectionDevices[device.connection] = device
            if pending[device.connection] != nil {
                pending[device.connection]?.device = device
                if let chosen = choose(device) { decide(device.connection, profile: chosen, facts: nil) }
            }
        case .attValue(let value):
            // Links change in place (`links[index]`): a copy would copy their assemblers and
            // held frames on write.
            guard let index = link(for: value) else {
                if pending[value.connection] != nil, mayCarryFrames(value) { hold(.value(value), of: value.connection) }
                return
            }
            take(value, link: index)
        case .writeResponse(let connection, let timeUs):
            guard let index = index(of: connection) else {
                // Only what acknowledges a held Write Request matters to a session.
                if case .value(let last)? = pending[connection]?.held.last, last.opcode.rawValue == 0x12 {
                    hold(.writeResponse(timeUs), of: connection)
                }
                return
            }
            collect(link: index) { $0.session.writeResponse(timeUs: timeUs, into: &$1) }
        case .connectionEnded(let connection, let timeUs):
            connectionDevices[connection] = nil
            if pending[connection] != nil {
                // Held to the end of the capture: what it shows later (a scan response) may match it.
                pending[connection]?.held.append(.ended(timeUs))
                return
            }
            guard let index = index(of: connection) else { return }
            end(link: index, timeUs: timeUs)
        }
    }

    /// The link at `index` went down.
    private mutating func end(link index: Int, timeUs: Int64) {
            collect(link: index) {
                $0.session.linkDown(timeUs: timeUs, into: &$1)
                $1.closeCommandRun(connection: $0.connection)
            }
            addTotals(of: links[index])
            // The last link takes its place (their order matters nowhere: `finish` sorts), so
            // the links after it are not moved one by one.
            links.swapAt(index, links.count - 1)
            links.removeLast()
            lastLink = nil
    }

    /// Ends the analysis: connections still pending are decided on what the whole capture showed
    /// of their devices (`devices`, by connection id: names, company ids, advertised and
    /// discovered services), their held values decoded; then every link ends.
    /// The connections no profile matched yet, whose devices `finish` looks at whole.
    var unmatchedConnections: Dictionary<ConnectionID, PendingLink>.Keys { pending.keys }

    public mutating func finish(endUs: Int64, devices: [ConnectionID: Device] = [:]) {
        for connection in pending.keys.sorted() {
            guard let entry = pending[connection] else { continue }
            let device = devices[connection]
            if let chosen = assigned(connection: connection, deviceID: device?.id ?? entry.device.deviceID)
                ?? profiles.indices.first(where: { profiles[$0].matches(wholeCapture: device) }) {
                decide(connection, profile: chosen, facts: device)
            }
        }
        pending.removeAll()
        for index in links.indices.sorted(by: { links[$0].connection < links[$1].connection }) {
            collect(link: index) {
                $0.session.finish(timeUs: endUs, into: &$1)
                $1.closeCommandRun(connection: $0.connection)
            }
            addTotals(of: links[index])
        }
        links.removeAll()
        lastLink = nil
    }

    /// Where the link of a connection is in `links`.
    private mutating func index(of connection: ConnectionID) -> Int? {
        if let lastLink, lastLink.connection == connection { return lastLink.index }
        guard let index = links.firstIndex(where: { $0.connection == connection }) else { return nil }
        lastLink = (connection, index)
        return index
    }

    /// Where the link of a connection is in `links`, created on its first value once a
    /// profile applies.
    private mutating func link(for value: ATTValueEvent) -> Int? {
        let connection = value.connection
        if let lastLink, lastLink.connection == connection { return lastLink.index }
        if let existing = index(of: connection) { return existing }
        if unmatched.contains(connection) {
            lastLink = (connection, nil)
            return nil
        }
        if pending[connection] != nil { return nil }
        guard let device = connectionDevices[connection] else { return nil }
        guard let chosen = choose(device) else {
            // Discovery showed every profile's service missing: decided. Otherwise undecided,
            // held until something the capture shows matches it, or its end.
            if assignments.isEmpty, profiles.allSatisfy({ $0.match.gattService.map { s in !device.services.isEmpty && !device.services.contains(s) } ?? false }) {
                unmatched.insert(connection)
                lastLink = (connection, nil)
            } else {
                pending[connection] = PendingLink(device: device)
            }
            return nil
        }
        return makeLink(device: device, profile: chosen, mtu: value.mtu)
    }

    /// The profile for a connection's device as known so far: one the user applied, the one its
    /// advertising matched (unless discovery shows the profile's service missing), or one that
    /// matches by GATT service alone.
    private func choose(_ device: ConnectionDevice) -> Int? {
        if let applied = assigned(connection: device.connection, deviceID: device.deviceID) { return applied }
        let services = device.services
        let advertised = device.profile.flatMap { name in profiles.firstIndex { $0.name == name } }.flatMap { i in
            // A device matched by its advertising whose discovered services lack the profile's one is not it.
            services.isEmpty || profiles[i].match.gattService.map(services.contains) != false ? i : nil
        }
        let byService = profiles.indices.filter {
            !profiles[$0].match.hasAdvertisingRule && profiles[$0].matches(AdvertisementFacts(), gattServices: services)
        }
        let chosen = advertised ?? byService.first
        if let chosen {
            let others = byService.filter { $0 != chosen }.map { profiles[$0].name }.filter { $0 != profiles[chosen].name }
            conflicts.record(winner: profiles[chosen].name, others: others, what: "connection \(device.connection)")
        }
        return chosen
    }

    /// The profile the user applied to this connection or device, if any.
    private func assigned(connection: ConnectionID, deviceID: DeviceID?) -> Int? {
        assignments.first { assignment in
            switch assignment.target {
            case .connection(let id): id == connection
            case .device(let id): id == deviceID
            }
        }?.profile
    }

    /// A link for the connection, decoded with `profile` from now on.
    private mutating func makeLink(device: ConnectionDevice, profile chosen: Int, mtu: Int) -> Int {
        let connection = device.connection
        if let id = device.deviceID { collector.devices[connection] = id }
        links.append(Link(session: VendorSession(plan: plans[chosen], connection: connection, mtu: mtu)))
        profileConnections[chosen].append(connection)
        if let id = device.deviceID { profileDevices[chosen].insert(id) }
        profileOfConnection[connection] = chosen
        lastLink = (connection, links.count - 1)
        return links.count - 1
    }

    /// True when some profile's channel may carry this value (its UUID unknown yet counts).
    private func mayCarryFrames(_ value: ATTValueEvent) -> Bool {
        let direction: VendorDirection = value.hostToDevice ? .hostToDevice : .deviceToHost
        return profiles.contains { profile in
            profile.channels.contains { channel in
                guard channel.direction == direction, channel.attOpcodes.contains(value.opcode.rawValue) else { return false }
                switch channel.characteristic {
                case .uuid(let u): return value.uuid == nil || value.uuid == u
                case .handle(let h): return value.handle == h
                }
            }
        }
    }

    /// Holds what a pending connection's link saw, within the bounds.
    private mutating func hold(_ event: PendingLink.Held, of connection: ConnectionID) {
        let cost: Int
        switch event {
        case .value(let value): cost = value.value.count + PendingLink.costPerValue
        default: cost = PendingLink.costPerValue
        }
        guard let count = pending[connection]?.held.count, count < Self.maxHeldValuesPerConnection,
              heldBytes + cost <= Self.maxHeldBytes else {
            pending[connection]?.notHeld += 1
            return
        }
        heldBytes += cost
        if case .value(var value) = event {
            // Its own bytes: a view would keep its record's whole batch alive while it waits.
            value.value = value.value.compacted
            pending[connection]?.held.append(.value(value))
        } else {
            pending[connection]?.held.append(event)
        }
    }

    /// A pending connection matched `profile`: a link is made and what it held is decoded.
    private mutating func decide(_ connection: ConnectionID, profile chosen: Int, facts: Device?) {
        guard let entry = pending.removeValue(forKey: connection) else { return }
        var device = entry.device
        if device.deviceID == nil { device.deviceID = facts?.id }
        let firstMTU = entry.held.lazy.compactMap { if case .value(let v) = $0 { v.mtu } else { nil } }.first ?? 23
        _ = makeLink(device: device, profile: chosen, mtu: firstMTU)
        if entry.notHeld > 0 {
            notes.append("\(connection): \(entry.notHeld) ATT value(s) not held while its profile match was pending "
                         + "(at most \(Self.maxHeldValuesPerConnection) per connection, \(Self.maxHeldBytes >> 20) MiB in all): "
                         + "frames among them are not decoded")
        }
        if facts != nil {
            notes.append("\(connection): profile '\(profiles[chosen].name)' matched on what the whole capture showed of "
                         + "its device; its values were held and decoded at the end")
        }
        for event in entry.held {
            lastLink = nil
            guard let link = index(of: connection) else { break }
            switch event {
            case .value(var value):
                heldBytes -= value.value.count + PendingLink.costPerValue
                // The attribute's UUID, when discovery came only after the value.
                if value.uuid == nil, let facts { value.uuid = facts.gatt.first { $0.handle == value.handle }?.uuid }
                take(value, link: link)
            case .writeResponse(let timeUs):
                heldBytes -= PendingLink.costPerValue
                collect(link: link) { $0.session.writeResponse(timeUs: timeUs, into: &$1) }
            case .ended(let timeUs):
                heldBytes -= PendingLink.costPerValue
                end(link: link, timeUs: timeUs)
            }
        }
    }

    /// Runs `body` on the link at `index` with the collector taking its session's events, the
    /// link's stream totals and run of commands in the collector meanwhile; then gives the frames
    /// it listed without their plaintext that plaintext, from the session.
    private mutating func collect(link index: Int, _ body: (inout Link, inout VendorCollector) -> Void) {
        exchangeRunningState(withLink: index)
        body(&links[index], &collector)
        collected(link: index)
    }

    /// `collect` for one ATT value, which moves into the session: captured by a closure, it would
    /// be copied (retaining its bytes) and destroyed once more.
    private mutating func take(_ value: consuming ATTValueEvent, link index: Int) {
        let keepsPlaintext = listing == .all && collector.frames.count < Self.listingCap
        exchangeRunningState(withLink: index)
        // One access to the link for the whole value (each access checks its uniqueness).
        links[index].take(value, keepsPlaintext: keepsPlaintext, into: &collector)
        collected(link: index)
    }

    /// The second half of `collect`: the link's totals and commands back in place, and the
    /// plaintext of the frames listed without it.
    private mutating func collected(link index: Int) {
        exchangeRunningState(withLink: index)
        guard !collector.framesWithoutPlaintext.isEmpty else { return }
        for frame in collector.framesWithoutPlaintext {
            collector.restorePlaintext(at: frame, from: links[index].session)
        }
        collector.framesWithoutPlaintext.removeAll(keepingCapacity: true)
    }

    /// Puts the link's stream totals and run of commands in the collector, or back: swapped, not
    /// copied, so that neither is copied on its next change. Always inlined: called, it costs a
    /// call per ATT value.
    @inline(__always)
    private mutating func exchangeRunningState(withLink index: Int) {
        swap(&collector.streamTotals, &links[index].totals)
        swap(&collector.commandRun, &links[index].commandRun)
    }

    private mutating func addTotals(of link: Link) {
        for (direction, handle, counted) in link.totals {
            if let profile = profileOfConnection[link.connection] { profileFrames[profile] += counted.frames }
            var total = counted
            total.device = collector.devices[link.connection]
            totals.append((VendorTotalsKey(connection: link.connection, direction: direction.rawValue, handle: handle), total))
        }
    }
}

extension AdvertisementFacts {
    /// The facts a profile's match and identity rules read, from decoded advertising data.
    init(_ data: AdvertisingData) {
        self.init(localName: data.localName,
                  manufacturerData: data.manufacturerData.map { ManufacturerData(companyID: $0.0, data: $0.1) },
                  serviceData: data.serviceData.map { ServiceData(uuid: $0.0, data: $0.1) },
                  serviceUUIDs: data.serviceUUIDs)
    }
}

extension MatchRule {
    /// True when the rule looks at advertising (company, name, advertised service).
    var hasAdvertisingRule: Bool { companyID != nil || name != nil || advertisedService != nil }
}

/// A connection no profile matches yet: what its link showed, held (bounded) to be decoded once
/// one matches.
struct PendingLink {
    enum Held {
        case value(ATTValueEvent)
        case writeResponse(Int64)
        case ended(Int64)
    }

    /// What a held event counts for in `VendorLayer.maxHeldBytes` besides its value's bytes.
    static let costPerValue = 96

    var device: ConnectionDevice
    var held: [Held] = []
    /// Values past the bounds, not held.
    var notHeld = 0
}

extension Profile {
    /// True when the rule holds on what the whole capture showed of a device: any of its names,
    /// its company identifiers and advertised services, its discovered services.
    func matches(wholeCapture device: Device?) -> Bool {
        guard let device else { return false }
        let services = device.gatt.filter { $0.kind == .service }.map(\.uuid)
        let facts = AdvertisementFacts(localName: nil,
                                       manufacturerData: device.companyIDs.map { .init(companyID: $0, data: []) },
                                       serviceUUIDs: device.serviceUUIDs)
        let names: [String?] = device.names.isEmpty ? [nil] : device.names.map(Optional.some)
        return names.contains { name in
            var named = facts
            named.localName = name
            return matches(named, gattServices: services)
        }
    }
}
