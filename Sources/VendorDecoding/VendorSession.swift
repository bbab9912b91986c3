import BLEBase

/// Decodes the vendor traffic of one connection with one profile: reassembles frames per
/// (direction, characteristic handle), verifies them, pairs commands with responses and
/// reports each frame with its final outcome (ordering: `VendorEvent`). State is bounded:
/// at most `maxPendingCommands` commands wait, and held frames are capped.
public struct VendorSession: Sendable {
    public let profile: Profile
    public let connection: String
    public private(set) var mtu: Int

    public static let maxPendingCommands = 64
    public static let maxHeldFrames = 1024

    private struct StreamKey: Hashable, Sendable {
        var direction: VendorDirection
        var handle: UInt16
    }

    private struct Held: Sendable {
        var frame: VendorFrame
        var failures: [VendorFailure]
        var pending: Bool
        var expectedResponse: Int64?
        var deadlineUs: Int64
        /// False while the Write Request that carried a command has no Write Response.
        var acknowledged: Bool
    }

    /// A value's route: whether the profile carries frames on it (`carriesFrames`).
    private struct Route: Sendable {
        var direction: VendorDirection
        var attOpcode: UInt8
        var handle: UInt16
        var uuid: BluetoothUUID?
        var carriesFrames: Bool
    }

    /// One per stream, in the order streams first carried a value (a connection has one or two).
    private var assemblers: [(key: StreamKey, assembler: FrameAssembler)] = []
    /// The routes values took so far (a connection has a handful), at most `maxRoutes`.
    private var routes: [Route] = []
    static let maxRoutes = 64
    /// The assemblers' outputs of the current value, kept for their capacity.
    private var outputs: [FrameAssembler.Output] = []
    private var held: [Held] = []
    private var nextID = 0
    private var awaitingWriteResponse: Int?
    /// Names found for response codes (`commandName(…)`), when the answer depends on the code
    /// alone; at most `maxRememberedNames` codes.
    private var responseNames = SortedMap<Int, String?>()
    static let maxRememberedNames = 4096
    private let plan: FramePlan

    public init(profile: Profile, connection: String, mtu: Int) {
        self.profile = profile
        self.connection = connection
        self.mtu = mtu
        plan = FramePlan(profile)
    }

    public mutating func updateMTU(_ mtu: Int) { self.mtu = mtu }

    /// False when the caller lists few frames: frames then come without `plaintext` (unless
    /// it decided their checksum), which `plaintext(of:)` restores for those it keeps.
    public var keepsPlaintext = true

    /// The de-obfuscated payload of a frame of this session; nil when it is malformed.
    public func plaintext(of frame: VendorFrame) -> [UInt8]? {
        guard frame.problem == nil else { return nil }
        return frame.plaintext ?? DecodedFields(frame: frame.raw, plan: plan, direction: frame.direction).plaintext
    }

    /// True when `profile` carries frames on this characteristic with this opcode.
    public func carriesFrames(direction: VendorDirection, attOpcode: UInt8, handle: UInt16, uuid: BluetoothUUID?) -> Bool {
        plan.channels.contains { channel in
            guard channel.direction == direction, channel.attOpcodes.contains(attOpcode) else { return false }
            switch channel.characteristic {
            case .uuid(let u): return u == uuid
            case .handle(let h): return h == handle
            }
        }
    }

    /// `carriesFrames`, remembered per route.
    private mutating func routeCarriesFrames(direction: VendorDirection, attOpcode: UInt8, handle: UInt16,
                                             uuid: BluetoothUUID?) -> Bool {
        for route in routes
        where route.handle == handle && route.attOpcode == attOpcode && route.direction == direction && route.uuid == uuid {
            return route.carriesFrames
        }
        let carries = carriesFrames(direction: direction, attOpcode: attOpcode, handle: handle, uuid: uuid)
        if routes.count < Self.maxRoutes {
            routes.append(Route(direction: direction, attOpcode: attOpcode, handle: handle, uuid: uuid, carriesFrames: carries))
        }
        return carries
    }

    /// One ATT value (Write Request/Command, Notification, Indication); values on other
    /// characteristics are ignored.
    public mutating func value(direction: VendorDirection, attOpcode: UInt8, handle: UInt16, uuid: BluetoothUUID?,
                               bytes: [UInt8], timeUs: Int64, record: Int) -> [VendorEvent] {
        var events: [VendorEvent] = []
        value(direction: direction, attOpcode: attOpcode, handle: handle, uuid: uuid, bytes: bytes, timeUs: timeUs,
              record: record, into: &events)
        return events
    }

    /// `value(…)`, appending the events to `events` (a buffer the caller reuses).
    public mutating func value(direction: VendorDirection, attOpcode: UInt8, handle: UInt16, uuid: BluetoothUUID?,
                               bytes: [UInt8], timeUs: Int64, record: Int, into events: inout [VendorEvent]) {
        expire(now: timeUs)
        guard routeCarriesFrames(direction: direction, attOpcode: attOpcode, handle: handle, uuid: uuid) else {
            return flush(into: &events)
        }
        let key = StreamKey(direction: direction, handle: handle)
        let index = assemblers.firstIndex { $0.key == key } ?? {
            assemblers.append((key, FrameAssembler(framing: plan.framing)))
            return assemblers.count - 1
        }()
        // In place: a copy taken out of the array would copy the assembler's buffer on write.
        assemblers[index].assembler.feed(bytes, timeUs: timeUs, record: record, attOpcode: attOpcode,
                                         fragmentLimit: max(mtu - 3, 1), into: &outputs)
        // Moved out of a list of our own (`accept` changes `self`, so `outputs` cannot be lent).
        var completed: [FrameAssembler.Output] = []
        swap(&completed, &outputs)
        completed.drain(filler: .filler) { accept($0, direction: direction, handle: handle, nowUs: timeUs) }
        swap(&completed, &outputs)
        flush(into: &events)
    }

    /// The peer's ATT Write Response on this connection: acknowledges the Write Request that
    /// carried the latest command. A command whose Write Request was never acknowledged and
    /// that gets no response is not a vendor failure of its own: the ATT layer reports that
    /// request (att-no-response / att-timeout) and one cause should make one failure.
    public mutating func writeResponse(timeUs: Int64) -> [VendorEvent] {
        var events: [VendorEvent] = []
        writeResponse(timeUs: timeUs, into: &events)
        return events
    }

    /// `writeResponse(timeUs:)`, appending the events to `events`.
    public mutating func writeResponse(timeUs: Int64, into events: inout [VendorEvent]) {
        expire(now: timeUs)
        if let id = awaitingWriteResponse, let i = held.firstIndex(where: { $0.frame.id == id }) {
            held[i].acknowledged = true
        }
        awaitingWriteResponse = nil
        flush(into: &events)
    }

    /// The link dropped: partial frames are malformed and waiting commands get no response.
    public mutating func linkDown(timeUs: Int64) -> [VendorEvent] {
        end(timeUs: timeUs, reason: "the link dropped")
    }

    /// The capture ended.
    public mutating func finish(timeUs: Int64) -> [VendorEvent] {
        end(timeUs: timeUs, reason: "the capture ended")
    }

    private mutating func end(timeUs: Int64, reason: String) -> [VendorEvent] {
        expire(now: timeUs)
        let streams = assemblers.sorted { ($0.key.direction.rawValue, $0.key.handle) < ($1.key.direction.rawValue, $1.key.handle) }
        for (key, var assembler) in streams {
            for output in assembler.flush(reason: "incomplete frame when \(reason)") {
                accept(output, direction: key.direction, handle: key.handle, nowUs: timeUs)
            }
        }
        assemblers = []
        for i in held.indices where held[i].pending {
            resolveNoResponse(i, detectedUs: timeUs, why: "before \(reason)")
        }
        awaitingWriteResponse = nil
        var events: [VendorEvent] = []
        flush(into: &events)
        return events
    }

    // MARK: frames

    private mutating func accept(_ output: consuming FrameAssembler.Output, direction: VendorDirection, handle: UInt16,
                                 nowUs: Int64) {
        let cut: FrameAssembler.Cut
        var decoded: DecodedFields?
        var problem: String?
        switch consume output {
        case .frame(let c):
            cut = c
            let fields = DecodedFields(frame: c.bytes, plan: plan, direction: direction, keepsPlaintext: keepsPlaintext)
            decoded = fields
            problem = fields.problem
        case .garbage(let c, let reason):
            cut = c
            problem = reason
        }
        let name = rememberedCommandName(direction: direction, command: decoded?.command, sequence: decoded?.sequence,
                                         raw: cut.bytes)
        // Built in its entry: the frame is not copied on its way.
        var entry = Held(frame: VendorFrame(
            id: nextID, connection: connection, direction: direction, attOpcode: cut.attOpcode, handle: handle,
            firstTimeUs: cut.firstTimeUs, lastTimeUs: cut.lastTimeUs, firstRecord: cut.firstRecord,
            lastRecord: cut.lastRecord, fragments: cut.fragments, raw: cut.bytes,
            plaintext: problem == nil ? decoded?.plaintext : nil, checksumOK: decoded?.checksumOK,
            command: decoded?.command, commandName: name, sequence: decoded?.sequence, status: decoded?.status,
            statusOK: decoded?.statusOK, outcome: .ok, matchedFrame: nil, latencyUs: nil, problem: problem),
            failures: [], pending: false, expectedResponse: nil, deadlineUs: 0, acknowledged: true)
        nextID += 1
        if problem != nil {
            entry.frame.outcome = .malformed
            entry.failures.append(failure(.malformedFrame, frame: entry.frame, timeUs: entry.frame.lastTimeUs,
                                          detectedUs: nowUs, summary: "malformed vendor frame on handle \(Hex.code(handle, width: 4)): "
                                              + "\(problem ?? "") (\(Hex.string(entry.frame.raw, limit: 32)))"))
        } else if entry.frame.checksumOK == false {
            entry.frame.outcome = .crcMismatch
            entry.failures.append(failure(.crcMismatch, frame: entry.frame, timeUs: entry.frame.lastTimeUs,
                                          detectedUs: nowUs, summary: "\(describe(entry.frame)): checksum does not verify"))
        }
        guard let commandTimeoutUs = plan.commandTimeoutUs, entry.frame.command != nil, problem == nil else {
            append(entry)
            return
        }
        switch direction {
        case .hostToDevice:
            // A code absent from the response table is an acknowledgement or an answer: it
            // waits for nothing and ends no earlier wait.
            guard let cmd = entry.frame.command, plan.responseTable.map({ $0[cmd] != nil }) ?? true else { break }
            if !plan.queuesCommands {
                for i in held.indices where held[i].pending {
                    resolveNoResponse(i, detectedUs: entry.frame.firstTimeUs,
                                      why: "before the next command, \(describe(entry.frame)) (the device does not queue commands)")
                }
            }
            guard entry.frame.outcome == .ok else { break }
            entry.pending = true
            if let table = plan.responseTable {
                entry.expectedResponse = table[cmd].map(Int64.init)
            } else {
                entry.expectedResponse = try? plan.commands?.responseCommand.evaluate(context(entry.frame))
            }
            entry.deadlineUs = entry.frame.lastTimeUs &+ commandTimeoutUs
            entry.acknowledged = cut.attOpcode != 0x12
            if cut.attOpcode == 0x12 { awaitingWriteResponse = entry.frame.id }
            if held.count(where: \.pending) >= Self.maxPendingCommands, let oldest = held.firstIndex(where: \.pending) {
                resolveNoResponse(oldest, detectedUs: entry.frame.firstTimeUs,
                                  why: "while \(Self.maxPendingCommands) newer commands waited")
            }
        case .deviceToHost:
            if let i = held.firstIndex(where: { $0.pending && matches(command: $0, response: entry.frame) }) {
                let latency = entry.frame.lastTimeUs - held[i].frame.lastTimeUs
                entry.frame.matchedFrame = held[i].frame.id
                entry.frame.latencyUs = latency
                if entry.frame.commandName == nil { entry.frame.commandName = held[i].frame.commandName }
                if entry.frame.outcome == .ok, entry.frame.statusOK == false { entry.frame.outcome = .failed }
                held[i].frame.matchedFrame = entry.frame.id
                held[i].frame.latencyUs = latency
                held[i].frame.outcome = entry.frame.outcome
                held[i].pending = false
            } else if entry.frame.outcome == .ok {
                entry.frame.outcome = .unsolicited
            }
            if entry.frame.outcome == .failed {
                let status = entry.frame.status.map { Hex.code($0) } ?? "?"
                entry.failures.append(failure(.statusFailure, frame: entry.frame, timeUs: entry.frame.lastTimeUs,
                                              detectedUs: nowUs, summary: "\(describe(entry.frame)): status \(status) says the command failed"))
            }
        }
        append(entry)
    }

    private func matches(command: Held, response: VendorFrame) -> Bool {
        guard let expected = command.expectedResponse, let cmd = response.command, Int64(cmd) == expected else { return false }
        return !plan.sameSequence || command.frame.sequence == response.sequence
    }

    private func context(_ frame: VendorFrame) -> Expression.Context {
        Expression.Context(seq: frame.sequence.map(Int64.init), cmd: frame.command.map(Int64.init), frame: frame.raw)
    }

    /// `commandName(…)`, remembered per response code when only the code decides it.
    private mutating func rememberedCommandName(direction: VendorDirection, command: Int?, sequence: Int?,
                                                raw: [UInt8]) -> String? {
        guard plan.responseNameDependsOnCodeOnly, direction == .deviceToHost, let command else {
            return commandName(direction: direction, command: command, sequence: sequence, raw: raw)
        }
        if let known = responseNames[command] { return known }
        let name = commandName(direction: direction, command: command, sequence: sequence, raw: raw)
        if responseNames.count < Self.maxRememberedNames { responseNames.set(name, for: command) }
        return name
    }

    /// The name of a frame's command; a response's is its command's (found through the
    /// response rule when the code has no name of its own).
    private func commandName(direction: VendorDirection, command: Int?, sequence: Int?, raw: [UInt8]) -> String? {
        guard let command else { return nil }
        if let name = plan.commandNames[command] { return name }
        guard direction == .deviceToHost, let rules = plan.commands else { return nil }
        if let table = rules.responseTable {
            let commands = table.filter { $0.value == command }.map(\.key)
            return commands.count == 1 ? commands.first.flatMap { rules.names[$0] } : nil
        }
        for code in rules.names.keys.sorted() {
            let context = Expression.Context(seq: sequence.map(Int64.init), cmd: Int64(code), frame: raw)
            if (try? rules.responseCommand.evaluate(context)) == Int64(command) { return rules.names[code] }
        }
        return nil
    }

    private func describe(_ frame: VendorFrame) -> String {
        var text = frame.direction == .hostToDevice ? "command" : "response"
        if let cmd = frame.command { text += " " + (frame.commandName.map { "\($0) (\(Hex.code(cmd)))" } ?? Hex.code(cmd)) }
        if let seq = frame.sequence { text += " seq \(seq)" }
        return text
    }

    private func failure(_ kind: VendorFailure.Kind, frame: VendorFrame, timeUs: Int64, detectedUs: Int64,
                         summary: String) -> VendorFailure {
        VendorFailure(kind: kind, timeUs: timeUs, detectedUs: detectedUs, connection: connection, frame: frame.id,
                      summary: summary)
    }

    private mutating func resolveNoResponse(_ i: Int, detectedUs: Int64, why: String) {
        held[i].pending = false
        held[i].frame.outcome = .noResponse
        guard held[i].acknowledged else { return }
        let frame = held[i].frame
        held[i].failures.append(failure(.noResponse, frame: frame, timeUs: frame.lastTimeUs, detectedUs: detectedUs,
                                        summary: "\(describe(frame)) got no response \(why)"))
    }

    private mutating func expire(now: Int64) {
        guard let commandTimeoutUs = plan.commandTimeoutUs else { return }
        for i in held.indices where held[i].pending && held[i].deadlineUs < now {
            resolveNoResponse(i, detectedUs: held[i].deadlineUs, why: "within \(commandTimeoutUs / 1000) ms")
        }
    }

    private mutating func append(_ entry: consuming Held) {
        let lastTimeUs = entry.frame.lastTimeUs
        held.append(entry)
        if held.count > Self.maxHeldFrames, let oldest = held.firstIndex(where: \.pending) {
            resolveNoResponse(oldest, detectedUs: lastTimeUs,
                              why: "while \(Self.maxHeldFrames) later frames waited behind it")
        }
    }

    /// Emits frames from the front of the queue up to the first one still waiting.
    private mutating func flush(into events: inout [VendorEvent]) {
        var emitted = 0
        while emitted < held.count, !held[emitted].pending {
            events.append(.frame(held[emitted].frame))
            for failure in held[emitted].failures { events.append(.failure(failure)) }
            emitted += 1
        }
        if emitted > 0 { held.removeFirst(emitted) }
    }
}
