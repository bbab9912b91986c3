import BLEBase

/// A profile's frame rules, worked out once per profile and shared by reference by its
/// sessions: reading a field of a `Profile` struct per frame would copy (retain and release)
/// every array and dictionary inside it.
public final class FramePlan: Sendable {
    let profile: Profile
    /// The framing of host frames and, when the profile gives one, the other of device frames.
    let framing: Framing
    /// The framing by direction (`VendorDirection.index`), read in place per frame.
    let framings: [Framing]
    let channels: [Channel]
    let commands: CommandRules?
    /// The parts of `commands` read per frame, kept apart so that no frame copies the rules.
    let commandNames: SortedMap<Int, String>
    let responseTable: [Int: Int]?
    let sameSequence: Bool
    let queuesCommands: Bool
    let commandTimeoutUs: Int64?
    let commandField: FrameField?
    let sequenceField: FrameField?
    /// The status rule's parts, read in place per frame (the rule bound to a local would be
    /// copied, with its sets): `statusOffset` is −1 without a rule.
    let statusOffset: Int
    let statusSize: Int
    let statusSuccess: Set<Int>
    /// `statusSuccess` for the statuses 0–255, by value (a set lookup would hash each frame's status).
    private let statusSucceedsByByte: [Bool]
    let statusCommands: Set<Int>?
    /// The profile's checksum rule (a stand-in when it has none, `hasChecksum` false), whether
    /// there is one and whether it covers the plaintext, all read in place: unwrapped or chained
    /// per frame, the profile's optional rule would be copied out (with its table).
    let checksumRule: ChecksumSpec
    let hasChecksum: Bool
    let checksumOverPlaintext: Bool
    let obfuscation: Obfuscation?
    /// Whether the XOR key expression reads `index`; when not, it is evaluated once per frame.
    let keyPerByte: Bool
    /// The XOR key by sequence number, when the key expression reads nothing but a one-byte
    /// `seq` (the demo lock's `(0x5A - seq) mod 256`): worked out once for all 256 values
    /// instead of once per frame. Nil entries are keys whose evaluation fails (the frame then
    /// evaluates it, for the error).
    let keyBySequence: [UInt8?]?
    /// The expected response code by command code, when the response rule reads nothing but
    /// a one-byte `cmd` (`cmd | 0x80`); nil entries are codes whose evaluation fails.
    let responseByCommand: [Int64?]?
    /// Command names by one-byte code, worked out once: for commands, and for responses when
    /// their name depends on the code alone (`responseNameDependsOnCodeOnly`).
    let commandNameByCode: [String?]?
    let responseNameByCode: [String?]?
    /// Whether a response's command name depends on its code alone (a response table, or a
    /// response rule that reads only `cmd`), so that it can be remembered per code.
    let responseNameDependsOnCodeOnly: Bool

    /// The checksum verdict of a frame (`ChecksumSpec.verify`): nil when the profile has no
    /// checksum, `.some(nil)` when the frame cannot hold it. `plaintext` is needed (non-nil)
    /// only for a checksum over the plaintext.
    func verifyChecksum(sent raw: ByteView, plaintext: [UInt8]?, payloadStart: Int, payloadEnd: Int) -> (stored: UInt64, computed: UInt64)?? {
        guard hasChecksum else { return nil }
        guard checksumOverPlaintext, let plaintext else { return .some(checksumRule.verify(sent: raw, covered: raw)) }
        let covered = Array(raw.prefix(payloadStart)) + plaintext + raw.suffix(from: payloadEnd)
        return .some(checksumRule.verify(sent: raw, covered: ByteView(covered)))
    }

    public init(_ profile: Profile) {
        self.profile = profile
        framing = profile.framing
        framings = [profile.framing, profile.framing(for: .deviceToHost)]
        channels = profile.channels
        commands = profile.commands
        let names = SortedMap(profile.commands?.names ?? [:])
        commandNames = names
        responseTable = profile.commands?.responseTable
        sameSequence = profile.commands?.sameSequence ?? false
        queuesCommands = profile.commands?.queues ?? true
        commandTimeoutUs = profile.commands?.timeoutUs
        commandField = profile.commands?.command
        sequenceField = profile.commands?.sequence
        let status = profile.commands?.status
        statusOffset = status?.offset ?? -1
        statusSize = status?.size ?? 0
        statusSuccess = status?.success ?? []
        statusSucceedsByByte = (0...255).map { [statusSuccess] in statusSuccess.contains($0) }
        statusCommands = status?.commands
        checksumRule = profile.checksum ?? ChecksumSpec(algorithm: .sum8, at: 0, bigEndian: false, from: 0, to: 0)
        hasChecksum = profile.checksum != nil
        checksumOverPlaintext = profile.checksum?.overPlaintext ?? false
        obfuscation = profile.obfuscation
        if case .xorExpression(let expression) = profile.obfuscation {
            keyPerByte = expression.variables.contains(.index)
        } else {
            keyPerByte = false
        }
        if case .xorExpression(let expression) = profile.obfuscation, profile.commands?.sequence?.size == 1,
           Self.reads(only: .seq, expression) {
            keyBySequence = (0...255).map { seq in
                (try? expression.evaluate(Expression.Context(seq: Int64(seq)))).map { UInt8(truncatingIfNeeded: $0) }
            }
        } else {
            keyBySequence = nil
        }
        if let commands = profile.commands, commands.responseTable == nil, commands.command.size == 1,
           Self.reads(only: .cmd, commands.responseCommand) {
            responseByCommand = (0...255).map { try? commands.responseCommand.evaluate(Expression.Context(cmd: Int64($0))) }
        } else {
            responseByCommand = nil
        }
        responseNameDependsOnCodeOnly = profile.commands.map {
            $0.responseTable != nil || $0.responseCommand.variables.isSubset(of: [.cmd])
        } ?? true
        let rules = profile.commands
        let oneByte = rules?.command.size == 1
        commandNameByCode = oneByte ? (0...255).map {
            Self.commandName(direction: .hostToDevice, command: $0, sequence: nil, raw: [], names: names, rules: rules)
        } : nil
        responseNameByCode = oneByte && responseNameDependsOnCodeOnly ? (0...255).map {
            Self.commandName(direction: .deviceToHost, command: $0, sequence: nil, raw: [], names: names, rules: rules)
        } : nil
    }

    /// The name of a frame's command; a response's is its command's (found through the
    /// response rule when the code has no name of its own).
    func commandName(direction: VendorDirection, command: Int?, sequence: Int?, raw: ByteView) -> String? {
        Self.commandName(direction: direction, command: command, sequence: sequence, raw: raw, names: commandNames,
                         rules: commands)
    }

    /// `commandName(…)` from the profile's `names` (as a `SortedMap`) and its rules, for `init`
    /// to call before the plan is whole.
    private static func commandName(direction: VendorDirection, command: Int?, sequence: Int?, raw: ByteView,
                                    names: SortedMap<Int, String>, rules: CommandRules?) -> String? {
        guard let command else { return nil }
        if let name = names[command] { return name }
        guard direction == .deviceToHost, let rules else { return nil }
        if let table = rules.responseTable {
            let commands = table.filter { $0.value == command }.map(\.key)
            return commands.count == 1 ? commands.first.flatMap { names[$0] } : nil
        }
        for code in rules.names.keys.sorted() {
            let context = Expression.Context(seq: sequence.map(Int64.init), cmd: Int64(code), frame: raw)
            if (try? rules.responseCommand.evaluate(context)) == Int64(command) { return names[code] }
        }
        return nil
    }

    /// True when a device frame with command `code` carries a status: every one, or those of
    /// `StatusRule.commands`.
    func carriesStatus(command code: Int?) -> Bool {
        guard statusOffset >= 0 else { return false }
        guard let statusCommands else { return true }
        return code.map(statusCommands.contains) ?? false
    }

    /// True when `status` is one of the rule's success values.
    func statusSucceeds(_ status: Int) -> Bool {
        statusSucceedsByByte.indices.contains(status) ? statusSucceedsByByte[status] : statusSuccess.contains(status)
    }

    /// True when `expression` reads no variable but `variable` and no frame byte.
    private static func reads(only variable: Expression.Variable, _ expression: Expression) -> Bool {
        switch expression {
        case .literal: return true
        case .variable(let v): return v == variable
        case .byte: return false
        case .negate(let e), .complement(let e): return reads(only: variable, e)
        case .binary(_, let l, let r): return reads(only: variable, l) && reads(only: variable, r)
        }
    }
}
