import BLEBase

/// The packet of one pcap/pcapng record, normalised by link type (ble-facts §4).
struct PcapPacket {
    var kind: RecordKind
    var direction: Direction
    /// The packet bytes, in the record (text records rebuilt).
    var payload: ByteReader
    var adapter: UInt16?
    /// Record bytes that are not in `payload` (pseudo-header, H4 type byte, text framing), to
    /// subtract from the original length.
    var consumedHeaderBytes = 0
    /// True when a pcapng direction flag contradicts the 201 pseudo-header.
    var directionConflict = false

    /// - 187: H4 type byte, HCI packet; the direction comes from pcapng `epb_flags` if any.
    /// - 201: `u32 BE direction` (0 sent, 1 received), then H4.
    /// - 254: `u16 BE adapter`, `u16 BE opcode` (monitor opcodes), payload.
    ///
    ///   ```
    ///   201: +-----------------+------+--------------+   254: +---------+--------+---------+
    ///        | direction u32BE | type | HCI packet   |        | adapter | opcode | payload |
    ///        +-----------------+------+--------------+        | u16 BE  | u16 BE |         |
    ///                                                         +---------+--------+---------+
    ///   ```
    /// - Air link types: the whole packet, pseudo-header included, as `.linkLayer`.
    init(parsing reader: inout ByteReader, linkType: LinkType, role: LinkType.Role,
         flagsDirection: Direction?) throws(DecodeError) {
        let recordBytes = reader.remaining
        switch role {
        case .h4:
            var headerDirection: Direction?
            if linkType == .bluetoothHCIH4WithPHDR {
                headerDirection = Self.direction(phdr: try reader.readUInt32BE("direction"))
            }
            let (type, packet) = try H4Frame.parse(&reader)
            kind = type.kind
            payload = packet
            direction = headerDirection ?? flagsDirection ?? .unknown
            if let headerDirection, let flagsDirection, headerDirection != flagsDirection {
                directionConflict = true
            }
        case .monitor:
            adapter = try reader.readUInt16BE("adapter")
            let opcode = MonitorOpcode(rawValue: try reader.readUInt16BE("opcode"))
            (kind, direction) = opcode.record
            payload = try MonitorPayload(parsing: &reader, opcode: opcode).bytes
        case .linkLayer:
            kind = .linkLayer(linkType: linkType.rawValue)
            direction = .unknown
            payload = reader.sliceRemaining()
        }
        consumedHeaderBytes = recordBytes - payload.remaining
    }

    /// The direction word of link type 201: 0 sent, 1 received, anything else unknown.
    static func direction(phdr value: UInt32) -> Direction {
        value == 0 ? .sent : (value == 1 ? .received : .unknown)
    }
}
