import BLEBase

/// Which way a record travelled, as the capture states it.
public enum Direction: String, Sendable, Codable {
    /// Host → controller (btsnoop flag bit0 = 0, pcap 201 direction 0, PacketLogger "sent").
    case sent
    /// Controller → host.
    case received
    /// Over the air, central → peripheral (LL data PDUs; used by air captures).
    case centralToPeripheral = "c2p"
    /// Over the air, peripheral → central.
    case peripheralToCentral = "p2c"
    /// The container does not say (pcap link type 187, advertising PDUs).
    case unknown
}

/// What a record holds, normalised from every container's own type codes
/// (H4 type byte, btsnoop H1 flags, Linux monitor opcodes, PacketLogger types).
public enum RecordKind: Sendable, Equatable, Hashable {
    /// An HCI command packet, without the H4 type byte (opcode first).
    case hciCommand
    /// An HCI event packet, without the H4 type byte (event code first).
    case hciEvent
    /// An HCI ACL data packet (handle/flags first).
    case aclData
    /// An HCI synchronous (SCO) data packet.
    case scoData
    /// An HCI ISO data packet.
    case isoData
    /// A text annotation (PacketLogger note/syslog/kernel/error/power/config, monitor system
    /// note or user logging). The payload is the text's bytes: untrusted, escape before printing.
    case note(NoteSource)
    /// A Linux-monitor or PacketLogger record that is about the capture, not a packet
    /// (New Index, Open Index, Index Info, MGMT control, new controller, vendor diagnostic…).
    case control(name: ControlName, code: UInt32)
    /// A Bluetooth LE link-layer packet from an air sniffer; `linkType` says which pseudo-header
    /// precedes the LL packet in the payload (251, 256, 272, 157, or 147 inside PPI).
    case linkLayer(linkType: UInt32)
    /// A record whose type code this reader does not know; the payload is kept raw.
    case unknown(code: UInt32)
}

/// The name of a control record's type, from the reader's table of its container's codes: a
/// static string, so that a `CaptureRecord` copies without reference counting on its kind.
public struct ControlName: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    private let text: StaticString

    public init(stringLiteral text: StaticString) { self.text = text }

    public var description: String { text.description }

    public static func == (a: Self, b: Self) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

/// Where a text annotation came from.
public enum NoteSource: String, Sendable, Codable {
    case note, syslog, kernel, kernelDebug = "kernel-debug", error, power, config, systemNote = "system-note",
         userLogging = "user-logging"
}

/// One record of any capture format: the single type every reader yields
/// (the style guide's point 2; BlueZ `btsnoop.c` maps PacketLogger types the same way).
public struct CaptureRecord: Sendable, Equatable {
    /// 1-based record number, as Wireshark numbers frames.
    public var index: Int
    /// Microseconds since the Unix epoch, within `Timestamp.limitUs` (clamped when read).
    public var timestampUs: Int64
    public var direction: Direction
    public var kind: RecordKind
    /// The bytes `payload` lies in: the payload alone, or the reader's input buffer, which the
    /// records read from it share (no allocation and copy per record). Readers only share a
    /// buffer they no longer write to; a record is short-lived (decoded, then dropped), and
    /// what the layers keep of it they copy out.
    public private(set) var storage: [UInt8]
    /// Where the payload is in `storage`.
    public private(set) var payloadRange: Range<Int>
    /// How long `payload` was on the wire; larger than `payload.count` when the capturing tool
    /// cut the record (Android btsnooz, snaplen).
    public var originalLength: Int
    /// Byte offset of the record's header in the (decompressed) file, for error messages.
    public var fileOffset: Int
    /// Controller index when the container carries one (Linux monitor, btsnoop 2001).
    public var adapter: UInt16?

    public init(index: Int, timestampUs: Int64, direction: Direction, kind: RecordKind,
                payload: [UInt8], originalLength: Int? = nil, fileOffset: Int = 0, adapter: UInt16? = nil) {
        self.init(index: index, timestampUs: timestampUs, direction: direction, kind: kind,
                  sharing: ByteReader(payload), originalLength: originalLength, fileOffset: fileOffset, adapter: adapter)
    }

    /// A record whose payload is the unread bytes of `payload`, sharing its storage.
    public init(index: Int, timestampUs: Int64, direction: Direction, kind: RecordKind,
                sharing payload: ByteReader, originalLength: Int? = nil, fileOffset: Int = 0, adapter: UInt16? = nil) {
        self.index = index
        self.timestampUs = Timestamp.clamped(timestampUs)
        self.direction = direction
        self.kind = kind
        storage = payload.storage
        payloadRange = payload.position..<payload.endIndex
        self.originalLength = originalLength ?? payload.remaining
        self.fileOffset = fileOffset
        self.adapter = adapter
    }

    /// A record whose payload is `payloadRange` of `storage` (which must lie inside it).
    init(index: Int, timestampUs: Int64, direction: Direction, kind: RecordKind, storage: [UInt8],
         payloadRange: Range<Int>, originalLength: Int, fileOffset: Int, adapter: UInt16? = nil) {
        self.index = index
        self.timestampUs = Timestamp.clamped(timestampUs)
        self.direction = direction
        self.kind = kind
        self.storage = storage
        self.payloadRange = payloadRange
        self.originalLength = originalLength
        self.fileOffset = fileOffset
        self.adapter = adapter
    }

    /// The packet bytes after the container's own type byte or pseudo-header fields that the
    /// reader consumed (an HCI packet for HCI kinds). A copy when the record shares a buffer:
    /// decoders read `payloadReader` instead.
    public var payload: [UInt8] {
        get { payloadRange == storage.indices ? storage : Array(storage[payloadRange]) }
        set {
            storage = newValue
            payloadRange = newValue.indices
        }
    }

    /// Gives the payload an array of its own, when it shares a buffer.
    mutating func copyPayloadOut() {
        if payloadRange != storage.indices { payload = Array(storage[payloadRange]) }
    }

    /// `payload.count`, without copying.
    @inlinable public var payloadCount: Int { payloadRange.count }

    /// A reader over the payload, in place; its offsets count from the payload's first byte.
    /// (Inlinable: called from another module and not inlined, it copies the whole record first.)
    @inlinable
    public func payloadReader(layer: Layer) -> ByteReader {
        ByteReader(storage, range: payloadRange, layer: layer, baseOffset: -payloadRange.lowerBound)
    }

    /// True when the capturing tool kept fewer bytes than were on the wire.
    public var isTruncated: Bool { payloadCount < originalLength }

    /// Records are equal when what they say is: the same payload bytes wherever they are stored.
    public static func == (a: Self, b: Self) -> Bool {
        a.index == b.index && a.timestampUs == b.timestampUs && a.direction == b.direction && a.kind == b.kind
            && a.originalLength == b.originalLength && a.fileOffset == b.fileOffset && a.adapter == b.adapter
            && a.storage[a.payloadRange].elementsEqual(b.storage[b.payloadRange])
    }
}
