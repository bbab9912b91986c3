import BLEBase
import BLECaptureFormats
import CBLEZlib

/// Writes Android bug reports holding a `BTSNOOP_LOG_SUMMARY` (ble-facts §3), and zips of them,
/// for tests. Records go through the phone's logging rule first (`logged`), so a test reads
/// back what a phone would have written.
public enum BugreportWriter {
    /// Android's `MAX_HCI_ACL_LEN`: ACL packets are logged up to this many bytes.
    public static let aclLimit = 14

    /// Text around the section, as dumpstate writes it (shortened).
    public static let defaultSurroundingText = (
        before: "========================================================\n== dumpstate: 2024-04-25 08:24:06\n"
            + "========================================================\n\nDUMP OF SERVICE bluetooth_manager:\n",
        after: "\nBluetooth Remote Devices List: (not shown)\n"
    )

    /// A bug report text whose summary holds `records` as Android logs them.
    public static func bugreport(records: [CaptureRecord], version: UInt8 = 2,
                                 surroundingText: (before: String, after: String) = defaultSurroundingText) -> [UInt8] {
        let kept = logged(records)
        let encoded = btsnoozRecords(kept, version: version)
        let last = kept.last.map { UInt64(bitPattern: $0.timestampUs) } ?? 0
        return text(summary: summary(version: version, lastTimestamp: last, records: encoded),
                    declaredBytes: encoded.count, surroundingText: surroundingText)
    }

    /// The records as the phone keeps them: SCO dropped; ACL cut to 14 bytes unless its L2CAP
    /// CID (packet bytes 6–7) is 0x0001, signalling; renumbered from 1.
    public static func logged(_ records: [CaptureRecord]) -> [CaptureRecord] {
        records.filter { $0.kind != .scoData }.enumerated().map { offset, record in
            var kept = record
            kept.index = offset + 1
            let signalling = record.payload.dropFirst(6).prefix(2).elementsEqual([0x01, 0x00])
            if record.kind == .aclData && !signalling {
                kept.payload = Array(record.payload.prefix(aclLimit))
            }
            return kept
        }
    }

    /// The inflated record stream: each record's header (v1 or v2) and packet. Time deltas are
    /// from the previous record (0 for the first).
    public static func btsnoozRecords(_ records: [CaptureRecord], version: UInt8) -> [UInt8] {
        var out = ByteWriter(capacity: records.count * 24)
        var previous = records.first?.timestampUs ?? 0
        for record in records {
            guard let type = BtsnoozType(kind: record.kind, direction: record.direction) else {
                preconditionFailure("btsnooz cannot carry \(record.kind) \(record.direction)")
            }
            out.writeUInt16LE(UInt16(record.payload.count + 1))
            if version != 1 { out.writeUInt16LE(UInt16(record.originalLength + 1)) }
            out.writeUInt32LE(UInt32(record.timestampUs - previous))
            out.writeUInt8(type.rawValue)
            out.writeBytes(record.payload)
            previous = record.timestampUs
        }
        return out.bytes
    }

    /// The decoded summary: the 9-byte preamble, then `records` zlib-compressed.
    public static func summary(version: UInt8, lastTimestamp: UInt64, records: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.writeUInt8(version)
        out.writeUInt64LE(lastTimestamp)
        out.writeBytes(Deflater.deflate(records, windowBits: 15))
        return out.bytes
    }

    /// `summary` in base64 lines of 128 characters between the BEGIN and END lines.
    public static func text(summary: [UInt8], declaredBytes: Int,
                            surroundingText: (before: String, after: String) = defaultSurroundingText) -> [UInt8] {
        let encoded = base64(summary)
        var lines = ["--- BEGIN:BTSNOOP_LOG_SUMMARY (\(declaredBytes) bytes in) ---"]
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: 128, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[start..<end]))
            start = end
        }
        lines.append("--- END:BTSNOOP_LOG_SUMMARY ---")
        return Array((surroundingText.before + lines.joined(separator: "\n") + "\n" + surroundingText.after).utf8)
    }

    /// A zip holding `entries` in order, deflated (method 8) or stored (method 0).
    public static func zip(_ entries: [(name: String, bytes: [UInt8])], deflated: Bool = true) -> [UInt8] {
        var out = ByteWriter()
        var directory = ByteWriter()
        for entry in entries {
            let data = deflated ? Deflater.deflate(entry.bytes, windowBits: -15) : entry.bytes
            let crc = UInt32(entry.bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
            let name = Array(entry.name.utf8)
            let localOffset = UInt32(out.count)
            out.writeUInt32LE(0x0403_4B50)
            writeCommonFields(&out, deflated: deflated, crc: crc, compressed: data.count, size: entry.bytes.count, name: name)
            out.writeUInt16LE(0)                         // extra field length
            out.writeBytes(name)
            out.writeBytes(data)
            directory.writeUInt32LE(0x0201_4B50)
            directory.writeUInt16LE(20)                  // made by
            writeCommonFields(&directory, deflated: deflated, crc: crc, compressed: data.count, size: entry.bytes.count, name: name)
            directory.writeBytes([UInt8](repeating: 0, count: 12)) // extra, comment, disk, attributes
            directory.writeUInt32LE(localOffset)
            directory.writeBytes(name)
        }
        let directoryOffset = UInt32(out.count)
        out.writeBytes(directory.bytes)
        out.writeUInt32LE(0x0605_4B50)
        out.writeUInt32LE(0)                             // disk numbers
        out.writeUInt16LE(UInt16(entries.count))
        out.writeUInt16LE(UInt16(entries.count))
        out.writeUInt32LE(UInt32(directory.count))
        out.writeUInt32LE(directoryOffset)
        out.writeUInt16LE(0)                             // comment length
        return out.bytes
    }

    /// A zip of one bug report text.
    public static func zip(_ text: [UInt8], entryName: String, deflated: Bool = true) -> [UInt8] {
        zip([(entryName, text)], deflated: deflated)
    }

    /// version needed, flags, method, time, date, crc-32, sizes, name length.
    private static func writeCommonFields(_ out: inout ByteWriter, deflated: Bool, crc: UInt32,
                                          compressed: Int, size: Int, name: [UInt8]) {
        out.writeUInt16LE(20)
        out.writeUInt16LE(0)
        out.writeUInt16LE(deflated ? 8 : 0)
        out.writeUInt32LE(0)
        out.writeUInt32LE(crc)
        out.writeUInt32LE(UInt32(compressed))
        out.writeUInt32LE(UInt32(size))
        out.writeUInt16LE(UInt16(name.count))
    }

    /// RFC 4648 §4 base64 with `=` padding.
    private static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let group = bytes[start..<min(start + 3, bytes.endIndex)]
            let bits = group.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } << UInt32(8 * (3 - group.count))
            for index in 0..<4 {
                out.append(index <= group.count ? alphabet[Int(bits >> UInt32(18 - 6 * index) & 0x3F)] : UInt8(ascii: "="))
            }
            start += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
