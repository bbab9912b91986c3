import BLEBase

/// A profile's frame rules, worked out once per session and shared by reference: reading a
/// field of a `Profile` struct per frame would copy (retain and release) every array and
/// dictionary inside it.
final class FramePlan: Sendable {
    let profile: Profile
    let framing: Framing
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
    let status: StatusRule?
    let checksum: ChecksumSpec?
    let obfuscation: Obfuscation?
    /// Whether the XOR key expression reads `index`; when not, it is evaluated once per frame.
    let keyPerByte: Bool
    /// Whether a response's command name depends on its code alone (a response table, or a
    /// response rule that reads only `cmd`), so that it can be remembered per code.
    let responseNameDependsOnCodeOnly: Bool

    /// The checksum verdict of a frame (`ChecksumSpec.verify`): nil when the profile has no
    /// checksum, `.some(nil)` when the frame cannot hold it. The spec is unwrapped once: each
    /// optional chain on it copied it out and back (1.2 % of a run's instructions, callgrind).
    /// `plaintext` is needed (non-nil) only for a checksum over the plaintext.
    func verifyChecksum(sent raw: [UInt8], plaintext: [UInt8]?, payloadEnd: Int) -> (stored: UInt64, computed: UInt64)?? {
        guard let checksum else { return nil }
        guard checksum.overPlaintext, let plaintext else { return .some(checksum.verify(sent: raw, covered: raw)) }
        return .some(checksum.verify(sent: raw, covered: Array(raw.prefix(framing.payloadOffset)) + plaintext + raw.suffix(from: payloadEnd)))
    }

    init(_ profile: Profile) {
        self.profile = profile
        framing = profile.framing
        channels = profile.channels
        commands = profile.commands
        commandNames = SortedMap(profile.commands?.names ?? [:])
        responseTable = profile.commands?.responseTable
        sameSequence = profile.commands?.sameSequence ?? false
        queuesCommands = profile.commands?.queues ?? true
        commandTimeoutUs = profile.commands?.timeoutUs
        commandField = profile.commands?.command
        sequenceField = profile.commands?.sequence
        status = profile.commands?.status
        checksum = profile.checksum
        obfuscation = profile.obfuscation
        if case .xorExpression(let expression) = profile.obfuscation {
            keyPerByte = expression.variables.contains(.index)
        } else {
            keyPerByte = false
        }
        responseNameDependsOnCodeOnly = profile.commands.map {
            $0.responseTable != nil || $0.responseCommand.variables.isSubset(of: [.cmd])
        } ?? true
    }
}
