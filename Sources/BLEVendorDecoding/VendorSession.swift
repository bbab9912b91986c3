import BLEBase

/// Decodes the vendor traffic of one connection with one profile: reassembles frames per
/// (direction, characteristic handle), verifies them, pairs commands with responses and
/// reports each frame with its final outcome (ordering: `VendorEvent`). State is bounded:
/// at most `maxPendingCommands` commands wait, and held frames are capped.
public struct VendorSession: Sendable {
    public let profile: Profile
    public let connection: ConnectionID
    public private(set) var mtu: Int

    public static let maxPendingCommands = 64
    public static let maxHeldFrames = 1024
    /// Held frames past this many keep copies of their bytes, not views of their records' batches.
    static let maxHeldViews = 4

    private struct StreamKey: Hashable, Sendable {
        var direction: VendorDirection
        var handle: UInt16
    }

    /// What a held frame waits for, beside it in `heldStates` (frames in a list of their own
    /// move out whole when emitted: taken out of a struct with this, each would be copied).
    @usableFromInline struct HeldState: Sendable {
        @usableFromInline var failures: [VendorFailure] = []
        @usableFromInline var pending = false
        var expectedResponse: Int64?
        var deadlineUs: Int64 = 0
        /// False while the Write Request that carried a command has no Write Response.
        var acknowledged = true
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
    private var assemblers: [StreamAssembler] = []
    private struct StreamAssembler {
        let key: StreamKey
        var assembler: FrameAssembler
    }
    /// The routes values took so far (a connection has a handful), at most `maxRoutes`.
    private var routes: [Route] = []
    static let maxRoutes = 64
    /// The assemblers' outputs of the current value, kept for their capacity.
    private var outputs: [FrameAssembler.Output] = []
    /// Frames not yet emitted, in id order, and what each waits for (same indices).
    @usableFromInline var heldFrames: [VendorFrame] = []
    @usableFromInline var heldStates: [HeldState] = []
    private var nextID = 0
    /// No pending command's deadline is earlier (one answered since may have left it earlier than
    /// the earliest left): values before it skip the look through the held frames.
    private var earliestDeadlineUs = Int64.max
    private var awaitingWriteResponse: Int?
    /// Whether the connection showed a CCCD-like write (0x0001/0x0002) or a device frame: without
    /// either, an unanswered command is most likely one whose answer was never enabled.
    private var subscribed = false
    /// Names found for response codes (`commandName(…)`), when the answer depends on the code
    /// alone; at most `maxRememberedNames` codes.
    private var responseNames = SortedMap<Int, String?>()
    static let maxRememberedNames = 4096
    private let plan: FramePlan

    public init(profile: Profile, connection: ConnectionID, mtu: Int) {
        self.init(plan: FramePlan(profile), connection: connection, mtu: mtu)
    }

    /// A session on a plan made once for its profile (its tables cost 512 evaluations).
    public init(plan: FramePlan, connection: ConnectionID, mtu: Int) {
        profile = plan.profile
        self.connection = connection
        self.mtu = mtu
        self.plan = plan
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

    /// One ATT value (Write Request/Command, Notification, Indication), handing the events to
    /// `events`; values on other characteristics are ignored. `firstFragment` is the record and
    /// time of the value's first L2CAP fragment, when it came in several ACL packets.
    public mutating func value(direction: VendorDirection, attOpcode: UInt8, handle: UInt16, uuid: BluetoothUUID?,
                               bytes: consuming ByteView, timeUs: Int64, record: Int,
                               firstFragment: (record: Int, timeUs: Int64)? = nil, into events: inout some VendorEventSink) {
        let carries = routeCarriesFrames(direction: direction, attOpcode: attOpcode, handle: handle, uuid: uuid)
        if !subscribed {
            // A device frame, or a write of 0x0001 or 0x0002 (a CCCD's values, Core v5.4 Vol 3 Part G §3.3.3.3).
            subscribed = carries ? direction == .deviceToHost
                : (attOpcode == 0x12 || attOpcode == 0x52) && bytes.count == 2 && bytes[1] == 0 && bytes[0] & 0x03 != 0
        }
        expire(now: timeUs)
        guard carries else { return flush(into: &events) }
        let key = StreamKey(direction: direction, handle: handle)
        // Found by index in an array of structs: a tuple array searched with `firstIndex(where:)`
        // would copy and destroy the assembler on every value, through generic value witnesses
        // (docs/performance.md).
        var index = 0
        while index < assemblers.count, assemblers[index].key != key { index += 1 }
        if index == assemblers.count {
            assemblers.append(StreamAssembler(key: key, assembler: FrameAssembler(framing: plan.framings[direction.index])))
        }
        // In place: a copy taken out of the array would copy the assembler's buffer on write.
        let whole = assemblers[index].assembler.feed(bytes, timeUs: timeUs, record: record, attOpcode: attOpcode,
                                                     firstFragment: firstFragment ?? (record, timeUs),
                                                     fragmentLimit: max(mtu - 3, 1), into: &outputs)
        if !outputs.isEmpty {
            // Moved out of a list of our own (`accept` changes `self`, so `outputs` cannot be lent).
            var completed: [FrameAssembler.Output] = []
            swap(&completed, &outputs)
            ArrayDrain.all(&completed) { accept($0, direction: direction, handle: handle, nowUs: timeUs) }
            swap(&completed, &outputs)
        }
        if let whole { accept(consume bytes, from: whole, garbage: nil, direction: direction, handle: handle, nowUs: timeUs) }
        flush(into: &events)
    }

    /// The peer's ATT Write Response on this connection: acknowledges the Write Request that
    /// carried the latest command. A command whose Write Request was never acknowledged and
    /// that gets no response is not a vendor failure of its own: the ATT layer reports that
    /// request (att-no-response / att-timeout) and one cause should make one failure.
    public mutating func writeResponse(timeUs: Int64, into events: inout some VendorEventSink) {
        expire(now: timeUs)
        if let id = awaitingWriteResponse, let i = heldFrames.firstIndex(where: { $0.id == id }) {
            heldStates[i].acknowledged = true
        }
        awaitingWriteResponse = nil
        flush(into: &events)
    }

    /// The link dropped: partial frames are malformed and waiting commands get no response.
    public mutating func linkDown(timeUs: Int64, into events: inout some VendorEventSink) {
        end(timeUs: timeUs, reason: "the link dropped", into: &events)
    }

    /// The capture ended.
    public mutating func finish(timeUs: Int64, into events: inout some VendorEventSink) {
        end(timeUs: timeUs, reason: "the capture ended", into: &events)
    }

    /// Ends a session fed bytes that came from no capture (the library's decoding of bytes): a
    /// frame still open is one whose bytes end before its length.
    public mutating func finishBytes(into events: inout some VendorEventSink) {
        end(timeUs: 0, reason: "the bytes ended", incomplete: "incomplete frame: the bytes end before its length",
            into: &events)
    }

    private mutating func end(timeUs: Int64, reason: String, incomplete: String? = nil,
                              into events: inout some VendorEventSink) {
        expire(now: timeUs)
        let streams = assemblers.sorted { ($0.key.direction.rawValue, $0.key.handle) < ($1.key.direction.rawValue, $1.key.handle) }
        for var stream in streams {
            let key = stream.key
            for output in stream.assembler.flush(reason: incomplete ?? "incomplete frame when \(reason)") {
                accept(output, direction: key.direction, handle: key.handle, nowUs: timeUs)
            }
        }
        assemblers = []
        for i in heldStates.indices where heldStates[i].pending {
            resolveNoResponse(i, detectedUs: timeUs, why: "before \(reason)")
        }
        awaitingWriteResponse = nil
        flush(into: &events)
    }

    // MARK: frames

    private mutating func accept(_ output: consuming FrameAssembler.Output, direction: VendorDirection, handle: UInt16,
                                 nowUs: Int64) {
        switch consume output {
        case .frame(let cut): accept(cut.bytes, from: cut.origin, garbage: nil, direction: direction, handle: handle, nowUs: nowUs)
        case .garbage(let cut, let reason):
            accept(cut.bytes, from: cut.origin, garbage: reason, direction: direction, handle: handle, nowUs: nowUs)
        }
    }

    /// The bytes of a cut frame, or with `garbage` (why) bytes that could not be framed.
    private mutating func accept(_ bytes: consuming ByteView, from cut: FrameAssembler.Origin, garbage: consuming String?,
                                 direction: VendorDirection, handle: UInt16, nowUs: Int64) {
        // The reason moves into the frame, and whether the frame is malformed is read there
        // (each copy of a string costs a retain and a release per frame, even of nil).
        let isGarbage = garbage != nil
        // Made in its place in the queue and changed there: a frame held in a variable would be
        // copied in. Its fields are decoded there too (garbage has none, all nil); a malformed
        // frame's decoding stops at its problem, before plaintext and check values.
        heldFrames.append(VendorFrame(
            id: nextID, connection: connection, direction: direction, attOpcode: cut.attOpcode, handle: handle,
            firstTimeUs: cut.firstTimeUs, lastTimeUs: cut.lastTimeUs, firstRecord: cut.firstRecord,
            lastRecord: cut.lastRecord, firstFragmentRecord: cut.firstFragmentRecord,
            firstFragmentTimeUs: cut.firstFragmentUs, fragments: cut.fragments, raw: copy bytes,
            plaintext: nil, checksumOK: nil, command: nil, commandName: nil, sequence: nil, status: nil,
            statusOK: nil, outcome: .ok, matchedFrame: nil, latencyUs: nil, problem: garbage,
            checksumCarried: nil, checksumComputed: nil, commandFieldSize: plan.commandField?.size))
        let new = heldFrames.count - 1
        if !isGarbage {
            DecodedFields.decode(bytes, plan: plan, direction: direction, keepsPlaintext: keepsPlaintext,
                                 into: &heldFrames[new])
        }
        let malformed = heldFrames[new].problem != nil
        let name = rememberedCommandName(direction: direction, command: heldFrames[new].command,
                                         sequence: heldFrames[new].sequence, raw: bytes)
        heldFrames[new].commandName = name
        var state = HeldState()
        nextID += 1
        if malformed {
            heldFrames[new].outcome = .malformed
            state.failures.append(failure(.malformedFrame, frame: heldFrames[new], timeUs: heldFrames[new].lastTimeUs,
                                          detectedUs: nowUs, summary: "malformed vendor frame on handle \(Hex.code(handle, width: 4)): "
                                              + "\(heldFrames[new].problem ?? "") (\(Hex.string(heldFrames[new].raw, limit: 32)))"))
        } else if heldFrames[new].checksumOK == false {
            heldFrames[new].outcome = .crcMismatch
            state.failures.append(failure(.crcMismatch, frame: heldFrames[new], timeUs: heldFrames[new].lastTimeUs,
                                          detectedUs: nowUs, summary: "\(describe(heldFrames[new])): checksum does not verify"
                                              + checksumValues(heldFrames[new])))
        }
        guard let commandTimeoutUs = plan.commandTimeoutUs, heldFrames[new].command != nil, !malformed else {
            return hold(state)
        }
        switch direction {
        case .hostToDevice:
            // A code absent from the response table is an acknowledgement or an answer: it
            // waits for nothing and ends no earlier wait.
            guard let cmd = heldFrames[new].command, plan.responseTable.map({ $0[cmd] != nil }) ?? true else { break }
            if !plan.queuesCommands {
                for i in heldStates.indices where heldStates[i].pending {
                    resolveNoResponse(i, detectedUs: heldFrames[new].firstTimeUs,
                                      why: "before the next command, \(describe(heldFrames[new])) (the device does not queue commands)")
                }
            }
            guard heldFrames[new].outcome == .ok else { break }
            state.pending = true
            if let table = plan.responseTable {
                state.expectedResponse = table[cmd].map(Int64.init)
            } else if let table = plan.responseByCommand, table.indices.contains(cmd) {
                state.expectedResponse = table[cmd]
            } else {
                state.expectedResponse = try? plan.commands?.responseCommand.evaluate(context(heldFrames[new]))
            }
            state.deadlineUs = heldFrames[new].lastTimeUs &+ commandTimeoutUs
            earliestDeadlineUs = min(earliestDeadlineUs, state.deadlineUs)
            state.acknowledged = cut.attOpcode != 0x12
            if cut.attOpcode == 0x12 { awaitingWriteResponse = heldFrames[new].id }
            if heldStates.count(where: \.pending) >= Self.maxPendingCommands, let oldest = heldStates.firstIndex(where: \.pending) {
                resolveNoResponse(oldest, detectedUs: heldFrames[new].firstTimeUs,
                                  why: "while \(Self.maxPendingCommands) newer commands waited")
            }
        case .deviceToHost:
            var match: Int?
            for i in heldStates.indices where heldStates[i].pending
                && matches(command: heldFrames[i], expecting: heldStates[i].expectedResponse, response: heldFrames[new]) {
                match = i
                break
            }
            if let i = match {
                let latency = heldFrames[new].lastTimeUs - heldFrames[i].lastTimeUs
                heldFrames[new].matchedFrame = heldFrames[i].id
                heldFrames[new].latencyUs = latency
                if heldFrames[new].commandName == nil { heldFrames[new].commandName = heldFrames[i].commandName }
                if heldFrames[new].outcome == .ok, heldFrames[new].statusOK == false { heldFrames[new].outcome = .failed }
                heldFrames[i].matchedFrame = heldFrames[new].id
                heldFrames[i].latencyUs = latency
                heldFrames[i].outcome = heldFrames[new].outcome
                heldStates[i].pending = false
            } else if heldFrames[new].outcome == .ok {
                heldFrames[new].outcome = .unsolicited
            }
            if heldFrames[new].outcome == .failed {
                let status = heldFrames[new].status.map { Hex.code($0) } ?? "?"
                state.failures.append(failure(.statusFailure, frame: heldFrames[new], timeUs: heldFrames[new].lastTimeUs,
                                              detectedUs: nowUs, summary: "\(describe(heldFrames[new])): status \(status) says the command failed"))
            }
        }
        hold(state)
    }

    private func matches(command: VendorFrame, expecting expected: Int64?, response: VendorFrame) -> Bool {
        guard let expected, let cmd = response.command, Int64(cmd) == expected else { return false }
        return !plan.sameSequence || command.sequence == response.sequence
    }

    private func context(_ frame: VendorFrame) -> Expression.Context {
        Expression.Context(seq: frame.sequence.map(Int64.init), cmd: frame.command.map(Int64.init), frame: frame.raw)
    }

    /// `commandName(…)`, remembered per response code when only the code decides it.
    private mutating func rememberedCommandName(direction: VendorDirection, command: Int?, sequence: Int?,
                                                raw: ByteView) -> String? {
        if let command, let table = direction == .hostToDevice ? plan.commandNameByCode : plan.responseNameByCode,
           table.indices.contains(command) {
            return table[command]
        }
        guard plan.responseNameDependsOnCodeOnly, direction == .deviceToHost, let command else {
            return plan.commandName(direction: direction, command: command, sequence: sequence, raw: raw)
        }
        if let known = responseNames[command] { return known }
        let name = plan.commandName(direction: direction, command: command, sequence: sequence, raw: raw)
        if responseNames.count < Self.maxRememberedNames { responseNames.set(name, for: command) }
        return name
    }

    /// `: carries 0x54, computed 0x55`, in the width of the profile's check value.
    private func checksumValues(_ frame: VendorFrame) -> String {
        guard let carried = frame.checksumCarried, let computed = frame.checksumComputed else { return "" }
        let width = plan.checksumRule.algorithm.size * 2
        return " (carries \(Hex.code(carried, width: width)), computed \(Hex.code(computed, width: width)))"
    }

    private func describe(_ frame: VendorFrame) -> String {
        var text = frame.direction == .hostToDevice ? "command" : "response"
        if let code = frame.commandCode { text += " " + (frame.commandName.map { "\($0) (\(code))" } ?? code) }
        if let seq = frame.sequence { text += " seq \(Hex.code(seq))" }
        return text
    }

    private func failure(_ kind: VendorFailure.Kind, frame: VendorFrame, timeUs: Int64, detectedUs: Int64,
                         summary: String) -> VendorFailure {
        VendorFailure(kind: kind, timeUs: timeUs, detectedUs: detectedUs, connection: connection, frame: frame.id,
                      summary: summary, record: frame.firstRecord)
    }

    private mutating func resolveNoResponse(_ i: Int, detectedUs: Int64, why: String) {
        heldStates[i].pending = false
        heldFrames[i].outcome = .noResponse
        guard heldStates[i].acknowledged else { return }
        let frame = heldFrames[i]
        let hint = subscribed ? "" : "; the device-to-host characteristic was never subscribed on this connection before "
            + "(no CCCD write, no device frame in the capture), the usual cause"
        heldStates[i].failures.append(failure(.noResponse, frame: frame, timeUs: frame.lastTimeUs, detectedUs: detectedUs,
                                              summary: "\(describe(frame)) got no response \(why)\(hint)"))
    }

    private mutating func expire(now: Int64) {
        guard let commandTimeoutUs = plan.commandTimeoutUs else { return }
        guard earliestDeadlineUs < now else { return }
        earliestDeadlineUs = .max
        for i in heldStates.indices where heldStates[i].pending {
            if heldStates[i].deadlineUs < now {
                resolveNoResponse(i, detectedUs: heldStates[i].deadlineUs, why: "within \(commandTimeoutUs / 1000) ms")
            } else {
                earliestDeadlineUs = min(earliestDeadlineUs, heldStates[i].deadlineUs)
            }
        }
    }

    /// Queues what the frame last added to `heldFrames` waits for.
    private mutating func hold(_ state: HeldState) {
        let last = heldFrames.count - 1
        let lastTimeUs = heldFrames[last].lastTimeUs
        heldStates.append(state)
        // A frame that was one ATT value views its record's batch (up to 512 KiB). Behind a few
        // others it may wait long, so it keeps a copy of its bytes: what waits holds at most
        // `maxHeldViews` batches alive per session.
        if last >= Self.maxHeldViews { heldFrames[last].raw = heldFrames[last].raw.compacted }
        if heldFrames.count > Self.maxHeldFrames, let oldest = heldStates.firstIndex(where: \.pending) {
            resolveNoResponse(oldest, detectedUs: lastTimeUs,
                              why: "while \(Self.maxHeldFrames) later frames waited behind it")
        }
    }

    /// Emits frames from the front of the queue up to the first one still waiting, each moved
    /// out (`ArrayDrain.first`), and the failures after each. Inlinable, so that the layer above
    /// gets it specialized for its sink, with no protocol witness call per frame.
    @inlinable mutating func flush(into events: inout some VendorEventSink) {
        let emitted = heldStates.firstIndex(where: \.pending) ?? heldStates.count
        guard emitted > 0 else { return }
        // Out of `self` while it drains: the closure reads `heldStates`.
        var frames: [VendorFrame] = []
        swap(&frames, &heldFrames)
        var i = 0
        ArrayDrain.first(emitted, of: &frames) { frame in
            events.take(frame)
            for failure in heldStates[i].failures { events.take(failure) }
            i += 1
        }
        swap(&frames, &heldFrames)
        ArrayDrain.removeFirst(emitted, of: &heldStates)
    }
}
