import BLEBase

/// A validated vendor profile: how to recognise a device, where its identity sits in its
/// advertising, which characteristics carry its frames, and how the frames are built. Loaded
/// by `ProfileLoader` (format: docs/profiles.md).
public struct Profile: Sendable, Equatable {
    public var name: String
    /// The file it came from, for messages.
    public var file: String
    public var match: MatchRule
    public var identity: IdentityRule?
    public var channels: [Channel]
    /// The framing of both directions, or of host frames when `deviceFraming` is set.
    public var framing: Framing
    /// The framing of device frames when it differs from host frames (`framing.device-to-host`).
    public var deviceFraming: Framing?
    public var checksum: ChecksumSpec?
    public var obfuscation: Obfuscation?
    public var commands: CommandRules?

    public init(name: String, file: String, match: MatchRule, identity: IdentityRule?, channels: [Channel],
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
    public func framing(for direction: VendorDirection) -> Framing {
        direction == .deviceToHost ? deviceFraming ?? framing : framing
    }
}

/// Which devices a profile applies to: every criterion given must hold.
public struct MatchRule: Sendable, Equatable {
    public var companyID: UInt16?
    public var name: NameMatcher?
    public var advertisedService: BluetoothUUID?
    public var gattService: BluetoothUUID?

    public init(companyID: UInt16? = nil, name: NameMatcher? = nil, advertisedService: BluetoothUUID? = nil,
                gattService: BluetoothUUID? = nil) {
        self.companyID = companyID
        self.name = name
        self.advertisedService = advertisedService
        self.gattService = gattService
    }
}

/// Where a device's identity (a factory MAC, a serial) sits in its advertising.
public enum IdentityRule: Sendable, Equatable {
    /// Bytes of the manufacturer data after the company identifier (of `companyID` when given).
    case manufacturerData(companyID: UInt16?, field: IdentityField)
    /// Bytes of the service data after the UUID.
    case serviceData(uuid: BluetoothUUID, field: IdentityField)
    /// The first capture group of a regular expression over the local name.
    case name(NameMatcher)
}

/// A byte field of advertising data and how to show it.
public struct IdentityField: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable, CaseIterable {
        /// `AA:BB:CC:DD:EE:FF` (most significant byte first, as addresses are printed).
        case mac
        /// Lower-case hex, most significant byte first.
        case hex
        /// An unsigned decimal integer (at most 8 bytes).
        case uint
    }

    public var offset: Int
    public var length: Int
    /// True when the first byte on the air is the most significant.
    public var msbFirst: Bool
    public var format: Format

    public init(offset: Int, length: Int, msbFirst: Bool, format: Format) {
        self.offset = offset
        self.length = length
        self.msbFirst = msbFirst
        self.format = format
    }
}

/// A characteristic that carries frames one way.
public struct Channel: Sendable, Equatable {
    public enum Characteristic: Sendable, Equatable {
        case uuid(BluetoothUUID)
        case handle(UInt16)
    }

    public var direction: VendorDirection
    public var characteristic: Characteristic
    /// ATT opcodes that carry frames here: Write Request 0x12 / Write Command 0x52 from the
    /// host, Handle Value Notification 0x1B / Indication 0x1D from the device.
    public var attOpcodes: Set<UInt8>

    public init(direction: VendorDirection, characteristic: Characteristic, attOpcodes: Set<UInt8>) {
        self.direction = direction
        self.characteristic = characteristic
        self.attOpcodes = attOpcodes
    }
}

public enum VendorDirection: String, Sendable, Equatable, Hashable, CaseIterable {
    case hostToDevice = "host-to-device"
    case deviceToHost = "device-to-host"

    /// 0 for host-to-device, 1 for device-to-host: an index into per-direction tables.
    @inline(__always) var index: Int { self == .hostToDevice ? 0 : 1 }
}

/// How frames are cut out of the byte stream of one characteristic.
public struct Framing: Sendable, Equatable {
    /// The length rule: a length field, a fixed frame size, or neither (a frame ends with a
    /// value shorter than ATT_MTU − 3).
    public enum Length: Sendable, Equatable {
        case field(LengthField)
        case fixed(Int)
        case none
    }

    public var sync: [UInt8]
    public var length: Length
    /// Offset of the payload (the obfuscated part, where the status sits).
    public var payloadOffset: Int
    /// Bytes after the payload (checksum, tail).
    public var trailerSize: Int
    public var tail: [UInt8]
    public var maxLength: Int
    /// Bytes some senders put before the sync (an app version's `20 00` before `3A 26`): dropped
    /// where they precede the sync, so that offsets count from the sync either way.
    public var prefix: [UInt8]
    /// False when every ATT value holds whole frames: bytes a value leaves over are malformed,
    /// never joined with the next value.
    public var spansValues: Bool
    /// Other bytes a frame may start with instead of `sync` (`sync: [[0x3A, 0x26], [0x3B, 0x26]]`).
    public var alternativeSyncs: [[UInt8]] = []

    /// `sync` and its alternatives.
    var syncs: [[UInt8]] { [sync] + alternativeSyncs }

    public static let defaultMaxLength = 4096

    public init(sync: [UInt8], length: Length, payloadOffset: Int, trailerSize: Int, tail: [UInt8],
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
public struct LengthField: Sendable, Equatable {
    public enum Counts: String, Sendable, Equatable, CaseIterable {
        /// The payload only: frame = payload offset + value + trailer.
        case payload
        /// The whole frame.
        case frame
        /// The bytes after the field itself.
        case afterField = "after-field"
    }

    public var offset: Int
    public var size: Int
    public var bigEndian: Bool
    public var counts: Counts
    /// Added to the value before use (may be negative).
    public var adjust: Int

    public init(offset: Int, size: Int, bigEndian: Bool, counts: Counts, adjust: Int) {
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
public enum Obfuscation: Sendable, Equatable {
    case xorKey([UInt8])
    case xorExpression(Expression)
}

/// An integer field of the frame header.
public struct FrameField: Sendable, Equatable {
    public var offset: Int
    public var size: Int
    public var bigEndian: Bool

    public init(offset: Int, size: Int = 1, bigEndian: Bool = true) {
        self.offset = offset
        self.size = size
        self.bigEndian = bigEndian
    }
}

/// Command/response rules.
public struct CommandRules: Sendable, Equatable {
    public var command: FrameField
    public var sequence: FrameField?
    public var names: [Int: String]
    /// The response's command, computed from the request's fields (`cmd | 0x80`).
    public var responseCommand: Expression
    /// When set, replaces `responseCommand`: the response code of each command that expects
    /// one; a command absent from the table expects no response (an acknowledgement, an answer
    /// to a device request).
    public var responseTable: [Int: Int]?
    /// True when a response carries its request's sequence number.
    public var sameSequence: Bool
    /// The status: offset in the plaintext payload of a response, and the values meaning success.
    public var status: StatusRule?
    public var timeoutUs: Int64
    /// False when the device handles one command at a time: a command sent while another is
    /// unanswered ends the wait for the earlier one (it gets no response).
    public var queues: Bool

    public init(command: FrameField, sequence: FrameField?, names: [Int: String], responseCommand: Expression,
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

public struct StatusRule: Sendable, Equatable {
    public var offset: Int
    public var size: Int
    public var success: Set<Int>
    /// The device frame command codes that carry a status; nil: every device frame.
    public var commands: Set<Int>?

    public init(offset: Int, size: Int = 1, success: Set<Int>, commands: Set<Int>? = nil) {
        self.offset = offset
        self.size = size
        self.success = success
        self.commands = commands
    }
}
