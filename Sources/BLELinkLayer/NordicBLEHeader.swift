import BLEBase

/// The nRF Sniffer pseudo-header of link type 272 `NORDIC_BLE` (and of DLT_USER 10 = 157 in
/// older nRF Sniffer builds), every protocol version, as Wireshark `packet-nordic_ble.c` reads it:
///
/// ```
/// legacy (v0): BE EF | id u8 | counter u16 | unused u16 | payload len u8 | event packet
/// v1:    board u8 | header len u8 | payload len u8 | protover u8 | counter u16 | id u8 | event packet
/// v2/v3: board u8 | payload len u16      | protover u8 | counter u16 | id u8 | event packet
///
/// event packet: len u8 (v0: absent, 10) | flags u8 | channel u8 | RSSI u8 (−dBm)
///               | event counter u16 | v<3: delta µs end→start u32, v3: timestamp µs u32 | LL packet
/// flags: bit0 CRC OK; data: bit1 C→P, bit2 encrypted (MIC checked), bit3 MIC OK (decrypted,
///        MIC removed, Length reduced);
///        advertising: bits1–2 aux type (channel < 37), bit3 address resolved; bits4–6 PHY
/// ```
/// All integers little-endian; the protocol version sits at byte 3 in v1 and v2+ alike.
public struct NordicBLEHeader: Sendable, Equatable {
    public var board: UInt8?
    public var protocolVersion: UInt8
    public var packetCounter: UInt16
    public var packetID: UInt8
    public var flags: UInt8
    public var channel: UInt8
    /// The raw RSSI sample; the signal strength is its negation in dBm.
    public var rssiSample: UInt8
    public var eventCounter: UInt16
    /// v0–v2: delta time (end of previous packet to start of this), v3: firmware timestamp.
    public var time: UInt32

    /// Event packet length the sniffer writes (and the only one v0 knows).
    static let eventPacketLength = 10

    /// Reads the pseudo-header and leaves `reader` at the access address. The declared
    /// payload length must match the bytes present: Wireshark refuses the packet otherwise.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        let start = reader.reportedOffset
        let declared: Int
        let first = try reader.peekUInt8("board ID")
        var probe = reader
        if first == 0xBE, (try? probe.readUInt16BE("legacy marker")) == 0xBEEF {
            reader = probe
            board = nil
            protocolVersion = 0
            packetID = try reader.readUInt8("packet ID")
            packetCounter = try reader.readUInt16LE("packet counter")
            try reader.skip(2, "unused")
            let payloadLength = Int(try reader.readUInt8("payload length"))
            // Legacy headers are 8 bytes; the payload is the fixed event packet (without its
            // length byte) plus the LL packet.
            declared = payloadLength + Self.eventPacketLength - 1
        } else {
            board = try reader.readUInt8("board ID")
            let lengthAt = reader.reportedOffset
            var peek = reader
            try peek.skip(2, "payload length")
            let version = try peek.readUInt8("protocol version")
            if version == 1 {
                let headerLength = Int(try reader.readUInt8("header length"))
                guard headerLength == 6 else {
                    throw DecodeError.invalid(layer: .linkLayer, field: "header length", at: lengthAt,
                                              reason: "nRF Sniffer v1 header length is 6, not \(headerLength)")
                }
                declared = Int(try reader.readUInt8("payload length"))
            } else {
                declared = Int(try reader.readUInt16LE("payload length"))
            }
            protocolVersion = try reader.readUInt8("protocol version")
            packetCounter = try reader.readUInt16LE("packet counter")
            packetID = try reader.readUInt8("packet ID")
        }
        guard declared == reader.remaining else {
            throw DecodeError.invalid(layer: .linkLayer, field: "payload length", at: start,
                                      reason: "declares \(declared) bytes after the header, \(reader.remaining) present")
        }
        var eventLength = Self.eventPacketLength
        if protocolVersion != 0 {
            let at = reader.reportedOffset
            eventLength = Int(try reader.readUInt8("event packet length"))
            guard eventLength >= Self.eventPacketLength else {
                throw DecodeError.invalid(layer: .linkLayer, field: "event packet length", at: at,
                                          reason: "\(eventLength) is shorter than the 10-byte event packet")
            }
        }
        flags = try reader.readUInt8("flags")
        channel = try reader.readUInt8("channel")
        rssiSample = try reader.readUInt8("RSSI")
        eventCounter = try reader.readUInt16LE("event counter")
        time = try reader.readUInt32LE(protocolVersion >= 3 ? "timestamp" : "delta time")
        try reader.skip(eventLength - Self.eventPacketLength, "event packet extension")
    }

    private func has(_ bit: UInt8) -> Bool { flags & bit != 0 }

    /// The metadata; `accessAddress` (the first LL bytes) decides advertising vs data before v3.
    public func metadata(linkType: UInt32, accessAddress: UInt32?) -> AirPacketMetadata {
        var m = AirPacketMetadata(linkType: linkType)
        m.snifferBoard = board
        m.snifferProtocolVersion = protocolVersion
        m.snifferPacketCounter = packetCounter
        m.channelIndex = channel
        m.rfChannel = LEChannel.rfChannel(index: channel)
        m.rssiDBm = -Int(rssiSample)
        m.eventCounter = eventCounter
        if protocolVersion >= 3 { m.snifferTimestampUs = time } else { m.snifferDeltaUs = time }
        m.crcChecked = true
        m.crcValid = has(0x01)
        m.phy = LEPHY(rawValue: (flags >> 4) & 0x07)
        let isData: Bool
        if protocolVersion >= 3, packetID == 0x06 || packetID == 0x02 {
            isData = packetID == 0x06
        } else {
            isData = accessAddress != LLPacket.advertisingAccessAddress
        }
        if isData {
            m.pduHint = .data
            m.direction = has(0x02) ? .centralToPeripheral : .peripheralToCentral
            m.encrypted = has(0x04)
            m.encryptionStated = true
            m.micChecked = has(0x04)
            m.micValid = has(0x04) && has(0x08)
            // packet-nordic_ble.c: bit 2 says the link is encrypted and the MIC was checked, bit 3
            // that it passed. A passed check means the sniffer had the key and wrote the plaintext
            // with the MIC removed and Length reduced; a failed one, that it wrote the ciphertext
            // and MIC as received.
            m.decrypted = m.micValid
            m.micIncluded = false
            m.notDecrypted = m.micChecked && !m.micValid
        } else {
            m.pduHint = .advertising
            if channel < 37 { m.auxType = (flags >> 1) & 0x03 }
        }
        return m
    }
}
