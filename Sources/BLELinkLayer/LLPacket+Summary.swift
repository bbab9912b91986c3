import BLEBase

extension LLPacket {
    /// One line, like a Wireshark Info column.
    public var summary: String { summary(secondaryChannel: false) }

    public func summary(secondaryChannel: Bool) -> String {
        switch pdu {
        case .advertising(let adv): return adv.summary(secondaryChannel: secondaryChannel)
        case .data(let data): return data.summary
        }
    }
}

extension AdvertisingPDU {
    public var summary: String { summary(secondaryChannel: false) }

    /// `ADV_IND 6B:30:F9:0E:C7:DD (random) 31 bytes`,
    /// `CONNECT_IND C8:… → 6B:… AA 0x50654bd1 interval 30.00 ms timeout 4000 ms hop 7`.
    public func summary(secondaryChannel: Bool) -> String {
        let name = header.pduType.name(secondaryChannel: secondaryChannel)
        let tx = header.txAddressType.description
        let rx = header.rxAddressType.description
        switch payload {
        case .advertising(let advA, let data):
            return "\(name) \(advA) (\(tx)) \(data.count) bytes"
        case .directed(let advA, let targetA):
            return "\(name) \(advA) (\(tx)) → \(targetA) (\(rx))"
        case .scanRequest(let scanA, let advA):
            return "\(name) \(scanA) (\(tx)) → \(advA) (\(rx))"
        case .connect(let c):
            return "\(name) \(c.initA) → \(c.advA) AA 0x\(Hex.string(c.accessAddress.bigEndianBytes)) "
                + "interval \(LLFormat.milliseconds(c.intervalUs)) timeout \(c.timeoutMs) ms hop \(c.hopIncrement)"
        case .extended(let ext):
            var parts = [name]
            if let advA = ext.advA { parts.append("\(advA) (\(tx))") }
            if let targetA = ext.targetA { parts.append("→ \(targetA) (\(rx))") }
            if let adi = ext.advDataInfo { parts.append("SID \(adi.setID) DID \(adi.dataID)") }
            if let aux = ext.auxPointer {
                parts.append("aux ch \(aux.channelIndex) +\(aux.offsetUs) µs \(aux.auxPHY.name)")
            }
            parts.append("\(ext.advData.count) bytes")
            return parts.joined(separator: " ")
        case .reserved(let bytes):
            return "\(name) \(bytes.count) bytes"
        }
    }
}

extension DataChannelPDU {
    /// `Empty PDU`, `LL Data start 27 bytes`, `LL_TERMINATE_IND reason …`, `Encrypted 17 bytes`.
    public var summary: String {
        switch content {
        case .empty: return "Empty PDU"
        case .l2capStart(let bytes): return "LL Data start \(bytes.count) bytes"
        case .l2capContinuation(let bytes): return "LL Data continuation \(bytes.count) bytes"
        case .control(let control): return control.summary
        case .encrypted(let bytes): return "Encrypted \(header.llid.name) \(bytes.count) bytes"
        case .reserved(let bytes): return "\(header.llid.name) \(bytes.count) bytes"
        }
    }
}

extension ControlPDU {
    /// `LL_TERMINATE_IND reason Remote User Terminated Connection (0x13)`,
    /// `LL_CONNECTION_UPDATE_IND winSize 2.50 ms … interval 30.00 ms … instant 12`.
    public var summary: String {
        var parts = [opcode.name]
        for parameter in parameters {
            let label = parameter.name == "errorCode" && Self.reasonOpcodes.contains(opcode) ? "reason" : parameter.name
            parts.append("\(label) \(parameter.displayValue)")
        }
        if !extraOctets.isEmpty { parts.append(parameters.isEmpty ? Hex.string(extraOctets) : "+\(extraOctets.count) bytes") }
        return parts.joined(separator: " ")
    }

    private static let reasonOpcodes: Set<ControlOpcode> = [.terminateInd, .cisTerminateInd]
}

extension ControlParameter {
    /// The value as text: names with their code, durations in their unit.
    public var displayValue: String {
        switch value {
        case .unsigned(let v):
            switch unit {
            case .slots1250us?: return LLFormat.milliseconds(Int(v) * 1250)
            case .ms10?: return "\(v * 10) ms"
            case .us?: return "\(v) µs"
            case nil: return "\(v)"
            }
        case .signed(let v): return "\(v)"
        case .bytes(let b): return Hex.string(b)
        case .errorCode(let code): return "\(code.name) (\(Hex.code(code.rawValue)))"
        case .opcode(let op): return "\(op.name) (\(Hex.code(op.rawValue)))"
        case .address(let a): return a.description
        case .phys(let bits): return LLFormat.phys(bits)
        case .version(let v): return "\(LLFormat.versionName(v)) (\(Hex.code(v)))"
        }
    }
}

/// Text helpers shared by the summaries and field displays.
enum LLFormat {
    /// `30.00 ms` from microseconds.
    static func milliseconds(_ us: Int) -> String {
        let hundredths = (us + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    /// PHY bit field (Core v5.4 Vol 6 Part B §2.4.2.22): bit 0 1M, bit 1 2M, bit 2 Coded.
    static func phys(_ bits: UInt8) -> String {
        let names = [(UInt8(1), "1M"), (2, "2M"), (4, "Coded")].filter { bits & $0.0 != 0 }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }

    /// Link Layer version numbers (Assigned Numbers §2.1).
    static func versionName(_ v: UInt8) -> String {
        let versions = ["1.0b", "1.1", "1.2", "2.0", "2.1", "3.0", "4.0", "4.1", "4.2", "5.0", "5.1", "5.2", "5.3",
                        "5.4", "6.0"]
        return Int(v) < versions.count ? "Bluetooth \(versions[Int(v)])" : "Unknown"
    }
}

extension UInt32 {
    fileprivate var bigEndianBytes: [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: self >> $0) } }
}
