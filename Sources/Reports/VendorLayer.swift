import BLEBase
import HCI
import Sessions
import VendorDecoding

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
        /// The connection's number (`ATTValueEvent.connectionNumber`).
        let number: Int
        var session: VendorSession
        var totals: [(direction: VendorDirection, handle: UInt16, totals: VendorTotals)] = []

        init(number: Int, session: VendorSession) {
            self.number = number
            self.session = session
        }

        /// Hands one ATT value to the session.
        mutating func take(_ value: ATTValueEvent, keepsPlaintext: Bool, into events: inout [VendorEvent]) {
            session.updateMTU(value.mtu)
            session.keepsPlaintext = keepsPlaintext
            session.value(direction: value.hostToDevice ? .hostToDevice : .deviceToHost, attOpcode: value.opcode.rawValue,
                          handle: value.handle, uuid: value.uuid, bytes: value.value, timeUs: value.timeUs,
                          record: value.record, firstFragment: (value.firstFragmentRecord, value.firstFragmentUs),
                          into: &events)
        }

        /// Counts the frame in the totals of its stream.
        mutating func count(_ frame: VendorFrame) {
            let index = totals.firstIndex { $0.direction == frame.direction && $0.handle == frame.handle } ?? {
                totals.append((frame.direction, frame.handle, VendorTotals()))
                return totals.count - 1
            }()
            totals[index].totals.count(frame)
        }
    }

    /// The links of the connections open now (a handful), found by connection number.
    private var links: [Link] = []
    /// The connection of the latest value and where its link is, nil for one in `unmatched`
    /// (values come in runs per connection). Reset when `links` changes.
    private var lastLink: (number: Int, index: Int?)?
    /// The events of the current session call, kept for their capacity.
    private var events: [VendorEvent] = []
    /// Connections (by number) no profile applies to.
    private var unmatched: Set<Int> = []
    /// The devices of the open connections, by connection number (`SessionEvent.device`).
    private var connectionDevices: [Int: ConnectionDevice] = [:]
    private var devices: [String: String] = [:]
    public private(set) var frames: [VendorFrame] = []
    public private(set) var totals: [VendorTotalsKey: VendorTotals] = [:]
    public private(set) var failures: [Failure] = []
    public private(set) var commands: [VendorCommandEvent] = []
    public private(set) var listingCapped = false
    private var failedFramesListed = 0
    private var failureCounts: [String: Int] = [:]
    /// Failures counted but not listed (past the per-kind cap).
    public private(set) var suppressedFailures: [FailureKind: Int] = [:]

    /// False when nobody will read `commands` (the JSON report does not): one fewer list that
    /// grows with the capture.
    let keepsCommands: Bool

    public init(profiles: [Profile], listing: Listing = .all, keepsCommands: Bool = true) {
        self.profiles = profiles
        plans = profiles.map(FramePlan.init)
        self.listing = listing
        self.keepsCommands = keepsCommands
    }

    /// A classifier for the session analysis: identity and profile from advertising data.
    public static func classifier(for profiles: [Profile]) -> (@Sendable (AdvertisingData) -> DeviceClassification?)? {
        guard !profiles.isEmpty else { return nil }
        return { data in
            let facts = AdvertisementFacts(data)
            // The GATT service rule is checked on the link, once discovery has been seen.
            guard let profile = profiles.first(where: {
                $0.match.hasAdvertisingRule && $0.matches(facts, gattServices: $0.match.gattService.map { [$0] } ?? [])
            }) else { return nil }
            let identity = profile.identity(from: facts).map { Sessions.DeviceIdentity(value: $0.value, source: "profile \(profile.name): \($0.source)") }
            return DeviceClassification(identity: identity, profile: profile.name)
        }
    }

    public mutating func handle(_ event: consuming SessionEvent) {
        guard !profiles.isEmpty else { return }
        // Consumed: the value's bytes move on instead of being retained and released.
        switch consume event {
        case .device(let device):
            connectionDevices[device.connectionNumber] = device
        case .attValue(let value):
            // Links change in place (`links[index]`): a copy would copy their assemblers and
            // held frames on write.
            guard let index = link(for: value) else { return }
            // One access to the link for the whole value (each access checks its uniqueness).
            links[index].take(value, keepsPlaintext: listing == .all && frames.count < Self.listingCap, into: &events)
            absorbEvents(link: index)
        case .writeResponse(let number, let timeUs):
            guard let index = index(of: number) else { return }
            links[index].session.writeResponse(timeUs: timeUs, into: &events)
            absorbEvents(link: index)
        case .connectionEnded(let connection, let number, let timeUs):
            connectionDevices[number] = nil
            guard let index = index(of: number) else { return }
            events = links[index].session.linkDown(timeUs: timeUs)
            absorbEvents(link: index)
            addTotals(of: links[index], connection: connection)
            // The last link takes its place (their order matters nowhere: `finish` sorts), so
            // the links after it are not moved one by one.
            links.swapAt(index, links.count - 1)
            links.removeLast()
            lastLink = nil
        }
    }

    public mutating func finish(endUs: Int64) {
        for index in links.indices.sorted(by: { links[$0].session.connection < links[$1].session.connection }) {
            events = links[index].session.finish(timeUs: endUs)
            absorbEvents(link: index)
            addTotals(of: links[index], connection: links[index].session.connection)
        }
        links.removeAll()
        lastLink = nil
    }

    /// Where the link of a connection is in `links`.
    private mutating func index(of number: Int) -> Int? {
        if let lastLink, lastLink.number == number { return lastLink.index }
        guard let index = links.firstIndex(where: { $0.number == number }) else { return nil }
        lastLink = (number, index)
        return index
    }

    /// Where the link of a connection is in `links`, created on its first value once a
    /// profile applies.
    private mutating func link(for value: ATTValueEvent) -> Int? {
        if let lastLink, lastLink.number == value.connectionNumber { return lastLink.index }
        if let existing = index(of: value.connectionNumber) { return existing }
        if unmatched.contains(value.connectionNumber) {
            lastLink = (value.connectionNumber, nil)
            return nil
        }
        guard let device = connectionDevices[value.connectionNumber] else { return nil }
        let services = device.services
        let advertised = device.profile.flatMap { name in profiles.firstIndex { $0.name == name } }.flatMap { i in
            // A device matched by its advertising whose discovered services lack the profile's one is not it.
            services.isEmpty || profiles[i].match.gattService.map(services.contains) != false ? i : nil
        }
        let chosen = advertised
            ?? profiles.firstIndex { !$0.match.hasAdvertisingRule && $0.matches(AdvertisementFacts(), gattServices: services) }
        guard let chosen else {
            // Decided once per connection, except before discovery, when a GATT rule may still hold.
            if !profiles.contains(where: { $0.match.gattService != nil }) || !services.isEmpty {
                unmatched.insert(value.connectionNumber)
            }
            return nil
        }
        if let id = device.deviceID { devices[device.connectionID] = id }
        links.append(Link(number: value.connectionNumber,
                          session: VendorSession(plan: plans[chosen], connection: device.connectionID, mtu: value.mtu)))
        lastLink = (value.connectionNumber, links.count - 1)
        return links.count - 1
    }

    /// Counts and collects `events` (those of the link at `index`), then empties them, moving
    /// each out (`Array.drain`) from a list of its own (the body changes `self`).
    private mutating func absorbEvents(link index: Int) {
        var drained: [VendorEvent] = []
        swap(&drained, &events)
        drained.drain(filler: .filler) { absorb($0, link: index) }
        swap(&drained, &events)
    }

    /// Counts one event, and lists it while the listing has room.
    private mutating func absorb(_ event: consuming VendorEvent, link index: Int) {
        switch consume event {
        case .frame(var frame):
            links[index].count(frame)
            let failed = frame.outcome != .ok
            let listed: Bool
            switch listing {
            case .all where frames.count < Self.listingCap: listed = true
            case .all, .failed:
                // Failed frames stay listed, up to the failures' cap (all of them are counted).
                listed = failed && failedFramesListed < SessionAnalyzer.failuresListedPerKind
                if failed && !listed || !failed && listing == .all { listingCapped = true }
                if listed { failedFramesListed += 1 }
            case .none: listed = false
            }
            if listed {
                if frame.plaintext == nil { frame.plaintext = links[index].session.plaintext(of: frame) }
                frames.append(frame)
            }
            if keepsCommands, frame.direction == .hostToDevice || frame.outcome == .unsolicited || frame.outcome == .crcMismatch
                || frame.outcome == .malformed {
                commands.append(commandEvent(frame))
            }
        case .failure(let failure):
            failureCounts[failure.kind.rawValue, default: 0] += 1
            // Listed up to the same cap as the session failures; all are counted.
            guard failureCounts[failure.kind.rawValue, default: 0] <= SessionAnalyzer.failuresListedPerKind else {
                suppressedFailures[FailureKind(rawValue: failure.kind.rawValue), default: 0] += 1
                return
            }
            failures.append(Failure(
                kind: FailureKind(rawValue: failure.kind.rawValue), timeUs: failure.timeUs, record: nil,
                deviceID: devices[failure.connection], connectionID: failure.connection, summary: failure.summary,
                details: [.int("frame", failure.frame), .int("detectedUs", failure.detectedUs)]))
        }
    }

    private mutating func addTotals(of link: Link, connection: String) {
        for (direction, handle, counted) in link.totals {
            var total = counted
            total.device = devices[connection]
            totals[VendorTotalsKey(connection: connection, direction: direction.rawValue, handle: handle)] = total
        }
    }

    private func commandEvent(_ frame: VendorFrame) -> VendorCommandEvent {
        let name = (frame.commandName ?? frame.command.map { "command \(Hex.code($0))" } ?? "frame")
            + (frame.command.map { " (\(Hex.code($0)))" } ?? "")
        let outcome = VendorCommandEvent.Outcome(rawValue: frame.outcome.rawValue) ?? .malformed
        var summary = name + (frame.sequence.map { " seq \(Hex.code($0))" } ?? "")
        switch frame.outcome {
        case .ok: summary += frame.latencyUs.map { " ok in \($0 / 1000) ms" } ?? " ok"
        case .failed: summary += " failed" + (frame.problem.map { ": \($0)" } ?? "")
        case .noResponse: summary += " got no response"
        case .crcMismatch: summary += ": checksum mismatch"
        case .malformed: summary += ": malformed" + (frame.problem.map { " (\($0))" } ?? "")
        case .unsolicited: summary += ": unsolicited"
        }
        return VendorCommandEvent(timeUs: frame.firstTimeUs, record: frame.firstRecord, connectionID: frame.connection,
                                  deviceID: devices[frame.connection], name: name, outcome: outcome,
                                  latencyUs: frame.latencyUs, summary: summary)
    }
}

/// `verify`'s rows: one per connection, direction and characteristic.
public struct VendorTotalsKey: Hashable, Sendable, Comparable {
    public var connection: String
    public var direction: String
    public var handle: UInt16
    public static func < (a: Self, b: Self) -> Bool {
        ((Int(a.connection.dropFirst()) ?? 0), a.direction, a.handle) < ((Int(b.connection.dropFirst()) ?? 0), b.direction, b.handle)
    }
}

public struct VendorTotals: Sendable {
    public var device: String?
    public var frames = 0
    public var checksumGood = 0
    public var checksumBad = 0
    public var malformed = 0
    public var unanswered = 0
    public var failed = 0
    public var unsolicited = 0

    public init(device: String? = nil) { self.device = device }

    mutating func count(_ frame: VendorFrame) {
        frames += 1
        if frame.checksumOK == true { checksumGood += 1 }
        if frame.checksumOK == false { checksumBad += 1 }
        switch frame.outcome {
        case .malformed: malformed += 1
        case .noResponse: unanswered += 1
        case .failed: failed += 1
        case .unsolicited: unsolicited += 1
        case .ok, .crcMismatch: break
        }
    }

    /// True when every frame verified and every command was answered with success (frames the
    /// device sends on its own, such as a treadmill's workout records, are not failures).
    public var allGood: Bool { checksumBad == 0 && malformed == 0 && unanswered == 0 && failed == 0 }
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
