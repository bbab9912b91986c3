import BLEBase

/// A validated vendor profile: how to recognise a device, where its identity sits in its
/// advertising, which characteristics carry its frames, and how the frames are built. Loaded
/// by `ProfileLoader` (format: docs/profiles.md).
package struct Profile: Sendable, Equatable {
    package var name: String
    /// The file it came from, for messages.
    package var file: String
    package var match: MatchRule
    package var identity: IdentityRule?
    package var channels: [Channel]
    /// The framing of both directions, or of host frames when `deviceFraming` is set.
    package var framing: Framing
    /// The framing of device frames when it differs from host frames (`framing.device-to-host`).
    package var deviceFraming: Framing?
    package var checksum: ChecksumSpec?
    package var obfuscation: Obfuscation?
    package var commands: CommandRules?

    package init(name: String, file: String, match: MatchRule, identity: IdentityRule?, channels: [Channel],
                framing: Framing, checksum: ChecksumSpec?, obfuscation: Obfuscation?, commands: CommandRules?) {
        self.name = name
        self.file = file
        self.match = match
        self.identity = identity
        self.channels = channels
        self.framing = framing
        self.checksum = checksum
        self.obfuscation = obfuscation
        self.commands = commands
    }

    /// The framing of frames sent in `direction`.
    package func framing(for direction: VendorDirection) -> Framing {
        direction == .deviceToHost ? deviceFraming ?? framing : framing
    }
}

/// Which devices a profile applies to: every criterion given must hold.
package struct MatchRule: Sendable, Equatable {
    package var companyID: UInt16?
    package var name: NameMatcher?
    package var advertisedService: BluetoothUUID?
    package var gattService: BluetoothUUID?

    package init(companyID: UInt16? = nil, name: NameMatcher? = nil, advertisedService: BluetoothUUID? = nil,
                gattService: BluetoothUUID? = nil) {
        self.companyID = companyID
        self.name = name
        self.advertisedService = advertisedService
        self.gattService = gattService
    }
}

/// Where a device's identity (a factory MAC, a serial) sits in its advertising.
package enum IdentityRule: Sendable, Equatable {
    /// Bytes of the manufacturer data after the company identifier (of `companyID` when given).
    case manufacturerData(companyID: UInt16?, field: IdentityField)
    /// Bytes of the service data after the UUID.
    case serviceData(uuid: BluetoothUUID, field: IdentityField)
    /// The first capture group of a regular expression over the local name.
    case name(NameMatcher)
}

/// A byte field of advertising data and how to show it.
package struct IdentityField: Sendable, Equatable {
    package enum Format: String, Sendable, Equatable, CaseIterable {
        /// `AA:BB:CC:DD:EE:FF` (most significant byte first, as addresses are printed).
        case mac
        /// Lower-case hex, most significant byte first.
        case hex
        /// An unsigned decimal integer (at most 8 bytes).
        case uint
    }

    package var offset: Int
    package var length: Int
    /// True when the first byte on the air is the most significant.
    package var msbFirst: Bool
    package var format: Format

    package init(offset: Int, length: Int, msbFirst: Bool, format: Format) {
        self.offset = offset
        self.length = length
        self.msbFirst = msbFirst
        self.format = format
    }
}

/// A characteristic that carries frames one way.
package struct Channel: Sendable, Equatable {
    package enum Characteristic: Sendable, Equatable {
        case uuid(BluetoothUUID)
        case handle(UInt16)
    }

    package var direction: VendorDirection
    package var characteristic: Characteristic
    /// ATT opcodes that carry frames here: Write Request 0x12 / Write Command 0x52 from the
    /// host, Handle Value Notification 0x1B / Indication 0x1D from the device.
    package var attOpcodes: Set<UInt8>

    package init(direction: VendorDirection, characteristic: Characteristic, attOpcodes: Set<UInt8>) {
        self.direction = direction
        self.characteristic = characteristic
        self.attOpcodes = attOpcodes
    }
}

package enum VendorDirection: String, Sendable, Equatable, Hashable, CaseIterable {
    case hostToDevice = "host-to-device"
    case deviceToHost = "device-to-host"

    /// 0 for host-to-device, 1 for device-to-host: an index into per-direction tables.
    @inline(__always) var index: Int { self == .hostToDevice ? 0 : 1 }
}

/// How frames are cut out of the byte stream of one characteristic.
package struct Framing: Sendable, Equatable {
    /// The length rule: a length field, a fixed frame size, or neither (a frame ends with a
    /// value shorter than ATT_MTU − 3).
    package enum Length: Sendable, Equatable {
        case field(LengthField)
        case fixed(Int)
        case none
    }

    package var sync: [UInt8]
    package var length: Length
    /// Offset of the payload (the obfuscated part, where the status sits).
    package var payloadOffset: Int
    /// Bytes after the payload (checksum, tail).
    package var trailerSize: Int
    package var tail: [UInt8]
    package var maxLength: Int
    /// Bytes some senders put before the sync (an app version's `20 00` before `3A 26`): dropped
    /// where they precede the sync, so that offsets count from the sync either way.
    package var prefix: [UInt8]
    /// False when every ATT value holds whole frames: bytes a value leaves over are malformed,
    /// never joined with the next value.
    package var spansValues: Bool
    /// Other bytes a frame may start with instead of `sync` (`sync: [[0x3A, 0x26], [0x3B, 0x26]]`).
    package var alternativeSyncs: [[UInt8]] = []

    /// `sync` and its alternatives.
    var syncs: [[UInt8]] { [sync] + alternativeSyncs }

    package static let defaultMaxLength = 4096

    package init(sync: [UInt8], length: Length, payloadOffset: Int, trailerSize: Int, tail: [UInt8],
                maxLength: Int = Framing.defaultMaxLength, prefix: [UInt8] = [], spansValues: Bool = true) {
        self.sync = sync
        self.length = length
        self.payloadOffset = payloadOffset
        self.trailerSize = trailerSize
        self.tail = tail
        self.maxLength = maxLength
        self.prefix = prefix
        self.spansValues = spansValues
    }
}

/// A length field and what it counts.
package struct LengthField: Sendable, Equatable {
    package enum Counts: String, Sendable, Equatable, CaseIterable {
        /// The payload only: frame = payload offset + value + trailer.
        case payload
        /// The whole frame.
        case frame
        /// The bytes after the field itself.
        case afterField = "after-field"
    }

    package var offset: Int
    package var size: Int
    package var bigEndian: Bool
    package var counts: Counts
    /// Added to the value before use (may be negative).
    package var adjust: Int

    package init(offset: Int, size: Int, bigEndian: Bool, counts: Counts, adjust: Int) {
        self.offset = offset
        self.size = size
        self.bigEndian = bigEndian
        self.counts = counts
        self.adjust = adjust
    }

    /// The frame length `value` stands for, given the framing around it.
    func frameLength(value: Int, framing: Framing) -> Int {
        switch counts {
        case .payload: return framing.payloadOffset + value + adjust + framing.trailerSize
        case .frame: return value + adjust
        case .afterField: return offset + size + value + adjust
        }
    }
}

/// How the payload is obfuscated: XOR with a byte, a repeating key, or a key byte computed by
/// an expression for each payload byte (`index` is the byte's position in the payload).
package enum Obfuscation: Sendable, Equatable {
    case xorKey([UInt8])
    case xorExpression(Expression)
}

/// An integer field of the frame header.
package struct FrameField: Sendable, Equatable {
    package var offset: Int
    package var size: Int
    package var bigEndian: Bool

    package init(offset: Int, size: Int = 1, bigEndian: Bool = true) {
        self.offset = offset
        self.size = size
        self.bigEndian = bigEndian
    }
}

/// Command/response rules.
package struct CommandRules: Sendable, Equatable {
    package var command: FrameField
    package var sequence: FrameField?
    package var names: [Int: String]
    /// The response's command, computed from the request's fields (`cmd | 0x80`).
    package var responseCommand: Expression
    /// When set, replaces `responseCommand`: the response code of each command that expects
    /// one; a command absent from the table expects no response (an acknowledgement, an answer
    /// to a device request).
    package var responseTable: [Int: Int]?
    /// True when a response carries its request's sequence number.
    package var sameSequence: Bool
    /// The status: offset in the plaintext payload of a response, and the values meaning success.
    package var status: StatusRule?
    package var timeoutUs: Int64
    /// False when the device handles one command at a time: a command sent while another is
    /// unanswered ends the wait for the earlier one (it gets no response).
    package var queues: Bool

    package init(command: FrameField, sequence: FrameField?, names: [Int: String], responseCommand: Expression,
                sameSequence: Bool, status: StatusRule?, timeoutUs: Int64, queues: Bool, responseTable: [Int: Int]? = nil) {
        self.command = command
        self.sequence = sequence
        self.names = names
        self.responseCommand = responseCommand
        self.responseTable = responseTable
        self.sameSequence = sameSequence
        self.status = status
        self.timeoutUs = timeoutUs
        self.queues = queues
    }
}

package struct StatusRule: Sendable, Equatable {
    package var offset: Int
    package var size: Int
    package var success: Set<Int>
    /// The device frame command codes that carry a status; nil: every device frame.
    package var commands: Set<Int>?

    package init(offset: Int, size: Int = 1, success: Set<Int>, commands: Set<Int>? = nil) {
        self.offset = offset
        self.size = size
        self.success = success
        self.commands = commands
    }
}
