import BLEBase
import BLECaptureFormats

/// ATT exchanges between a central (the host, client) and a peripheral (server)
/// (Core v5.4 Vol 3 Part F §3.4 PDUs; Part G §4 discovery procedures).
extension HCIScenario {
    /// Sends a request from the host and the server's response `latencyMs` later.
    public mutating func attExchange(handle: UInt16, request: [UInt8], response: [UInt8], latencyMs: Double = 30,
                                     mtu: Int = 23) {
        att(handle: handle, .sent, request)
        wait(ms: latencyMs)
        serverPDU(handle: handle, response, mtu: mtu)
    }

    /// Sends a server PDU, fragmented into 27-byte ACL packets the way controllers forward LE data.
    public mutating func serverPDU(handle: UInt16, _ pdu: [UInt8], mtu: Int = 23) {
        att(handle: handle, .received, pdu, fragmentSize: 27)
    }

    /// Exchange MTU (0x02/0x03).
    public mutating func exchangeMTU(handle: UInt16, client: UInt16 = 517, server: UInt16) {
        var request = ByteWriter()
        request.writeUInt8(0x02)
        request.writeUInt16LE(client)
        var response = ByteWriter()
        response.writeUInt8(0x03)
        response.writeUInt16LE(server)
        attExchange(handle: handle, request: request.bytes, response: response.bytes)
    }

    static func errorResponse(request: UInt8, handle: UInt16, code: UInt8) -> [UInt8] {
        var w = ByteWriter()
        w.writeUInt8(0x01)
        w.writeUInt8(request)
        w.writeUInt16LE(handle)
        w.writeUInt8(code)
        return w.bytes
    }

    static func rangeRequest(_ opcode: UInt8, from start: UInt16, to end: UInt16, type: UInt16?) -> [UInt8] {
        var w = ByteWriter()
        w.writeUInt8(opcode)
        w.writeUInt16LE(start)
        w.writeUInt16LE(end)
        if let type { w.writeUInt16LE(type) }
        return w.bytes
    }

    /// Full discovery of `model`: primary services (Read By Group Type), characteristics per
    /// service (Read By Type 0x2803), descriptors (Find Information), each ending with the normal
    /// Attribute Not Found.
    public mutating func discover(handle: UInt16, model: GATTServerModel) {
        // Primary services, all 16-bit here: one response, then Attribute Not Found past the last.
        var services = ByteWriter()
        services.writeUInt8(0x11)
        services.writeUInt8(6)
        for service in model.services {
            services.writeUInt16LE(service.startHandle)
            services.writeUInt16LE(service.endHandle)
            services.writeBytes(service.uuidWire)
        }
        attExchange(handle: handle, request: Self.rangeRequest(0x10, from: 1, to: 0xFFFF, type: 0x2800),
                    response: services.bytes)
        let pastEnd = (model.services.last?.endHandle ?? 0) + 1
        attExchange(handle: handle, request: Self.rangeRequest(0x10, from: pastEnd, to: 0xFFFF, type: 0x2800),
                    response: Self.errorResponse(request: 0x10, handle: pastEnd, code: 0x0A))

        for service in model.services {
            var declarations = ByteWriter()
            declarations.writeUInt8(0x09)
            declarations.writeUInt8(7)
            for characteristic in service.characteristics {
                declarations.writeUInt16LE(characteristic.declarationHandle)
                declarations.writeUInt8(characteristic.properties)
                declarations.writeUInt16LE(characteristic.valueHandle)
                declarations.writeBytes(characteristic.uuidWire)
            }
            attExchange(handle: handle,
                        request: Self.rangeRequest(0x08, from: service.startHandle, to: service.endHandle, type: 0x2803),
                        response: declarations.bytes)
            let last = service.characteristics.last?.valueHandle ?? service.startHandle
            if last < service.endHandle {
                attExchange(handle: handle,
                            request: Self.rangeRequest(0x08, from: last + 1, to: service.endHandle, type: 0x2803),
                            response: Self.errorResponse(request: 0x08, handle: last + 1, code: 0x0A))
            }
            for characteristic in service.characteristics {
                guard let cccd = characteristic.cccdHandle else { continue }
                var info = ByteWriter()
                info.writeUInt8(0x05)
                info.writeUInt8(0x01)
                info.writeUInt16LE(cccd)
                info.writeUInt16LE(0x2902)
                attExchange(handle: handle, request: Self.rangeRequest(0x04, from: cccd, to: cccd, type: nil),
                            response: info.bytes)
            }
        }
    }

    /// Write Request (0x12) answered by Write Response (0x13) or an Error Response.
    public mutating func writeRequest(handle: UInt16, attribute: UInt16, value: [UInt8], errorCode: UInt8? = nil,
                                      latencyMs: Double = 30) {
        var request = ByteWriter()
        request.writeUInt8(0x12)
        request.writeUInt16LE(attribute)
        request.writeBytes(value)
        let response = errorCode.map { Self.errorResponse(request: 0x12, handle: attribute, code: $0) } ?? [0x13]
        attExchange(handle: handle, request: request.bytes, response: response, latencyMs: latencyMs)
    }

    /// Read Request (0x0A) answered by Read Response (0x0B) or an Error Response.
    public mutating func readRequest(handle: UInt16, attribute: UInt16, value: [UInt8], errorCode: UInt8? = nil) {
        var request = ByteWriter()
        request.writeUInt8(0x0A)
        request.writeUInt16LE(attribute)
        let response = errorCode.map { Self.errorResponse(request: 0x0A, handle: attribute, code: $0) } ?? [0x0B] + value
        attExchange(handle: handle, request: request.bytes, response: response)
    }

    /// Write Command (0x52): no response expected.
    public mutating func writeCommand(handle: UInt16, attribute: UInt16, value: [UInt8]) {
        var w = ByteWriter()
        w.writeUInt8(0x52)
        w.writeUInt16LE(attribute)
        w.writeBytes(value)
        att(handle: handle, .sent, w.bytes)
    }

    /// Handle Value Notifications (0x1B) carrying `value` in chunks of MTU−3 bytes
    /// (Core v5.4 Vol 3 Part F §3.4.7.1: a notification holds at most ATT_MTU−3 value bytes).
    public mutating func notify(handle: UInt16, attribute: UInt16, value: [UInt8], mtu: Int) {
        var offset = 0
        repeat {
            let chunk = Array(value[offset..<min(value.count, offset + mtu - 3)])
            offset += chunk.count
            var w = ByteWriter()
            w.writeUInt8(0x1B)
            w.writeUInt16LE(attribute)
            w.writeBytes(chunk)
            serverPDU(handle: handle, w.bytes)
            wait(ms: 7.5)
        } while offset < value.count
    }
}
