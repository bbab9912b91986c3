import BLEBase
import BLECaptureFormats

/// Builds an air-sniffer capture from a described scenario: advertising PDUs, CONNECT_IND and
/// data channel PDUs, framed as the nRF Sniffer writes them (link type 272, protocol v3), with
/// the 10-byte RF pseudo-header (link type 256) or as a raw link-layer packet (link type 251). Layouts follow Core v5.4 Vol 6 Part B §2.1, §2.3,
/// §2.4 and the nRF Sniffer header as Wireshark's `packet-nordic_ble.c` reads it; CRCs are
/// computed (§3.1.1) unless a test asks for a bad one. The encoders are written apart from the
/// decoders so that tests built on them check the decoders.
public struct AirScenario: Sendable {
    public enum Framing: Sendable { case nordic, phdr, raw }
    /// Who sends a data PDU.
    public enum Sender: Sendable { case central, peripheral }
    /// LLID of a data PDU (§2.4): 1 continuation or empty, 2 start, 3 control.
    public enum LLID: UInt8, Sendable { case continuation = 1, start = 2, control = 3 }

    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    /// nRF Sniffer flags of a data PDU (`packet-nordic_ble.c`): bit 0 CRC OK, bit 1 central to
    /// peripheral, bit 2 encrypted (MIC checked), bit 3 MIC OK.
    public struct NordicFlags: OptionSet, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let encrypted = NordicFlags(rawValue: 0x04)
        public static let micOK = NordicFlags(rawValue: 0x08)
        /// Encrypted and decrypted by the sniffer: the MIC removed, Length reduced.
        public static let decrypted: NordicFlags = [.encrypted, .micOK]
    }

    public private(set) var records: [CaptureRecord] = []
    public var framing: Framing
    public var clockUs: Int64
    /// CRCInit of each access address announced so far (data CRCs are computed with it).
    private var crcInits: [UInt32: UInt32] = [:]
    private var packetCounter: UInt16 = 0
    private struct SequenceState: Sendable {
        var central = (sn: false, nesn: false)
        var peripheral = (sn: false, nesn: false)
    }
    private var sequence: [UInt32: SequenceState] = [:]

    public init(framing: Framing = .nordic, startUs: Int64 = 1_714_033_432_000_000) {
        self.framing = framing
        clockUs = startUs
    }

    public var linkType: UInt32 {
        switch framing {
        case .nordic: return 272
        case .phdr: return 256
        case .raw: return 251
        }
    }

    public mutating func wait(ms: Double) { clockUs += Int64(ms * 1000) }

    /// The capture as a pcap file.
    public var pcap: [UInt8] { CaptureWriter.pcap(records, linkType: linkType) }

    // MARK: Advertising channel

    /// ADV_IND from `advA` (§2.3.1.1), on channel 37.
    public mutating func advertise(_ advA: BluetoothAddress, random: Bool = false, data: [UInt8] = [],
                                   accessAddress: UInt32 = AirScenario.advertisingAccessAddress, crcOK: Bool = true) {
        let header: UInt8 = 0x00 | (random ? 0x40 : 0)
        advertisingPDU(header: header, payload: advA.wire + data, accessAddress: accessAddress, crcOK: crcOK)
    }

    /// CONNECT_IND (§2.3.3.1) from `initA` to `advA`; `truncatedTo` cuts the payload (and Length)
    /// short of its 34 bytes.
    public mutating func connectInd(initA: BluetoothAddress, advA: BluetoothAddress, accessAddress: UInt32,
                                    crcInit: UInt32 = 0x5A_3C_11, intervalUnits: UInt16 = 24, timeoutUnits: UInt16 = 200,
                                    truncatedTo length: Int? = nil, crcOK: Bool = true) {
        var w = ByteWriter()
        w.writeBytes(initA.wire)
        w.writeBytes(advA.wire)
        w.writeUInt32LE(accessAddress)
        w.writeUInt8(UInt8(crcInit & 0xFF)); w.writeUInt8(UInt8((crcInit >> 8) & 0xFF)); w.writeUInt8(UInt8(crcInit >> 16))
        w.writeUInt8(2)                       // WinSize
        w.writeUInt16LE(0)                    // WinOffset
        w.writeUInt16LE(intervalUnits)
        w.writeUInt16LE(0)                    // Latency
        w.writeUInt16LE(timeoutUnits)
        w.writeBytes([0xFF, 0xFF, 0xFF, 0xFF, 0x1F])
        w.writeUInt8(0x07 | 0x20)             // Hop 7, SCA 1
        let payload = Array(w.bytes.prefix(length ?? 34))
        crcInits[accessAddress] = crcInit
        sequence[accessAddress] = nil
        advertisingPDU(header: 0x05, payload: payload, accessAddress: AirScenario.advertisingAccessAddress, crcOK: crcOK)
    }

    private mutating func advertisingPDU(header: UInt8, payload: [UInt8], accessAddress: UInt32, crcOK: Bool) {
        let pdu = [header, UInt8(payload.count)] + payload
        var crc = Self.crc(pdu, initial: 0x55_55_55)
        if !crcOK { crc ^= 0x00_00_01 }
        packet(accessAddress: accessAddress, pdu: pdu, crc: crc, channel: 37, nordicFlags: crcOK ? 0x01 : 0x00,
               packetID: 0x02)
    }

    // MARK: Data channel

    /// A data channel PDU (§2.4): header LLID/NESN/SN, Length = payload count. `flags` are the
    /// sniffer's encryption bits; `channel` defaults to data channel 5. A decrypted PDU keeps
    /// its 4-byte MIC (`mic`) after the plaintext, counted in Length, with the RF pseudo-header
    /// only: the nRF Sniffer removes it and reduces Length. An encrypted PDU the sniffer did not
    /// decrypt carries a stand-in ciphertext (the payload XOR 0x5A) and the MIC.
    public mutating func data(_ accessAddress: UInt32, _ sender: Sender, llid: LLID, sn: Bool, nesn: Bool,
                              _ payload: [UInt8], flags: NordicFlags = [], channel: UInt8 = 5, crcOK: Bool = true,
                              mic: [UInt8] = [0xA1, 0xA2, 0xA3, 0xA4]) {
        var first = llid.rawValue
        if nesn { first |= 0x04 }
        if sn { first |= 0x08 }
        var body = payload
        if !payload.isEmpty && flags.contains(.encrypted) {
            if !flags.contains(.micOK) {
                // Not decrypted: what went on air, a stand-in ciphertext and the MIC (§2.4).
                body = payload.map { $0 ^ 0x5A } + mic
            } else if framing == .phdr {
                body = payload + mic
            }
        }
        let pdu = [first, UInt8(body.count)] + body
        var crc = Self.crc(pdu, initial: crcInits[accessAddress] ?? 0x55_55_55)
        if !crcOK { crc ^= 0x00_00_01 }
        var nordic = flags.rawValue | (crcOK ? 0x01 : 0)
        if sender == .central { nordic |= 0x02 }
        packet(accessAddress: accessAddress, pdu: pdu, crc: crc, channel: channel, nordicFlags: nordic, packetID: 0x06)
    }

    /// A data PDU with the sender's sequence bits as a link both of whose sides receive every
    /// packet would carry them (§4.5.9): SN = transmitSeqNum, NESN = nextExpectedSeqNum; the
    /// receiver takes new data when SN equals its NESN, and the sender's next packet is new once
    /// the peer's NESN moved past its SN.
    public mutating func send(_ accessAddress: UInt32, _ sender: Sender, llid: LLID, _ payload: [UInt8],
                              flags: NordicFlags = [], channel: UInt8 = 5) {
        var state = sequence[accessAddress] ?? SequenceState()
        let own = sender == .central ? state.central : state.peripheral
        data(accessAddress, sender, llid: llid, sn: own.sn, nesn: own.nesn, payload, flags: flags, channel: channel)
        var peer = sender == .central ? state.peripheral : state.central
        if own.sn == peer.nesn { peer.nesn.toggle() }
        if own.nesn != peer.sn { peer.sn.toggle() }
        if sender == .central { state.peripheral = peer } else { state.central = peer }
        sequence[accessAddress] = state
    }

    /// An L2CAP basic frame (Core v5.4 Vol 3 Part A §3.1) in one LL Data start PDU.
    public mutating func l2cap(_ accessAddress: UInt32, _ sender: Sender, cid: UInt16, _ body: [UInt8],
                               flags: NordicFlags = []) {
        var w = ByteWriter()
        w.writeUInt16LE(UInt16(body.count))
        w.writeUInt16LE(cid)
        w.writeBytes(body)
        send(accessAddress, sender, llid: .start, w.bytes, flags: flags)
    }

    /// An ATT PDU on CID 4.
    public mutating func att(_ accessAddress: UInt32, _ sender: Sender, _ pdu: [UInt8], flags: NordicFlags = []) {
        l2cap(accessAddress, sender, cid: 0x0004, pdu, flags: flags)
    }

    /// An SMP PDU on CID 6.
    public mutating func smp(_ accessAddress: UInt32, _ sender: Sender, _ pdu: [UInt8], flags: NordicFlags = []) {
        l2cap(accessAddress, sender, cid: 0x0006, pdu, flags: flags)
    }

    /// An empty PDU (LLID 01, Length 0).
    public mutating func empty(_ accessAddress: UInt32, _ sender: Sender, flags: NordicFlags = []) {
        send(accessAddress, sender, llid: .continuation, [], flags: flags)
    }

    /// LL_TERMINATE_IND (§2.4.2.2) with its error code.
    public mutating func terminate(_ accessAddress: UInt32, _ sender: Sender, reason: UInt8, flags: NordicFlags = []) {
        send(accessAddress, sender, llid: .control, [0x02, reason], flags: flags)
    }

    /// One record: the nRF Sniffer v3 header and event packet, or nothing (link type 251), then
    /// access address, PDU and CRC (three bytes, transmitted order).
    private mutating func packet(accessAddress: UInt32, pdu: [UInt8], crc: UInt32, channel: UInt8, nordicFlags: UInt8,
                                 packetID: UInt8) {
        var ll = ByteWriter()
        ll.writeUInt32LE(accessAddress)
        ll.writeBytes(pdu)
        ll.writeUInt8(UInt8(crc & 0xFF)); ll.writeUInt8(UInt8((crc >> 8) & 0xFF)); ll.writeUInt8(UInt8(crc >> 16))
        var out = ByteWriter()
        if framing == .phdr {
            // RF channel, signal, noise, AA offenses, reference AA, flags: dewhitened, signal
            // valid, decrypted (nRF bits 2+3), CRC checked, CRC valid, PDU type 0 advertising,
            // 2 data C→P, 3 data P→C, MIC checked and valid.
            var phdrFlags: UInt16 = 0x0001 | 0x0002 | 0x0400
            if nordicFlags & 0x01 != 0 { phdrFlags |= 0x0800 }
            if packetID == 0x06 {
                phdrFlags |= (nordicFlags & 0x02 != 0 ? 2 : 3) << 7
                if nordicFlags & 0x0C == 0x0C { phdrFlags |= 0x0008 | 0x1000 | 0x2000 }
            }
            out.writeUInt8(channel == 37 ? 0 : channel + 1)
            out.writeUInt8(UInt8(bitPattern: -50))
            out.writeUInt8(0)
            out.writeUInt8(0)
            out.writeUInt32LE(accessAddress)
            out.writeUInt16LE(phdrFlags)
        } else if framing == .nordic {
            packetCounter &+= 1
            out.writeUInt8(0x00)                                 // board
            out.writeUInt16LE(UInt16(10 + ll.bytes.count))      // payload length: event packet + LL
            out.writeUInt8(3)                                    // protocol version 3
            out.writeUInt16LE(packetCounter)
            out.writeUInt8(packetID)                             // 0x02 advertising, 0x06 data
            out.writeUInt8(10)                                   // event packet length
            out.writeUInt8(nordicFlags)
            out.writeUInt8(channel)
            out.writeUInt8(50)                                   // RSSI −50 dBm
            out.writeUInt16LE(0)                                 // event counter
            out.writeUInt32LE(UInt32(truncatingIfNeeded: clockUs))  // firmware timestamp
        }
        out.writeBytes(ll.bytes)
        records.append(CaptureRecord(index: records.count + 1, timestampUs: clockUs, direction: .unknown,
                                     kind: .linkLayer(linkType: linkType), payload: out.bytes))
        clockUs += 625
    }
}

extension AirScenario {
    /// The CRC field (§3.1.1) read little-endian: a 24-bit LFSR preset with `initial`, taps of
    /// x²⁴+x¹⁰+x⁹+x⁶+x⁴+x³+x+1, fed LSB first; sent from its last position first, so the field
    /// holds the register bit-reversed.
    static func crc(_ pdu: [UInt8], initial: UInt32) -> UInt32 {
        var register = initial & 0xFF_FFFF
        for byte in pdu {
            for bit in 0..<8 {
                let input = UInt32(byte >> UInt8(bit)) & 1
                let feedback = (register >> 23) & 1 ^ input
                register = (register << 1) & 0xFF_FFFF
                if feedback == 1 { register ^= 0x00_065B }
            }
        }
        var field: UInt32 = 0
        for position in 0..<24 where register & (1 << UInt32(position)) != 0 { field |= 1 << UInt32(23 - position) }
        return field
    }
}
