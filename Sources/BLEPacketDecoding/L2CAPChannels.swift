import BLEATT
import BLEBase
import BLECaptureFormats
import BLEL2CAP

/// Which channel an L2CAP PDU travelled on: its PSM when the capture showed the channel being
/// opened, and the CIDs of both ends. "Local" is the capture's side (the host of an HCI
/// capture, the central over the air): PDUs it receives carry `localCID`, those it sends
/// `remoteCID`. On a fixed channel both are the fixed CID and `psm` is 0.
public struct ChannelEnds: Sendable, Equatable {
    /// 0 on a fixed channel and on a dynamic one whose opening the capture lacks.
    public var psm: UInt16
    public var localCID: UInt16
    public var remoteCID: UInt16
    /// A K-frame carrying part of an SDU that a later K-frame completes (credit-based modes).
    public var sduSegment: Bool

    public init(psm: UInt16, localCID: UInt16, remoteCID: UInt16, sduSegment: Bool = false) {
        self.psm = psm
        self.localCID = localCID
        self.remoteCID = remoteCID
        self.sduSegment = sduSegment
    }

    /// A fixed channel's (and the placeholder's) ends.
    public static let fixed = ChannelEnds(psm: 0, localCID: 0, remoteCID: 0)
}

/// The dynamic channels of every live link, built from the signalling (Core v5.4 Vol 3 Part A
/// §4.2–4.3 Connection Request/Response and Configuration on BR/EDR; §4.22–4.25 LE and enhanced
/// Credit Based Connection Request/Response), and the SDUs being joined on credit-based
/// channels (§3.4.3: the first K-frame of an SDU starts with its 2-byte length).
/// Only signalling PDUs and PDUs on dynamic CIDs reach it; fixed-channel traffic never does.
struct L2CAPChannelTable {
    struct Channel {
        var psm: UInt16
        /// The identifier of the request that opens it, until the response comes.
        var identifier: UInt8
        var requestedByLocal: Bool
        /// 0 until known.
        var localCID: UInt16
        var remoteCID: UInt16
        var open: Bool
        var creditBased: Bool
        /// Basic mode unless a Configuration Request chose another (Vol 3 Part A §5.4): the
        /// other modes add control fields this decoder does not strip.
        var basicMode = true
        /// Partial SDUs per direction (index 0 towards the remote end, 1 towards the local end).
        var sdu: [[UInt8]] = [[], []]
        var sduLength: [Int] = [-1, -1]
    }

    /// Channels per link; a link holds a handful.
    private var links: [LinkID: [Channel]] = [:]
    /// More channels than this on one link are not tracked (a capture cannot grow memory).
    static let channelsPerLink = 64

    mutating func removeLink(_ link: LinkID) { links[link] = nil }

    static func isLocal(_ direction: Direction) -> Bool? {
        switch direction {
        case .sent, .centralToPeripheral: return true
        case .received, .peripheralToCentral: return false
        case .unknown: return nil
        }
    }

    /// Learns from one signalling C-frame sent in `direction`.
    mutating func learn(_ pdu: SignallingPDU, link: LinkID, direction: Direction) {
        let fromLocal = Self.isLocal(direction) ?? true
        for command in pdu.commands {
            switch command.parameters {
            case .leCreditBasedConnectionRequest(let request):
                add(Channel(psm: request.spsm, identifier: command.identifier, requestedByLocal: fromLocal,
                            localCID: fromLocal ? request.sourceCID.rawValue : 0,
                            remoteCID: fromLocal ? 0 : request.sourceCID.rawValue, open: false, creditBased: true), to: link)
            case .creditBasedConnectionRequest(let request):
                for cid in request.sourceCIDs {
                    add(Channel(psm: request.spsm, identifier: command.identifier, requestedByLocal: fromLocal,
                                localCID: fromLocal ? cid.rawValue : 0, remoteCID: fromLocal ? 0 : cid.rawValue,
                                open: false, creditBased: true), to: link)
                }
            case .leCreditBasedConnectionResponse(let response):
                respond(link: link, identifier: command.identifier, fromLocal: fromLocal,
                        cids: [response.destinationCID.rawValue], success: response.result.rawValue == 0)
            case .creditBasedConnectionResponse(let response):
                // Each refused channel's CID is 0 (§4.26); the result may still be non-zero.
                respond(link: link, identifier: command.identifier, fromLocal: fromLocal,
                        cids: response.destinationCIDs.map(\.rawValue), success: true)
            case .disconnectionResponse(let pair):
                // The response's destination CID is the end that asked (§4.7).
                links[link]?.removeAll { $0.open && ($0.localCID == pair.destinationCID.rawValue || $0.localCID == pair.sourceCID.rawValue)
                    && ($0.remoteCID == pair.destinationCID.rawValue || $0.remoteCID == pair.sourceCID.rawValue) }
            case .raw(let data):
                learnBREDR(code: command.code, identifier: command.identifier, data: data, link: link, fromLocal: fromLocal)
            default:
                break
            }
        }
    }

    /// BR/EDR Connection Request/Response and Configuration Request, whose data the L2CAP
    /// module leaves raw (§4.2, §4.3, §4.4).
    private mutating func learnBREDR(code: SignallingCode, identifier: UInt8, data: [UInt8], link: LinkID, fromLocal: Bool) {
        var r = ByteReader(data, layer: .signalling)
        do throws(DecodeError) {
            switch code {
            case .connectionRequest:
                let psm = try r.readUInt16LE("PSM"), source = try r.readUInt16LE("Source CID")
                add(Channel(psm: psm, identifier: identifier, requestedByLocal: fromLocal,
                            localCID: fromLocal ? source : 0, remoteCID: fromLocal ? 0 : source, open: false,
                            creditBased: false), to: link)
            case .connectionResponse:
                let destination = try r.readUInt16LE("Destination CID"), source = try r.readUInt16LE("Source CID")
                let result = try r.readUInt16LE("Result")
                guard result != 0x0001 else { return }  // pending: another response follows
                guard let i = links[link]?.firstIndex(where: {
                    !$0.open && $0.requestedByLocal != fromLocal && ($0.requestedByLocal ? $0.localCID : $0.remoteCID) == source
                }) else { return }
                if result != 0 {
                    links[link]?.remove(at: i)
                } else if fromLocal {
                    links[link]?[i].localCID = destination
                    links[link]?[i].open = true
                } else {
                    links[link]?[i].remoteCID = destination
                    links[link]?[i].open = true
                }
            case .configurationRequest:
                // The destination CID is the receiving end's; options follow the flags.
                let destination = try r.readUInt16LE("Destination CID")
                _ = try r.readUInt16LE("Flags")
                while r.remaining >= 2 {
                    let type = try r.readUInt8("option type") & 0x7F, length = Int(try r.readUInt8("option length"))
                    var option = try r.slice(byteCount: length, "option")
                    // Retransmission and Flow Control option (§5.4): its first byte is the mode.
                    if type == 0x04, length >= 1 {
                        let mode = try option.readUInt8("mode")
                        if let i = links[link]?.firstIndex(where: { (fromLocal ? $0.remoteCID : $0.localCID) == destination }) {
                            links[link]?[i].basicMode = mode == 0
                        }
                    }
                }
            default:
                break
            }
        } catch {
            return
        }
    }

    private mutating func add(_ channel: Channel, to link: LinkID) {
        var channels = links.removeValue(forKey: link) ?? []
        // A CID the same end reuses replaces its previous channel.
        channels.removeAll { channel.requestedByLocal ? $0.localCID == channel.localCID : $0.remoteCID == channel.remoteCID }
        if channels.count < Self.channelsPerLink { channels.append(channel) }
        links[link] = channels
    }

    private mutating func respond(link: LinkID, identifier: UInt8, fromLocal: Bool, cids: [UInt16], success: Bool) {
        guard var channels = links.removeValue(forKey: link) else { return }
        var next = 0
        var refused: [Int] = []
        for i in channels.indices where !channels[i].open && channels[i].identifier == identifier
            && channels[i].requestedByLocal != fromLocal {
            let cid = next < cids.count ? cids[next] : 0
            next += 1
            if !success || cid == 0 {
                refused.append(i)
            } else {
                if fromLocal { channels[i].localCID = cid } else { channels[i].remoteCID = cid }
                channels[i].open = true
            }
        }
        for i in refused.reversed() { channels.remove(at: i) }
        links[link] = channels
    }

    /// The channel a PDU on dynamic `cid` travelled on: PDUs towards the local end carry its CID.
    private func index(link: LinkID, cid: UInt16, direction: Direction) -> Int? {
        guard let channels = links[link] else { return nil }
        let towardsLocal = Self.isLocal(direction).map { !$0 }
        return channels.firstIndex { channel in
            guard channel.open else { return false }
            switch towardsLocal {
            case true?: return channel.localCID == cid
            case false?: return channel.remoteCID == cid
            case nil: return channel.localCID == cid || channel.remoteCID == cid
            }
        }
    }

    /// Decodes what a PDU on a dynamic channel carries: ATT on a channel opened for PSM 0x001F
    /// (basic mode) or 0x0027 (enhanced credit-based, SDUs joined from K-frames); for other
    /// channels only which channel it is.
    mutating func decode(_ pdu: inout L2CAPPDU, issues: inout [PacketIssue]) {
        let cid = pdu.frame.channelID.rawValue
        guard let i = index(link: pdu.link, cid: cid, direction: pdu.direction) else {
            pdu.channel = Self.isLocal(pdu.direction) == true
                ? ChannelEnds(psm: 0, localCID: 0, remoteCID: cid) : ChannelEnds(psm: 0, localCID: cid, remoteCID: 0)
            return
        }
        let link = pdu.link
        let channel = links[link]![i]
        pdu.channel = ChannelEnds(psm: channel.psm, localCID: channel.localCID, remoteCID: channel.remoteCID)
        let carriesATT = channel.psm == PSM.att.rawValue && channel.basicMode && !channel.creditBased
            || channel.psm == PSM.eatt.rawValue && channel.creditBased
        guard channel.creditBased || carriesATT else { return }
        var body = pdu.frame.body
        if channel.creditBased {
            let side = Self.isLocal(pdu.direction) == false ? 1 : 0
            guard let sdu = joinSDU(&body, link: link, index: i, side: side, pdu: pdu, issues: &issues) else {
                pdu.channel.sduSegment = true
                return
            }
            body = sdu
        }
        guard carriesATT else { return }
        let start = body.position
        body.layer = .att
        do throws(DecodeError) {
            pdu.content = .att(try ATTPDU(parsing: &body))
        } catch {
            body.rewind(to: start)
            pdu.content = .malformedATT(opcode: ATTPDU.peekOpcode(body), error: error)
        }
    }

    /// One K-frame's part of an SDU; the whole SDU when this K-frame completes it.
    private mutating func joinSDU(_ body: inout ByteReader, link: LinkID, index i: Int, side: Int, pdu: L2CAPPDU,
                                  issues: inout [PacketIssue]) -> ByteReader? {
        if links[link]![i].sduLength[side] < 0 {
            guard let length = try? body.readUInt16LE("SDU length") else {
                issues.append(PacketIssue(.malformed, layer: .l2cap, "K-frame too short for its SDU length"))
                return nil
            }
            if body.remaining == Int(length) { return body.sliceRemaining() }
            guard body.remaining < Int(length) else {
                issues.append(PacketIssue(.overrun, layer: .l2cap,
                    "K-frame carries \(body.remaining) bytes for an SDU of \(length) (CID \(Hex.code(pdu.frame.channelID.rawValue, width: 4)))"))
                return nil
            }
            links[link]![i].sduLength[side] = Int(length)
            links[link]![i].sdu[side] = Array(body.unreadBytes)
            return nil
        }
        links[link]![i].sdu[side] += body.unreadBytes
        let expected = links[link]![i].sduLength[side]
        let joined = links[link]![i].sdu[side].count
        guard joined >= expected else { return nil }
        let bytes = links[link]![i].sdu[side]
        links[link]![i].sdu[side] = []
        links[link]![i].sduLength[side] = -1
        if joined > expected {
            issues.append(PacketIssue(.overrun, layer: .l2cap, "\(joined - expected) byte(s) beyond the SDU length \(expected)"))
            return nil
        }
        return ByteReader(bytes, layer: .att)
    }
}
