import BLEBase

/// The payload of a PacketLogger record, normalised: packets as they are, syslog records as one
/// readable line.
struct PacketLoggerPayload {
    /// Packets in place; syslog records rebuilt.
    var bytes: ByteReader

    /// Syslog records (type 0xF7; Wireshark `packet-packetlogger.c`):
    ///
    /// ```
    /// +--------+------+---------+--------+-----------+----------+---------+
    /// | pid    | type | process | sender | subsystem | category | message |
    /// | u32 LE | u8   |  NUL-terminated text fields ...                    |
    /// +--------+------+---------+--------+-----------+----------+---------+
    /// ```
    ///
    /// become `process[pid] sender subsystem/category: message`, leaving out empty parts (just
    /// `message` when all are empty). A syslog payload too short for pid and type is kept as it is.
    init(parsing reader: inout ByteReader, type: PacketLoggerType) {
        guard type == .syslog else {
            bytes = reader.sliceRemaining()
            return
        }
        var header = reader
        guard let pid = try? header.readUInt32LE("pid"), (try? header.readUInt8("syslog type")) != nil else {
            bytes = reader.sliceRemaining()
            return
        }
        reader = header
        var fields = TextField.split(reader.readRemainingBytes())
        // Fewer fields than five: the ones present are the last ones (the message first of all).
        while fields.count < 5 { fields.insert([], at: 0) }
        let message = fields.dropFirst(4).first ?? []
        let process = fields.first ?? []
        let sender = fields.dropFirst(1).first ?? []
        let subsystem = fields.dropFirst(2).first ?? []
        let category = fields.dropFirst(3).first ?? []
        var prefix: [[UInt8]] = []
        if !process.isEmpty { prefix.append(process + Array("[\(pid)]".utf8)) }
        if !sender.isEmpty { prefix.append(sender) }
        if !subsystem.isEmpty || !category.isEmpty {
            prefix.append(subsystem + (category.isEmpty ? [] : Array("/".utf8) + category))
        }
        bytes = ByteReader(prefix.isEmpty ? message : Array(prefix.joined(separator: [0x20])) + Array(": ".utf8) + message)
    }
}
