import BLEBase
import Foundation
import BLELinkLayer

/// `<package root>/../shared`, where the sample captures live outside the repository.
enum SharedCaptures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/captures")

    static func url(_ relative: String) -> URL? {
        let url = root.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// One packet of a pcap or pcapng file: just enough to feed the tracker in tests.
struct TestRecord {
    var timestampUs: Int64
    var linkType: UInt32
    var bytes: [UInt8]
}

/// A minimal pcap / pcapng reader for the test target only (the real readers live in
/// CaptureFormats). Little-endian files, microsecond resolution; stops at a truncated record.
enum TestPcap {
    static func records(_ url: URL) throws -> [TestRecord] {
        let data = [UInt8](try Data(contentsOf: url))
        var reader = ByteReader(data)
        let magic = try reader.readUInt32LE("magic")
        return magic == 0x0A0D_0D0A ? try pcapng(data) : try pcap(&reader)
    }

    private static func pcap(_ reader: inout ByteReader) throws -> [TestRecord] {
        try reader.skip(16, "header")
        let linkType = try reader.readUInt32LE("link type")
        var out: [TestRecord] = []
        while reader.remaining >= 16 {
            let seconds = try reader.readUInt32LE("ts_sec")
            let micros = try reader.readUInt32LE("ts_usec")
            let included = Int(try reader.readUInt32LE("incl_len"))
            try reader.skip(4, "orig_len")
            guard included <= reader.remaining else { break }
            out.append(TestRecord(timestampUs: Int64(seconds) * 1_000_000 + Int64(micros), linkType: linkType,
                                  bytes: try reader.readBytes(included)))
        }
        return out
    }

    private static func pcapng(_ data: [UInt8]) throws -> [TestRecord] {
        var reader = ByteReader(data)
        var linkTypes: [UInt32] = []
        var unitsPerSecond: [UInt64] = []
        var out: [TestRecord] = []
        while reader.remaining >= 12 {
            let type = try reader.readUInt32LE("block type")
            let length = Int(try reader.readUInt32LE("block length"))
            guard length >= 12, length - 8 <= reader.remaining else { break }
            var body = try reader.slice(byteCount: length - 8)
            switch type {
            case 1:
                linkTypes.append(UInt32(try body.readUInt16LE("link type")))
                try body.skip(6, "reserved, snaplen")
                var units: UInt64 = 1_000_000
                while body.remaining >= 4 {
                    let code = try body.readUInt16LE("option code")
                    let length = Int(try body.readUInt16LE("option length"))
                    guard length <= body.remaining else { break }
                    var value = try body.slice(byteCount: length)
                    try body.skip(Swift.min((4 - length % 4) % 4, body.remaining))
                    if code == 9, let resolution = try? value.readUInt8("if_tsresol") {
                        let exponent = UInt64(resolution & 0x7F)
                        units = resolution & 0x80 == 0 ? (0..<exponent).reduce(1) { a, _ in a * 10 } : 1 << exponent
                    }
                    if code == 0 { break }
                }
                unitsPerSecond.append(units)
            case 6:
                let interface = Int(try body.readUInt32LE("interface"))
                let high = UInt64(try body.readUInt32LE("ts high"))
                let low = UInt64(try body.readUInt32LE("ts low"))
                let captured = Int(try body.readUInt32LE("captured"))
                try body.skip(4, "original")
                let units = interface < unitsPerSecond.count ? unitsPerSecond[interface] : 1_000_000
                let ticks = high << 32 | low
                let micros = ticks / units * 1_000_000 + ticks % units * 1_000_000 / units
                out.append(TestRecord(timestampUs: Int64(micros),
                                      linkType: interface < linkTypes.count ? linkTypes[interface] : 0,
                                      bytes: try body.readBytes(captured)))
            default:
                break
            }
        }
        return out
    }
}

/// Everything a run of the tracker over a capture produced, tallied the way the truth files count.
struct CaptureTally {
    var results: [LinkLayerResult] = []
    var byKind: [String: Int] = [:]
    var attByOpcode: [String: Int] = [:]
    var badCRC = 0
    var retransmissions = 0
    /// Bad-CRC packets whose PDU still parsed up to the CRC field (what tshark's
    /// `btle.crc.incorrect` counts; the rest it stops on as malformed).
    var badCRCDecoded = 0
    /// ATT PDUs counted per frame as tshark does: resent single-packet PDUs count again.
    var attFrames: [String: Int] = [:]
    /// 1-based frame numbers of resent single-packet ATT PDUs (tshark counts them again).
    var resentATTFrames: [Int] = []
    /// L2CAP starts that arrived while a PDU on the same (AA, direction) was incomplete.
    var interruptedPDUs: [Int] = []
    /// Continuations with no L2CAP PDU in progress on their (AA, direction).
    var orphanContinuations: [Int] = []
    /// 1-based frame numbers of the bad-CRC packets.
    var badCRCFrames: [Int] = []
    var connectIndPDUs = 0
    /// Ciphertext with LLID 11, which tshark still shows as (nonsense) control opcodes.
    var encryptedControl = 0
    var controlPDUs = 0
    var created: [LLConnection] = []
    var terminated: [(UInt32, LLErrorCode, LinkDirection)] = []
    var errors = 0

    init(_ records: [TestRecord]) {
        var tracker = LinkLayerTracker()
        var reassembly: [String: (expected: Int, have: [UInt8])] = [:]
        for (index, record) in records.enumerated() {
            let frame = index + 1
            let result = tracker.process(timestampUs: record.timestampUs, linkType: record.linkType, bytes: record.bytes)
            results.append(result)
            if result.flags.contains(.badCRC) {
                badCRC += 1
                badCRCFrames.append(frame)
            }
            if result.flags.contains(.retransmission) { retransmissions += 1 }
            if result.flags.contains(.badCRC), result.packet != nil { badCRCDecoded += 1 }
            if result.flags.contains(.encrypted), case .data(let d)? = result.packet?.pdu, d.header.llid == .control {
                encryptedControl += 1
            }
            if case .advertising(let adv)? = result.packet?.pdu, adv.header.pduType == .connectInd { connectIndPDUs += 1 }
            if result.flags.contains(.retransmission), case .data(let d)? = result.packet?.pdu,
               case .l2capStart(let bytes) = d.content {
                var r = ByteReader(bytes)
                if let length = try? r.readUInt16LE(), Int(length) + 4 == bytes.count, (try? r.readUInt16LE()) == 4,
                   let opcode = try? r.readUInt8() {
                    attFrames[Hex.code(opcode), default: 0] += 1
                    resentATTFrames.append(frame)
                }
            }
            if result.error != nil { errors += 1 }
            for event in result.events {
                switch event {
                case .connectionCreated(let c): created.append(c)
                case .connectionTerminated(let aa, let reason, let sender): terminated.append((aa, reason, sender))
                default: break
                }
            }
            if let kind = Self.kind(result) {
                byKind[kind, default: 0] += 1
                if kind.hasPrefix("ll_control") { controlPDUs += 1 }
            }
            guard let fragment = result.fragment else { continue }
            let key = "\(fragment.accessAddress)-\(fragment.direction)"
            var buffer = fragment.isStart ? [] : (reassembly[key]?.have ?? [])
            if fragment.isStart && reassembly[key] != nil { interruptedPDUs.append(frame) }
            if !fragment.isStart && reassembly[key] == nil {
                orphanContinuations.append(frame)
                continue
            }
            buffer += fragment.bytes
            var header = ByteReader(buffer)
            guard let length = try? header.readUInt16LE(), let cid = try? header.readUInt16LE() else {
                reassembly[key] = (0, buffer)
                continue
            }
            if buffer.count >= Int(length) + 4 {
                reassembly[key] = nil
                if cid == 4, let opcode = try? header.readUInt8() {
                    attByOpcode[Hex.code(opcode), default: 0] += 1
                    attFrames[Hex.code(opcode), default: 0] += 1
                }
            } else {
                reassembly[key] = (Int(length) + 4, buffer)
            }
        }
    }

    /// The truth files' `ll_by_kind` keys.
    static func kind(_ result: LinkLayerResult) -> String? {
        switch result.packet?.pdu {
        case .advertising(let adv)?:
            return "adv_pdu_type_\(adv.header.pduType.rawValue)"
        case .data(let data)?:
            switch data.content {
            case .empty: return "data_empty"
            case .control(let control): return "ll_control_\(Hex.code(control.opcode.rawValue))"
            default: return "data_llid_\(data.header.llid.rawValue)"
            }
        case nil:
            return nil
        }
    }
}
