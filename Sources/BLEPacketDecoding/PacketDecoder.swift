import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLELinkLayer

/// The streaming pipeline: each record goes in, one `DecodedPacket` comes out. State is only what
/// is live: partial L2CAP PDUs per link and direction, and partial extended advertising reports.
public struct PacketDecoder: Sendable {
    private var reassembler = L2CAPReassembler()
    private var advertising = ExtendedAdvertisingAssembler()
    private var linkLayer = LinkLayerTracker()
    private var channels = L2CAPChannelTable()

    public init() {}

    /// Decodes `record` into `packet`, replacing everything it held (its lists keep their
    /// capacity); `record` then holds the packet's previous record. A caller that decodes record
    /// after record into one packet saves building a new one aside and copying it in, and one
    /// that frees its records together takes the previous ones back this way.
    public mutating func decode(swapping record: inout CaptureRecord, into packet: inout DecodedPacket) {
        packet.replaceRecord(swapping: &record)
        decodeRecord(of: &packet)
    }

    /// Decodes the record of `packet`, whose other fields are empty except `hci`, which this
    /// sets on every path.
    private mutating func decodeRecord(of packet: inout DecodedPacket) {
        let kind = packet.record.kind
        do throws(DecodeError) {
            try decodeLayers(kind: kind, reader: packet.record.payloadReader(layer: .hci), into: &packet)
        } catch {
            // Every layer that throws does so before its packet is stored.
            packet.hci = .absent
            packet.issues.append(PacketIssue(error))
        }
        // Cut ACL records are reported by reassembly, which knows what the cut hid.
        if packet.record.isTruncated, kind != .aclData {
            packet.issues.append(PacketIssue(.cutByCapture, layer: .capture,
                                             "record cut by the capturing tool: \(packet.record.payloadCount) of \(packet.record.originalLength) bytes kept"))
        }
    }

    /// Decodes the layers of the record of `packet` (its `kind`, its payload in `reader`) into
    /// `packet`; each layer is stored where it moves into the packet instead of being copied: an
    /// event after the state it changes, an ACL packet before the reassembly reads its payload
    /// (docs/performance.md).
    private mutating func decodeLayers(kind: RecordKind, reader: consuming ByteReader,
                                       into packet: inout DecodedPacket) throws(DecodeError) {
        switch kind {
        case .hciCommand:
            limitToDeclaredLength(&reader, headerLength: 3, in: &packet)
            packet.hci = .command(try HCICommandPacket(parsing: &reader))
        case .hciEvent:
            limitToDeclaredLength(&reader, headerLength: 2, in: &packet)
            let event = try HCIEventPacket(parsing: &reader)
            handle(event, in: &packet)
            packet.hci = .event(event)
        case .aclData:
            let acl = try ACLDataPacket(parsing: &reader, allowTruncated: true)
            let handle = acl.connectionHandle, isStart = acl.packetBoundary.isStart
            // Stored first, so that it moves into the packet (after the reassembly it would be copied).
            // The fragment, every byte of the record after the header, is the parsed reader moved
            // back to the payload: a second reader over the record would cost a retain and a release
            // per ACL record, and one taken from the packet a copy and a destroy of the whole packet.
            packet.setHCI(acl: acl)
            reader.rewind(to: acl.payloadRange.lowerBound)
            reassemble(handle: handle, isStart: isStart, fragment: reader, in: &packet)
        case .scoData:
            packet.hci = .sco(try SCODataPacket(parsing: &reader))
        case .isoData:
            packet.hci = .iso(try ISODataPacket(parsing: &reader))
        case .linkLayer(let linkType):
            packet.hci = .absent
            decodeAir(linkType: linkType, in: &packet)
        case .note, .control, .unknown:
            packet.hci = .absent
        }
    }

    /// Limits `reader` to the packet as long as its parameter length says, so that bytes a
    /// capturing tool appended after it become an issue instead of hiding the packet
    /// (Core v5.4 Vol 4 Part E §5.4.1/§5.4.4: the length is the last header byte). The length is
    /// peeked at in place (each copy of the reader to read it would cost a retain and a release per
    /// HCI packet); only a packet with bytes after it gets a reader of its own.
    private func limitToDeclaredLength(_ reader: inout ByteReader, headerLength: Int, in packet: inout DecodedPacket) {
        guard let declared = reader.peekUInt8(ahead: headerLength - 1) else { return }
        let end = headerLength + Int(declared)
        guard reader.remaining > end, let declaredPart = try? reader.slice(byteCount: end) else { return }
        packet.issues.append(PacketIssue(.malformed, layer: .hci,
            "\(packet.record.payloadCount - end) byte(s) after the \(end)-byte packet its length field declares"))
        reader = declaredPart
    }

    /// What is still pending at the end of the capture, reported as issues.
    public mutating func finish() -> [PacketIssue] {
        var issues = reassembler.flushAll().compactMap { describe($0) }
        for output in advertising.flush() {
            if case .abandoned(let report, let fragments, _) = output {
                issues.append(PacketIssue(.advertisingAbandoned, layer: .hci,
                    "extended advertising from \(report.address) ended after \(fragments) fragment(s) without its last one"))
            }
        }
        return issues
    }

    // MARK: Events that change decoder state

    private mutating func handle(_ event: HCIEventPacket, in packet: inout DecodedPacket) {
        switch event.body {
        case .leMeta(let meta):
            if case .extendedAdvertisingReport(let reports) = meta.body {
                for report in reports {
                    for output in advertising.feed(report) {
                        packet.joinedAdvertising.append(output)
                        if case .abandoned(let partial, let fragments, let reason) = output {
                            packet.issues.append(PacketIssue(.advertisingAbandoned, layer: .hci,
                                "extended advertising from \(partial.address) dropped after \(fragments) fragment(s): \(reason.rawValue)"))
                        }
                    }
                }
            }
        case .disconnectionComplete(let disconnection):
            flush(connection: UInt32(disconnection.connectionHandle), adapter: packet.record.adapter, in: &packet)
        default:
            break
        }
    }

    // MARK: Air packets → L2CAP

    /// Runs the link-layer tracker; data fragments go to the same reassembler as HCI ACL, keyed by
    /// access address and direction (Core v5.4 Vol 6 Part B §2.4: LLID 10 starts an L2CAP PDU).
    private mutating func decodeAir(linkType: UInt32, in packet: inout DecodedPacket) {
        let record = packet.record
        let result = linkLayer.process(timestampUs: record.timestampUs, linkType: linkType, bytes: record.payload,
                                       baseOffset: 0)
        packet.air = result
        if let error = result.error { packet.issues.append(PacketIssue(error)) }
        if let direction = result.direction { packet.record.direction = Self.direction(direction) }
        if case .advertising(let adv)? = result.packet?.pdu, let data = adv.advertisingData, !data.isEmpty {
            var reader = ByteReader(data, layer: .advertisingData)
            packet.airAdvertisingData = AdvertisingData(parsing: &reader)
        }
        if let fragment = result.fragment {
            let direction = Self.direction(fragment.direction)
            let key = FragmentStreamKey(connection: fragment.accessAddress, direction: Self.code(direction))
            feed(ByteReader(fragment.bytes, layer: .l2cap), key: key, isStart: fragment.isStart, truncatedBy: 0,
                 link: .air(accessAddress: fragment.accessAddress), direction: direction, in: &packet)
        }
        for event in result.events {
            if case .connectionTerminated(let accessAddress, _, _) = event {
                flush(connection: accessAddress, adapter: nil, in: &packet)
            }
        }
    }

    static func direction(_ direction: LinkDirection) -> Direction {
        direction == .centralToPeripheral ? .centralToPeripheral : .peripheralToCentral
    }

    // MARK: ACL → L2CAP → ATT/SMP/signalling

    /// A partial PDU cannot complete once its link is gone (Vol 3 Part A §7.2).
    private mutating func flush(connection: UInt32, adapter: UInt16?, in packet: inout DecodedPacket) {
        channels.removeLink(adapter == nil && packet.isAir ? .air(accessAddress: connection)
                            : .hci(adapter: adapter, handle: UInt16(truncatingIfNeeded: connection)))
        for code: UInt8 in 0...2 {
            let key = FragmentStreamKey(adapter: adapter, connection: connection, direction: code)
            if let event = reassembler.flush(key: key), let issue = describe(event) {
                packet.issues.append(issue)
            }
        }
    }

    static func code(_ direction: Direction) -> UInt8 {
        switch direction {
        case .sent, .centralToPeripheral: return 0
        case .received, .peripheralToCentral: return 1
        case .unknown: return 2
        }
    }

    /// Feeds an ACL packet's payload (`fragment`) to the reassembler.
    private mutating func reassemble(handle: UInt16, isStart: Bool, fragment: consuming ByteReader,
                                     in packet: inout DecodedPacket) {
        let adapter = packet.record.adapter
        let direction = packet.record.direction
        let key = FragmentStreamKey(adapter: adapter, connection: UInt32(handle), direction: Self.code(direction))
        let missing = max(0, packet.record.originalLength - packet.record.payloadCount)
        feed(fragment, key: key, isStart: isStart, truncatedBy: missing, link: .hci(adapter: adapter, handle: handle),
             direction: direction, in: &packet)
    }

    /// Feeds one fragment to the reassembler and adds what it completed, or the anomaly it
    /// caused, to `packet`. A whole PDU in one fragment (the common case) skips the events.
    private mutating func feed(_ fragment: consuming ByteReader, key: FragmentStreamKey, isStart: Bool, truncatedBy: Int,
                               link: LinkID, direction: Direction, in packet: inout DecodedPacket) {
        let recordIndex = packet.record.index
        let timestampUs = packet.record.timestampUs
        switch reassembler.feed(key: key, isStart: isStart, fragment: fragment, recordIndex: recordIndex,
                                timestampUs: timestampUs, truncatedBy: truncatedBy) {
        case .frame(let frame):
            let cid = frame.channelID.rawValue
            packet.l2cap.append(L2CAPPDU(link: link, direction: direction, frame: frame, content: .other(error: nil)))
            packet.l2cap.decodeLastContent()
            if Self.followsChannels(cid) { followChannels(in: &packet) }
        case .events(let interrupted, let outcome):
            if let interrupted { collect(interrupted, link: link, direction: direction, in: &packet) }
            if let outcome { collect(outcome, link: link, direction: direction, in: &packet) }
        }
    }

    private mutating func collect(_ event: ReassemblyEvent, link: LinkID, direction: Direction, in packet: inout DecodedPacket) {
        if case .complete(let frame) = event {
            let cid = frame.channelID.rawValue
            packet.l2cap.append(L2CAPPDU(link: link, direction: direction, frame: frame, content: .other(error: nil)))
            packet.l2cap.decodeLastContent()
            if Self.followsChannels(cid) { followChannels(in: &packet) }
        } else if let issue = describe(event) {
            packet.issues.append(issue)
        }
    }

    /// Signalling (BR/EDR 0x0001, LE 0x0005) and dynamic channels go to the channel table; the
    /// fixed channels, nearly all of the traffic, only compare their CID.
    @inline(__always)
    static func followsChannels(_ cid: UInt16) -> Bool { cid >= 0x0040 || cid == 0x0001 || cid == 0x0005 }

    /// The last PDU of `packet`, on a signalling or dynamic channel: signalling opens and closes
    /// channels in the table; a dynamic channel's PDU gets its PSM, and its ATT decoded where the
    /// channel carries ATT.
    private mutating func followChannels(in packet: inout DecodedPacket) {
        var issues: [PacketIssue] = []
        packet.l2cap.updateLast { pdu in
            if case .signalling(let signalling) = pdu.content {
                channels.learn(signalling, link: pdu.link, direction: pdu.direction)
            } else if pdu.frame.channelID.rawValue >= 0x0040 {
                channels.decode(&pdu, issues: &issues)
            }
        }
        packet.issues += issues
    }

    /// Decodes an L2CAP payload by its channel (Vol 3 Part A §2.1 fixed channels), reading the
    /// frame's body in place and leaving it as it was: a reader copied from it would cost a retain and
    /// a release per PDU (`L2CAPPDUs.decodeLastContent()` lends the frame where the packet holds it).
    static func content(of frame: inout L2CAPFrame) -> L2CAPContent {
        let start = frame.body.position, layer = frame.body.layer
        defer {
            frame.body.rewind(to: start)
            frame.body.layer = layer
        }
        return content(channel: frame.channelID, body: &frame.body)
    }

    private static func content(channel: ChannelID, body reader: inout ByteReader) -> L2CAPContent {
        let start = reader.position
        reader.layer = .att
        switch channel {
        case .attribute:
            do throws(DecodeError) {
                return .att(try ATTPDU(parsing: &reader))
            } catch {
                reader.rewind(to: start)
                return .malformedATT(opcode: ATTPDU.peekOpcode(reader), error: error)
            }
        case .securityManager, .brEdrSecurityManager:
            reader.layer = .smp
            do throws(DecodeError) { return .smp(try SMPCommand(parsing: &reader)) } catch { return .other(error: error) }
        case .leSignalling, .signalling:
            reader.layer = .signalling
            do throws(DecodeError) { return .signalling(try SignallingPDU(parsing: &reader)) } catch { return .other(error: error) }
        default:
            return .other(error: nil)
        }
    }

    private func describe(_ event: ReassemblyEvent) -> PacketIssue? {
        switch event {
        case .complete:
            return nil
        case .orphanContinuation(_, let recordIndex, let byteCount):
            return PacketIssue(.orphanContinuation, layer: .l2cap,
                               "continuation fragment of \(byteCount) bytes (record \(recordIndex)) with no start fragment before it")
        case .overrun(let frame, let extra):
            return PacketIssue(.overrun, layer: .l2cap,
                               "\(extra) byte(s) beyond the L2CAP length in the PDU started at record \(frame.firstRecordIndex)")
        case .interrupted(let partial, let byRecord):
            return PacketIssue(.interruptedPDU, layer: .l2cap,
                               "PDU started at record \(partial.firstRecordIndex) abandoned after \(partial.receivedByteCount) of \(partial.expectedByteCount.map(String.init) ?? "?") bytes: record \(byRecord) starts a new one")
        case .cutShort(let partial):
            return PacketIssue(.cutByCapture, layer: .l2cap, Self.cutShortMessage(partial),
                               hiddenATTOpcode: Self.visibleATTOpcode(partial)?.rawValue)
        case .flushed(let partial):
            return PacketIssue(.incompletePDU, layer: .l2cap,
                               "PDU started at record \(partial.firstRecordIndex) never completed: \(partial.receivedByteCount) of \(partial.expectedByteCount.map(String.init) ?? "?") bytes")
        }
    }

    static func cutShortMessage(_ partial: PartialL2CAPFrame) -> String {
        var message = "L2CAP PDU from record \(partial.firstRecordIndex) cut by the capturing tool: "
            + "\(partial.receivedByteCount) of \(partial.expectedByteCount.map(String.init) ?? "?") bytes kept"
        if let opcode = visibleATTOpcode(partial) {
            message += "; hides the rest of an ATT \(opcode.name)"
        }
        return message
    }

    /// The opcode of a cut ATT PDU, when its first byte survived.
    static func visibleATTOpcode(_ partial: PartialL2CAPFrame) -> ATTOpcode? {
        guard let header = partial.header, header.channelID == .attribute else { return nil }
        return ATTPDU.peekOpcode(ByteReader(Array(partial.bytes.dropFirst(L2CAPBasicHeader.size))))
    }
}
