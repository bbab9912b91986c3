import BLEBase
import BLESessions
import BLEVendorDecoding

/// One connection's vendor commands on their way to the timeline, kept bounded by live state:
/// of a run of commands that went well (between two listed failures, or the link's ends) the
/// first `shownAtStart` and last `shownAtEnd` are listed, and one line stands for the rest when
/// they are at least `fewestSummarized`. Keeping every command would make the timeline's memory
/// grow with the capture.
struct VendorCommandRun {
    /// Runs of up to 19 commands, a session of a real device, are listed whole.
    static let shownAtStart = 5
    static let shownAtEnd = 5
    static let fewestSummarized = 10

    /// Commands taken since the run began.
    private var taken = 0
    /// The latest commands, oldest first: until a summary begins, as many as may still be listed.
    private var latest: [VendorCommand] = []
    private var middle: Middle?

    /// Takes a command that went well (`listed` false: a failed one past the listing cap, which
    /// only a summary counts) and lists in `list` what is decided.
    mutating func take(_ command: VendorCommand, listed: Bool = true, into list: inout [VendorCommandEvent]) {
        taken += 1
        if listed && taken <= Self.shownAtStart {
            list.append(command.event)
            return
        }
        guard listed else {
            // The commands before it are no longer the run's last ones.
            for earlier in latest { addToMiddle(earlier) }
            latest.removeAll(keepingCapacity: true)
            addToMiddle(command)
            return
        }
        latest.append(command)
        let kept = middle == nil ? Self.shownAtEnd + Self.fewestSummarized - 1 : Self.shownAtEnd
        if latest.count > kept {
            for earlier in latest.prefix(latest.count - Self.shownAtEnd) { addToMiddle(earlier) }
            latest.removeFirst(latest.count - Self.shownAtEnd)
        }
    }

    /// Ends the run (a listed failure, or the link's end): lists the line for its middle and
    /// its last commands.
    mutating func close(into list: inout [VendorCommandEvent]) {
        if let middle { list.append(middle.event) }
        list += latest.map(\.event)
        self = VendorCommandRun()
    }

    private mutating func addToMiddle(_ command: VendorCommand) {
        if middle == nil { middle = Middle(command) }
        middle?.add(command)
    }

    /// The commands a summary line stands for. A class: the collector swaps each link's run in
    /// and out around every ATT value, and a run holding it inline would be a large struct to
    /// copy each time.
    final class Middle {
        var first: VendorCommand
        var lastUs: Int64
        var count = 0
        /// Commands that went well, by command, in the order they first came.
        var commands: [Tally<VendorCommand.Name>] = []
        var unsolicited = 0
        var fastestMs: Int64?
        var slowestMs: Int64?
        /// Failed commands past the listing cap, by failure kind.
        var unlisted: [Tally<FailureKind>] = []

        init(_ command: VendorCommand) {
            first = command
            lastUs = command.timeUs
        }

        func add(_ command: VendorCommand) {
            count += 1
            lastUs = max(lastUs, command.timeUs)
            if let kind = command.outcome.failureKind {
                Self.increment(&unlisted, kind)
                return
            }
            if command.outcome == .unsolicited { unsolicited += 1 }
            Self.increment(&commands, command.name)
            if let ms = command.latencyUs.map({ $0 / 1000 }) {
                fastestMs = min(fastestMs ?? ms, ms)
                slowestMs = max(slowestMs ?? ms, ms)
            }
        }

        /// A key and how often it came.
        struct Tally<Key: Equatable> {
            var key: Key
            var count: Int
        }

        static func increment<Key>(_ counts: inout [Tally<Key>], _ key: Key) {
            if let index = counts.firstIndex(where: { $0.key == key }) {
                counts[index].count += 1
            } else {
                counts.append(Tally(key: key, count: 1))
            }
        }

        /// `89 more commands over 158 s: 89 ok in 53–71 ms (UNLOCK (0x10) ×22, …)`, one event over the span.
        var event: VendorCommandEvent {
            var parts: [String] = []
            let fine = commands.reduce(0) { $0 + $1.count }
            if fine > 0 {
                var part = "\(fine) ok"
                if let fastestMs, let slowestMs { part += fastestMs == slowestMs ? " in \(fastestMs) ms" : " in \(fastestMs)–\(slowestMs) ms" }
                let shown = commands.prefix(Self.namesShown).map { "\($0.key.text) ×\($0.count)" }
                    + (commands.count > Self.namesShown ? ["\(commands.count - Self.namesShown) other commands"] : [])
                part += " (" + shown.joined(separator: ", ") + ")"
                if unsolicited > 0 { part += ", \(unsolicited) of them unsolicited" }
                parts.append(part)
            }
            if !unlisted.isEmpty {
                parts.append("\(count - fine) failed, not listed past \(SessionAnalyzer.failuresListedPerKind) per kind ("
                             + unlisted.map { "\($0.key.rawValue) \($0.count)" }.joined(separator: ", ") + ")")
            }
            let span = lastUs > first.timeUs ? " over " + TimelineFormat.duration(lastUs - first.timeUs) : ""
            var event = first.event
            event.outcome = .ok
            event.latencyUs = nil
            event.run = VendorCommandEvent.Run(endUs: lastUs, count: count, failed: count - fine,
                                               summary: "\(count) more commands\(span): " + parts.joined(separator: "; "))
            return event
        }

        /// Distinct commands a summary spells out.
        static let namesShown = 8
    }
}

/// A vendor command as the collector takes it from its frame. Its line's text is made only when
/// the timeline lists it: a run's middle only counts it (formatting every command's line would
/// make the timeline much slower than the JSON report).
struct VendorCommand {
    /// What tells commands apart in a summary: the command code and the profile's name for it.
    struct Name: Equatable {
        var command: Int?
        var commandName: String?
        var commandFieldSize: Int?

        /// `UNLOCK (0x10)`, `command 0x7F`, `frame`.
        var text: String {
            let code = command.map { VendorFrame.commandCode($0, fieldSize: commandFieldSize) }
            switch (commandName, code) {
            case let (name?, code?): return "\(name) (\(code))"
            case let (name?, nil): return name
            case let (nil, code?): return "command \(code)"
            case (nil, nil): return "frame"
            }
        }
    }

    var timeUs: Int64
    var record: Int
    var connection: ConnectionID
    var device: DeviceID?
    var name: Name
    var sequence: Int?
    var outcome: VendorCommandEvent.Outcome
    var latencyUs: Int64?
    var problem: String?
}

extension VendorCommand {
    init(_ frame: borrowing VendorFrame, device: DeviceID?) {
        timeUs = frame.firstTimeUs
        record = frame.firstRecord
        connection = frame.connection
        self.device = device
        name = Name(command: frame.command, commandName: frame.commandName, commandFieldSize: frame.commandFieldSize)
        sequence = frame.sequence
        outcome = VendorCommandEvent.Outcome(rawValue: frame.outcome.rawValue) ?? .malformed
        latencyUs = frame.latencyUs
        problem = frame.problem
    }

    /// The command's line, its text made when it is read (`VendorCommandEvent.summary`).
    var event: VendorCommandEvent {
        VendorCommandEvent(timeUs: timeUs, record: record, connectionID: connection, deviceID: device, name: name.text,
                           outcome: outcome, sequence: sequence, latencyUs: latencyUs, problem: problem)
    }
}
