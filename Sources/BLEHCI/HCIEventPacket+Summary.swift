import BLEAssignedNumbers
import BLEBase

extension HCIEventPacket: FieldDescribable {
    /// `Disconnection Complete handle 0x0040 reason Connection Timeout (0x08)`,
    /// `Command Complete (LE Set Scan Parameters) status Invalid HCI Command Parameters (0x12)`.
    public var summary: String {
        let h = { (handle: UInt16) in "handle \(Hex.code(handle, width: 4))" }
        switch body {
        case .disconnectionComplete(let e):
            let status = e.status.isSuccess ? "" : " status \(e.status)"
            return "\(code.name) \(h(e.connectionHandle))\(status) reason \(e.reason)"
        case .encryptionChange(let e):
            let key = e.encryptionKeySize.map { " key size \($0)" } ?? ""
            return "\(code.name) \(h(e.connectionHandle)) status \(e.status) encryption \(e.encryptionEnabled == 0 ? "off" : "on")\(key)"
        case .readRemoteVersionInformationComplete(let e):
            let company = AssignedNumbers.companyName(e.companyIdentifier) ?? Hex.code(e.companyIdentifier, width: 4)
            return "\(code.name) \(h(e.connectionHandle)) status \(e.status) version \(Hex.code(e.version)) \(company)"
        case .commandComplete(let e):
            if e.commandOpcode.isNOP { return "\(code.name) (NOP) credits \(e.numHCICommandPackets)" }
            return "\(code.name) (\(e.commandOpcode.name))" + (e.status.map { " status \($0)" } ?? "")
        case .commandStatus(let e):
            return "\(code.name) (\(e.commandOpcode.name)) status \(e.status)"
        case .hardwareError(let hardwareCode):
            return "\(code.name) code \(Hex.code(hardwareCode))"
        case .numberOfCompletedPackets(let list):
            return "\(code.name) " + list.map { "\(h($0.connectionHandle)) \($0.count)" }.joined(separator: ", ")
        case .dataBufferOverflow(let linkType):
            return "\(code.name) \(linkType == 1 ? "ACL" : "synchronous")"
        case .encryptionKeyRefreshComplete(let status, let handle):
            return "\(code.name) \(h(handle)) status \(status)"
        case .leMeta(let meta):
            return meta.summary
        case .vendor(let bytes), .raw(let bytes):
            if let classic = classicLink { return "\(code.name) " + classic.summary }
            return bytes.isEmpty ? code.name : "\(code.name) \(Hex.string(bytes, limit: 16))"
        }
    }

    public var fields: [Field] {
        [.code("eventCode", code.rawValue, label: code.name), .int("parameterTotalLength", parameterTotalLength)]
            + body.fields
    }
}

extension HCIEventBody: FieldDescribable {
    public var fields: [Field] {
        switch self {
        case .disconnectionComplete(let e):
            return [.status("status", e.status), .handle(e.connectionHandle), .status("reason", e.reason)]
        case .encryptionChange(let e):
            return [.status("status", e.status), .handle(e.connectionHandle), .code("encryptionEnabled", e.encryptionEnabled)]
                + (e.encryptionKeySize.map { [.int("encryptionKeySize", $0)] } ?? [])
        case .readRemoteVersionInformationComplete(let e):
            return [.status("status", e.status), .handle(e.connectionHandle), .code("version", e.version),
                    .code("companyIdentifier", e.companyIdentifier, width: 4,
                          label: AssignedNumbers.companyName(e.companyIdentifier)),
                    .code("subversion", e.subversion, width: 4)]
        case .commandComplete(let e):
            return [.int("numHciCommandPackets", e.numHCICommandPackets),
                    .code("commandOpcode", e.commandOpcode.rawValue, width: 4, label: e.commandOpcode.name)]
                + (e.status.map { [.status("status", $0)] } ?? [])
                + [.bytes("returnParameters", e.returnParameters)]
        case .commandStatus(let e):
            return [.status("status", e.status), .int("numHciCommandPackets", e.numHCICommandPackets),
                    .code("commandOpcode", e.commandOpcode.rawValue, width: 4, label: e.commandOpcode.name)]
        case .hardwareError(let hardwareCode):
            return [.code("hardwareCode", hardwareCode)]
        case .numberOfCompletedPackets(let list):
            return [Field("handles", .list(list.map { .object([.handle($0.connectionHandle), .int("count", $0.count)]) }))]
        case .dataBufferOverflow(let linkType):
            return [.code("linkType", linkType, label: linkType == 1 ? "ACL" : "synchronous")]
        case .encryptionKeyRefreshComplete(let status, let handle):
            return [.status("status", status), .handle(handle)]
        case .leMeta(let meta):
            return meta.fields
        case .vendor(let bytes), .raw(let bytes):
            return [.bytes("parameters", bytes)]
        }
    }
}
