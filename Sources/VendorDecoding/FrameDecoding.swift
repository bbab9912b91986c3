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
        command = plan.commandField.flatMap { Self.read(raw, $0) }
        sequence = plan.sequenceField.flatMap { Self.read(raw, $0) }
        let payloadEnd = raw.count - plan.framing.trailerSize
        guard payloadEnd >= plan.framing.payloadOffset, plan.framing.payloadOffset >= 0,
              let payload = FrameBytes.slice(raw, plan.framing.payloadOffset..<payloadEnd) else {
            problem = "\(raw.count) bytes cannot hold a \(plan.framing.payloadOffset)-byte header and \(plan.framing.trailerSize)-byte trailer"
            return
        }
        guard raw.count >= plan.framing.tail.count, raw.suffix(plan.framing.tail.count).elementsEqual(plan.framing.tail) else {
            problem = "tail is \(Hex.string(raw.suffix(plan.framing.tail.count))), expected \(Hex.string(plan.framing.tail))"
            return
        }
        var lengthValue: Int?
        if case .field(let f) = plan.framing.length {
            lengthValue = FrameBytes.unsigned(raw, at: f.offset, size: f.size, bigEndian: f.bigEndian).map { Int($0) }
        }
        switch plan.obfuscation {
        case nil:
            plaintext = Array(payload)
        case .xorKey(let key):
            plaintext = Self.xor(payload) { key[$0 % key.count] }
        case .xorExpression(let expression):
            var context = Expression.Context(seq: sequence.map(Int64.init), cmd: command.map(Int64.init),
                                             len: lengthValue.map(Int64.init), frame: raw)
            do throws(ExpressionError) {
                if plan.keyPerByte {
                    var plain: [UInt8] = []
                    plain.reserveCapacity(payload.count)
                    for (i, byte) in payload.enumerated() {
                        context.index = Int64(i)
                        plain.append(byte ^ UInt8(truncatingIfNeeded: try expression.evaluate(context)))
                    }
                    plaintext = plain
                } else {
                    // One key for the frame (the expression does not read `index`), evaluated as
                    // for the first byte: not at all when there is none.
                    context.index = 0
                    let key = payload.isEmpty ? 0 : UInt8(truncatingIfNeeded: try expression.evaluate(context))
                    plaintext = Self.xor(payload) { _ in key }
                }
            } catch {
                problem = "XOR key: \(error)"
                return
            }
        }
        if let plaintext, let verified = plan.verifyChecksum(sent: raw, plaintext: plaintext, payloadEnd: payloadEnd) {
            if let (stored, computed) = verified {
                checksumOK = stored == computed
            } else {
                problem = "\(raw.count) bytes cannot hold the checksum at \(plan.checksum?.at ?? 0)"
                self.plaintext = nil
                return
            }
        }
        if direction == .deviceToHost, plan.status?.applies(to: command) == true, let plaintext,
           let offset = plan.status?.offset, let size = plan.status?.size {
            status = FrameBytes.unsigned(plaintext, at: offset, size: size, bigEndian: true).map { Int($0) }
            statusOK = status.map { plan.status?.success.contains($0) == true }
        }
    }

    /// `payload` XORed byte by byte with `key(i)`, written into the array's storage directly.
    private static func xor(_ payload: ArraySlice<UInt8>, key: (Int) -> UInt8) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: payload.count) { buffer, count in
            for (i, byte) in payload.enumerated() { buffer[i] = byte ^ key(i) }
            count = payload.count
        }
    }

    private static func read(_ raw: [UInt8], _ field: FrameField) -> Int? {
        FrameBytes.unsigned(raw, at: field.offset, size: field.size, bigEndian: field.bigEndian).map { Int($0) }
    }
}

