import BLEBase
import BLESessions
import BLEVendorDecoding

/// What the vendor layer keeps of its sessions' events, which the sessions hand straight to it
/// (`VendorEventSink`): every frame counted in its stream's totals, frames and failures listed
/// up to their caps, and the timeline's commands. Collected in a list first and then moved here,
/// each frame would be moved twice more, with a placeholder each time.
struct VendorCollector: VendorEventSink {
    let listing: VendorLayer.Listing
    /// False when nobody will read `commands` (the JSON report does not).
    let keepsCommands: Bool
    /// The totals per stream of the link whose session is handing over events (the layer
    /// swaps each link's own in and out around its session's calls).
    var streamTotals: [(direction: VendorDirection, handle: UInt16, totals: VendorTotals)] = []
    /// Where in `frames` listed frames lack their plaintext (`VendorSession.keepsPlaintext`),
    /// for the layer to ask the session for it.
    var framesWithoutPlaintext: [Int] = []
    /// Device ids by connection id, for the failures and commands.
    var devices: [ConnectionID: DeviceID] = [:]
    private(set) var frames: [VendorFrame] = []
    private(set) var failures: [Failure] = []
    private(set) var commands: [VendorCommandEvent] = []
    /// The commands of the link whose session is handing over events, swapped in and out like
    /// `streamTotals`.
    var commandRun = VendorCommandRun()
    private var failedCommandsListed: [FailureKind: Int] = [:]
    private(set) var listingCapped = false
    private var failedFramesListed = 0
    private var failureCounts: [String: Int] = [:]
    /// Failures counted but not listed (past the per-kind cap).
    private(set) var suppressedFailures: [FailureKind: Int] = [:]
    /// Runs of failures of one kind per connection (`VendorFailureRun`).
    private(set) var failureRuns = VendorFailureRuns()
    /// The command of the latest frame that did not go well, for the failure that follows it.
    private var lastFailedName: String?

    /// The listed frames, moved out.
    mutating func takeFrames() -> [VendorFrame] {
        let taken = frames
        frames = []
        return taken
    }

    init(listing: VendorLayer.Listing, keepsCommands: Bool) {
        self.listing = listing
        self.keepsCommands = keepsCommands
    }

    /// Counts one frame, and lists it while the listing has room.
    mutating func take(_ frame: consuming VendorFrame) {
        count(frame)
        let failed = frame.outcome != .ok
        if !failed, failureRuns.hasOpenRuns { failureRuns.close(connection: frame.connection) }
        if failed, frame.outcome != .unsolicited {
            lastFailedName = VendorCommand.Name(command: frame.command, commandName: frame.commandName,
                                                 commandFieldSize: frame.commandFieldSize).text
        }
        let listed: Bool
        switch listing {
        case .all where frames.count < VendorLayer.listingCap: listed = true
        case .all, .failed:
            // Failed frames stay listed, up to the failures' cap (all of them are counted).
            listed = failed && failedFramesListed < SessionAnalyzer.failuresListedPerKind
            if failed && !listed || !failed && listing == .all { listingCapped = true }
            if listed { failedFramesListed += 1 }
        case .none: listed = false
        }
        if keepsCommands, frame.direction == .hostToDevice || frame.outcome == .unsolicited || frame.outcome == .crcMismatch
            || frame.outcome == .malformed {
            takeCommand(VendorCommand(frame, device: devices[frame.connection]))
        }
        if listed {
            if frame.plaintext == nil { framesWithoutPlaintext.append(frames.count) }
            frames.append(frame)
            // A frame that was one ATT value views its record's batch; listed, it keeps its own
            // bytes (changed in the list: a change to `frame` would copy every frame taken).
            frames[frames.count - 1].raw = frames[frames.count - 1].raw.compacted
        }
    }

    /// Lists a failed command alone, up to the failures' cap per kind; past it, and for commands
    /// that went well, the link's run decides (`VendorCommandRun`).
    private mutating func takeCommand(_ command: VendorCommand) {
        guard let kind = command.outcome.failureKind else {
            commandRun.take(command, into: &commands)
            return
        }
        failedCommandsListed[kind, default: 0] += 1
        guard failedCommandsListed[kind, default: 0] <= SessionAnalyzer.failuresListedPerKind else {
            commandRun.take(command, listed: false, into: &commands)
            return
        }
        commandRun.close(into: &commands)
        commands.append(command.event)
    }

    /// Ends the link's run of commands (it went down, or the capture ended), and its runs of failures.
    mutating func closeCommandRun(connection: ConnectionID) {
        commandRun.close(into: &commands)
        failureRuns.close(connection: connection)
    }

    /// Counts one failure, and lists it up to the same cap as the session failures.
    mutating func take(_ failure: VendorFailure) {
        failureRuns.take(failure, kind: FailureKind(rawValue: failure.kind.rawValue), device: devices[failure.connection],
                         name: lastFailedName)
        failureCounts[failure.kind.rawValue, default: 0] += 1
        guard failureCounts[failure.kind.rawValue, default: 0] <= SessionAnalyzer.failuresListedPerKind else {
            suppressedFailures[FailureKind(rawValue: failure.kind.rawValue), default: 0] += 1
            return
        }
        failures.append(Failure(
            kind: FailureKind(rawValue: failure.kind.rawValue), timeUs: failure.timeUs, record: failure.record,
            deviceID: devices[failure.connection], connectionID: failure.connection, summary: failure.summary,
            details: [.int("frame", failure.frame), .int("detectedUs", failure.detectedUs)]))
    }

    /// Gives the listed frame at `index` its plaintext.
    mutating func restorePlaintext(at index: Int, from session: VendorSession) {
        frames[index].plaintext = session.plaintext(of: frames[index])
    }

    /// Counts the frame in the totals of its stream.
    private mutating func count(_ frame: borrowing VendorFrame) {
        let index = streamTotals.firstIndex { $0.direction == frame.direction && $0.handle == frame.handle } ?? {
            streamTotals.append((frame.direction, frame.handle, VendorTotals()))
            return streamTotals.count - 1
        }()
        streamTotals[index].totals.count(frame)
    }
}
