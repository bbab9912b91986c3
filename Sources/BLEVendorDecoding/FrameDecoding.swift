import BLEBase

/// The fields a frame's decoding writes (`DecodedFields.decode`): a `DecodedFields` of its own,
/// or the fields of a held frame, decoded in place.
protocol DecodedFieldsStore {
    var plaintext: [UInt8]? { get set }
    var checksumOK: Bool? { get set }
    var checksumCarried: UInt16? { get set }
    var checksumComputed: UInt16? { get set }
    var command: Int? { get set }
    var sequence: Int? { get set }
    var status: Int? { get set }
    var statusOK: Bool? { get set }
    var problem: String? { get set }
}

extension VendorFrame: DecodedFieldsStore {}

/// The fields of one cut frame, read by the profile: command, sequence, de-obfuscated payload,
/// checksum verdict and status. A frame whose layout does not fit (too short for its header
/// and trailer, wrong tail, key expression failing) gets a `problem` and is malformed.
struct DecodedFields: DecodedFieldsStore, Sendable, Equatable {
    var plaintext: [UInt8]?
    var checksumOK: Bool?
    var checksumCarried: UInt16?
    var checksumComputed: UInt16?
    var command: Int?
    var sequence: Int?
    var status: Int?
    var statusOK: Bool?
    var problem: String?

    /// No fields: what a run of bytes that is not a frame has.
    init() {}

    /// `keepsPlaintext` false leaves `plaintext` nil when nothing else needs all of it (the
    /// checksum covers the sent bytes and the key does not vary per byte): the status bytes
    /// are de-obfuscated alone.
    init(frame raw: ByteView, plan: FramePlan, direction: VendorDirection, keepsPlaintext: Bool = true) {
        self.init()
        Self.decode(raw, plan: plan, direction: direction, keepsPlaintext: keepsPlaintext, into: &self)
    }

    /// The body of `init(frame:…)`, on fields that start empty (nil): written in place, so that a
    /// session decodes a frame in its queue, where fields decoded apart were copied into the
    /// frame and destroyed.
    static func decode(_ raw: ByteView, plan: FramePlan, direction: VendorDirection, keepsPlaintext: Bool,
                       into fields: inout some DecodedFieldsStore) {
        fields.command = plan.commandField.flatMap { Self.read(raw, $0) }
        fields.sequence = plan.sequenceField.flatMap { Self.read(raw, $0) }
        let d = direction.index
        let payloadStart = plan.framings[d].payloadOffset
        let payloadEnd = raw.count - plan.framings[d].trailerSize
        // Read through `raw` by offset; a view of its own is made only for the plaintext (each
        // view costs a retain and a release per frame).
        guard payloadEnd >= payloadStart, payloadStart >= 0, payloadEnd <= raw.count else {
            fields.problem = "\(raw.count) bytes cannot hold a \(payloadStart)-byte header and \(plan.framings[d].trailerSize)-byte trailer"
            return
        }
        let tail = plan.framings[d].tail
        guard Self.ends(raw, with: tail) else {
            fields.problem = "tail is \(Hex.string(raw.suffix(tail.count))), expected \(Hex.string(tail))"
            return
        }
        let key: Key
        do throws(ExpressionError) {
            key = try Self.key(plan: plan, raw: raw, payloadIsEmpty: payloadEnd == payloadStart, command: fields.command,
                               sequence: fields.sequence, direction: d)
        } catch {
            fields.problem = "XOR key: \(error)"
            return
        }
        var plaintext: [UInt8]?
        if keepsPlaintext || plan.checksumOverPlaintext || key.variesPerByte {
            do throws(ExpressionError) {
                plaintext = try Self.xor(raw.view(payloadStart..<payloadEnd) ?? [], key)
            } catch {
                fields.problem = "XOR key: \(error)"
                return
            }
        }
        if let verified = plan.verifyChecksum(sent: raw, plaintext: plaintext, payloadStart: payloadStart, payloadEnd: payloadEnd) {
            if let (stored, computed) = verified {
                fields.checksumOK = stored == computed
                fields.checksumCarried = UInt16(truncatingIfNeeded: stored)
                fields.checksumComputed = UInt16(truncatingIfNeeded: computed)
            } else {
                fields.problem = "\(raw.count) bytes cannot hold the checksum at \(plan.checksumRule.at)"
                return
            }
        }
        if direction == .deviceToHost, plan.carriesStatus(command: fields.command) {
            let (offset, size) = (plan.statusOffset, plan.statusSize)
            if let plaintext {
                fields.status = ByteReader.unsigned(in: plaintext, at: offset, size: size, bigEndian: true).map { Int($0) }
            } else if size >= 1, size <= 8, offset >= 0, offset <= payloadEnd - payloadStart - size {
                // The key does not vary per byte here: the status bytes de-obfuscate alone.
                var value: UInt64 = 0
                for i in offset..<offset + size {
                    value = value << 8 | UInt64(raw[payloadStart + i] ^ key.byte(at: i))
                }
                fields.status = Int(value)
            }
            if let status = fields.status { fields.statusOK = plan.statusSucceeds(status) }
        }
        fields.plaintext = plaintext
    }

    /// The XOR key of a frame's payload bytes.
    private enum Key {
        case none
        case table([UInt8])
        case constant(UInt8)
        /// An expression reading `index`, evaluated per byte (it may fail on any of them).
        case perByte(Expression, Expression.Context)

        var variesPerByte: Bool {
            if case .perByte = self { return true }
            return false
        }

        /// The key of payload byte `index`, for keys that do not vary per byte (0 otherwise).
        func byte(at index: Int) -> UInt8 {
            switch self {
            case .none, .perByte: return 0
            case .table(let table): return table.isEmpty ? 0 : table[index % table.count]
            case .constant(let k): return k
            }
        }
    }

    private static func key(plan: FramePlan, raw: ByteView, payloadIsEmpty: Bool, command: Int?,
                            sequence: Int?, direction d: Int) throws(ExpressionError) -> Key {
        if let table = plan.keyBySequence, let sequence, table.indices.contains(sequence), let key = table[sequence] {
            return .constant(payloadIsEmpty ? 0 : key)
        }
        switch plan.obfuscation {
        case nil: return .none
        case .xorKey(let key): return .table(key)
        case .xorExpression(let expression):
            var lengthValue: Int?
            if case .field(let f) = plan.framings[d].length {
                lengthValue = ByteReader.unsigned(in: raw, at: f.offset, size: f.size, bigEndian: f.bigEndian).map { Int($0) }
            }
            var context = Expression.Context(seq: sequence.map(Int64.init), cmd: command.map(Int64.init),
                                             len: lengthValue.map(Int64.init), frame: raw)
            if plan.keyPerByte { return .perByte(expression, context) }
            // One key for the frame (the expression does not read `index`), evaluated as for the
            // first byte: not at all when there is none.
            context.index = 0
            return .constant(payloadIsEmpty ? 0 : UInt8(truncatingIfNeeded: try expression.evaluate(context)))
        }
    }

    /// The payload XORed with the key.
    private static func xor(_ payload: ByteView, _ key: Key) throws(ExpressionError) -> [UInt8] {
        switch key {
        case .none: return payload.array
        case .table, .constant: return xor(payload) { key.byte(at: $0) }
        case .perByte(let expression, var context):
            var plain: [UInt8] = []
            plain.reserveCapacity(payload.count)
            for (i, byte) in payload.enumerated() {
                context.index = Int64(i)
                plain.append(byte ^ UInt8(truncatingIfNeeded: try expression.evaluate(context)))
            }
            return plain
        }
    }

    /// `payload` XORed byte by byte with `key(i)`, written into the array's storage directly.
    private static func xor(_ payload: ByteView, key: (Int) -> UInt8) -> [UInt8] {
        payload.withUnsafeBufferPointer { bytes in
            [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
                for (i, byte) in bytes.enumerated() { buffer[i] = byte ^ key(i) }
                count = bytes.count
            }
        }
    }

    /// True when `raw` ends with `tail` (an empty tail always).
    private static func ends(_ raw: ByteView, with tail: [UInt8]) -> Bool {
        guard raw.count >= tail.count else { return false }
        let start = raw.count - tail.count
        for i in tail.indices where raw[start + i] != tail[i] { return false }
        return true
    }

    private static func read(_ raw: ByteView, _ field: FrameField) -> Int? {
        ByteReader.unsigned(in: raw, at: field.offset, size: field.size, bigEndian: field.bigEndian).map { Int($0) }
    }
}

