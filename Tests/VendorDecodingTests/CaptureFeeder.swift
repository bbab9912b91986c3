import BLEATT
import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding
import BLEVendorDecoding

/// Plays a capture through one `VendorSession` per HCI connection, the way the Sessions module
/// will: characteristic UUIDs from the discovery's characteristic declarations, the MTU from
/// the MTU exchange, Write Responses, disconnections and the end of the capture.
struct CaptureFeeder {
    struct Output {
        /// Events per connection handle, in the order the sessions emitted them.
        var events: [UInt16: [VendorEvent]] = [:]
        var frames: [UInt16: [VendorFrame]] {
            events.mapValues { $0.compactMap { if case .frame(let f) = $0 { f } else { nil } } }
        }
        var failures: [UInt16: [VendorFailure]] {
            events.mapValues { $0.compactMap { if case .failure(let f) = $0 { f } else { nil } } }
        }
    }

    static func run(path: String, profile: Profile) throws -> Output {
        let reader = try CaptureFile.open(path)
        var decoder = PacketDecoder()
        var sessions: [UInt16: VendorSession] = [:]
        var uuids: [UInt16: [UInt16: BluetoothUUID]] = [:]
        var clientMTU: [UInt16: Int] = [:]
        var output = Output()
        var lastTime: Int64 = 0
        while var record = reader.next() {
            var packet = DecodedPacket(record: record)
            decoder.decode(swapping: &record, into: &packet)
            lastTime = record.timestampUs
            if case .event(let event) = packet.hci, case .disconnectionComplete(let d) = event.body,
               var session = sessions.removeValue(forKey: d.connectionHandle) {
                session.linkDown(timeUs: record.timestampUs, into: &output.events[d.connectionHandle, default: []])
            }
            for pdu in packet.l2cap {
                guard case .att(let att) = pdu.content, case .hci(_, let link) = pdu.link else { continue }
                var session = sessions[link] ?? VendorSession(profile: profile, connection: ConnectionID(number: Int(link)), mtu: 23)
                var events: [VendorEvent] = []
                switch att.parameters {
                case .exchangeMTURequest(let mtu): clientMTU[link] = Int(mtu)
                case .exchangeMTUResponse(let mtu): session.updateMTU(min(clientMTU[link] ?? 23, Int(mtu)))
                case .readByTypeResponse(let response):
                    for attribute in response.attributes {
                        var r = ByteReader(attribute.value)
                        guard (try? r.skip(1)) != nil, let valueHandle = try? r.readUInt16LE(),
                              let uuid = BluetoothUUID(wire: r.readRemainingBytes()) else { continue }
                        uuids[link, default: [:]][valueHandle] = uuid
                    }
                case .writeResponse: session.writeResponse(timeUs: record.timestampUs, into: &events)
                case .writeRequest(let hv), .writeCommand(let hv), .handleValueNotification(let hv),
                     .handleValueIndication(let hv):
                    let direction: VendorDirection = pdu.direction == .sent ? .hostToDevice : .deviceToHost
                    session.value(direction: direction, attOpcode: att.opcode.rawValue, handle: hv.handle,
                                  uuid: uuids[link]?[hv.handle], bytes: hv.value, timeUs: record.timestampUs,
                                  record: record.index, into: &events)
                default: break
                }
                sessions[link] = session
                output.events[link, default: []] += events
            }
        }
        for (link, var session) in sessions {
            session.finish(timeUs: lastTime, into: &output.events[link, default: []])
        }
        return output
    }
}
