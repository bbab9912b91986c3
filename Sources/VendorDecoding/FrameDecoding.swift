import BLEBase

/// The fields of one cut frame, read by the profile: command, sequence, de-obfuscated payload,
/// checksum verdict and status. A frame whose layout does not fit (too short for its header
/// and trailer, wrong tail, key expression failing) gets a `problem` and is malformed.
struct DecodedFields: Sendable, Equatable {
    var plaintext: [UInt8]?
    var checksumOK: Bool?
    var command: Int?
    var sequence: Int?
    var status: Int?
    var statusOK: Bool?
    var problem: String?

    init(frame raw: [UInt8], plan: FramePlan, direction: VendorDirection) {
        let framing = plan.framing
        command = plan.commandField.flatMap { Self.read(raw, $0) }
        sequence = plan.sequenceField.flatMap { Self.read(raw, $0) }
        let payloadEnd = raw.count - framing.trailerSize
        guard payloadEnd >= framing.payloadOffset, framing.payloadOffset >= 0,
              let payload = FrameBytes.slice(raw, framing.payloadOffset..<payloadEnd) else {
            problem = "\(raw.count) bytes cannot hold a \(framing.payloadOffset)-byte header and \(framing.trailerSize)-byte trailer"
            return
        }
        guard raw.count >= framing.tail.count, raw.suffix(framing.tail.count).elementsEqual(framing.tail) else {
            problem = "tail is \(Hex.string(raw.suffix(framing.tail.count))), expected \(Hex.string(framing.tail))"
            return
        }
        var lengthValue: Int?
        if case .field(let f) = framing.length {
            lengthValue = FrameBytes.unsigned(raw, at: f.offset, size: f.size, bigEndian: f.bigEndian).map { Int($0) }
        }
        switch plan.obfuscation {
        case nil:
            plaintext = Array(payload)
        case .xorKey(let key):
            plaintext = payload.enumerated().map { $1 ^ key[$0 % key.count] }
        case .xorExpression(let expression):
            var context = Expression.Context(seq: sequence.map(Int64.init), cmd: command.map(Int64.init),
                                             len: lengthValue.map(Int64.init), frame: raw)
            var plain: [UInt8] = []
            plain.reserveCapacity(payload.count)
            var key: UInt8?
            for (i, byte) in payload.enumerated() {
                if plan.keyPerByte || key == nil {
                    context.index = Int64(i)
                    do {
                        key = UInt8(truncatingIfNeeded: try expression.evaluate(context))
                    } catch {
                        problem = "XOR key: \(error)"
                        return
                    }
                }
                plain.append(byte ^ (key ?? 0))
            }
            plaintext = plain
        }
        if let spec = plan.checksum, let plaintext {
            let covered = spec.overPlaintext
                ? Array(raw.prefix(framing.payloadOffset)) + plaintext + raw.suffix(from: payloadEnd) : raw
            if let (stored, computed) = spec.verify(sent: raw, covered: covered) {
                checksumOK = stored == computed
            } else {
                problem = "\(raw.count) bytes cannot hold the checksum at \(spec.at)"
                self.plaintext = nil
                return
            }
        }
        if direction == .deviceToHost, let rule = plan.status, rule.applies(to: command), let plaintext {
            status = FrameBytes.unsigned(plaintext, at: rule.offset, size: rule.size, bigEndian: true).map { Int($0) }
            statusOK = status.map { rule.success.contains($0) }
        }
    }

    private static func read(_ raw: [UInt8], _ field: FrameField) -> Int? {
        FrameBytes.unsigned(raw, at: field.offset, size: field.size, bigEndian: field.bigEndian).map { Int($0) }
    }
}

