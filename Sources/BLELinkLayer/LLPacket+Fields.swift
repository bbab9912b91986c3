import BLEBase

extension LLPacket: FieldDescribable {
    public var fields: [Field] {
        var out = [Field.code("accessAddress", accessAddress, width: 8)]
        if let ci = codingIndicator { out.append(.int("codingIndicator", ci)) }
        switch pdu {
        case .advertising(let adv): out.append(Field("advertising", .object(adv.fields)))
        case .data(let data): out.append(Field("data", .object(data.fields)))
        }
        out.append(.code("crc", crc, width: 6))
        if let computed = computedCRC { out.append(.code("computedCRC", computed, width: 6)) }
        return out
    }
}

extension AdvertisingPDU: FieldDescribable {
    public var fields: [Field] {
        var out: [Field] = [
            .code("pduType", header.pduType.rawValue, label: header.pduType.name),
            .bool("chSel", header.channelSelection),
            .string("txAdd", header.txAddressType.description),
            .string("rxAdd", header.rxAddressType.description),
            .int("length", header.length),
        ]
        switch payload {
        case .advertising(let advA, let data):
            out += [Field("advA", .address(advA)), .bytes("advData", data)]
        case .directed(let advA, let targetA):
            out += [Field("advA", .address(advA)), Field("targetA", .address(targetA))]
        case .scanRequest(let scanA, let advA):
            out += [Field("scanA", .address(scanA)), Field("advA", .address(advA))]
        case .connect(let connect):
            out += connect.fields
        case .extended(let ext):
            out += ext.fields
        case .reserved(let bytes):
            out.append(.bytes("payload", bytes))
        }
        return out
    }
}

extension ConnectIndication: FieldDescribable {
    public var fields: [Field] {
        [
            Field("initA", .address(initA)),
            Field("advA", .address(advA)),
            .code("accessAddress", accessAddress, width: 8),
            .code("crcInit", crcInit, width: 6),
            .int("winSize", windowSize, display: LLFormat.milliseconds(Int(windowSize) * 1250)),
            .int("winOffset", windowOffset, display: LLFormat.milliseconds(Int(windowOffset) * 1250)),
            .int("interval", interval, display: LLFormat.milliseconds(intervalUs)),
            .int("latency", latency),
            .int("timeout", timeout, display: "\(timeoutMs) ms"),
            .bytes("channelMap", channelMap),
            .int("hop", hopIncrement),
            .int("sca", sleepClockAccuracy),
        ]
    }
}

extension ExtendedAdvertisingPayload: FieldDescribable {
    public var fields: [Field] {
        var out: [Field] = [.int("advMode", advMode)]
        if let flags { out.append(.code("extendedHeaderFlags", flags)) }
        if let advA { out.append(Field("advA", .address(advA))) }
        if let targetA { out.append(Field("targetA", .address(targetA))) }
        if let cteInfo { out.append(.code("cteInfo", cteInfo)) }
        if let adi = advDataInfo {
            out.append(Field("advDataInfo", .object([.int("did", adi.dataID), .int("sid", adi.setID)])))
        }
        if let aux = auxPointer {
            out.append(Field("auxPtr", .object([
                .int("channelIndex", aux.channelIndex), .int("ca", aux.clockAccuracy),
                .int("offsetUs", aux.offsetUs), .string("auxPhy", aux.auxPHY.name),
            ])))
        }
        if let syncInfo { out.append(.bytes("syncInfo", syncInfo)) }
        if let txPower { out.append(.int("txPower", txPower, display: "\(txPower) dBm")) }
        if !acad.isEmpty { out.append(.bytes("acad", acad)) }
        out.append(.bytes("advData", advData))
        return out
    }
}

extension DataChannelPDU: FieldDescribable {
    public var fields: [Field] {
        var out: [Field] = [
            .code("llid", header.llid.rawValue, label: header.llid.name),
            .int("nesn", header.nesn ? 1 : 0),
            .int("sn", header.sn ? 1 : 0),
            .bool("md", header.md),
            .bool("cp", header.cp),
            .int("length", header.length),
        ]
        if let cteInfo { out.append(.code("cteInfo", cteInfo)) }
        switch content {
        case .empty: break
        case .l2capStart(let bytes), .l2capContinuation(let bytes): out.append(.bytes("payload", bytes))
        case .control(let control): out.append(Field("control", .object(control.fields)))
        case .encrypted(let bytes): out.append(.bytes("encryptedPayload", bytes))
        case .reserved(let bytes): out.append(.bytes("payload", bytes))
        }
        if let mic { out.append(.bytes("mic", mic)) }
        return out
    }
}

extension ControlPDU: FieldDescribable {
    public var fields: [Field] {
        var out = [Field.code("opcode", opcode.rawValue, label: opcode.name)]
        for parameter in parameters {
            let display = parameter.displayValue
            switch parameter.value {
            case .unsigned(let v): out.append(Field(parameter.name, .int(Int64(v)), display: display))
            case .signed(let v): out.append(Field(parameter.name, .int(v), display: display))
            case .bytes(let b): out.append(.bytes(parameter.name, b))
            case .errorCode(let c): out.append(.code(parameter.name, c.rawValue, label: c.name))
            case .opcode(let o): out.append(.code(parameter.name, o.rawValue, label: o.name))
            case .address(let a): out.append(Field(parameter.name, .address(a)))
            case .phys(let p): out.append(Field(parameter.name, .int(Int64(p)), display: display))
            case .version(let v): out.append(Field(parameter.name, .int(Int64(v)), display: display))
            }
        }
        if !extraOctets.isEmpty { out.append(.bytes(parameters.isEmpty ? "ctrData" : "extraOctets", extraOctets)) }
        return out
    }
}

extension AirPacketMetadata: FieldDescribable {
    public var fields: [Field] {
        var out: [Field] = [.int("linkType", linkType)]
        if let rfChannel { out.append(.int("rfChannel", rfChannel)) }
        if let channelIndex { out.append(.int("channel", channelIndex)) }
        if let rssiDBm { out.append(.int("rssi", rssiDBm, display: "\(rssiDBm) dBm")) }
        if let noiseDBm { out.append(.int("noise", noiseDBm, display: "\(noiseDBm) dBm")) }
        if let accessAddressOffenses { out.append(.int("accessAddressOffenses", accessAddressOffenses)) }
        if let referenceAccessAddress { out.append(.code("referenceAccessAddress", referenceAccessAddress, width: 8)) }
        out.append(.bool("crcChecked", crcChecked))
        if crcChecked { out.append(.bool("crcValid", crcValid)) }
        out.append(.bool("micChecked", micChecked))
        if micChecked { out.append(.bool("micValid", micValid)) }
        if encrypted { out.append(.bool("encrypted", true)) }
        if decrypted { out.append(.bool("decrypted", true)) }
        if let direction { out.append(.string("direction", direction.rawValue)) }
        if let phy { out.append(.string("phy", phy.name)) }
        out.append(.string("pduHint", pduHint.rawValue))
        if let auxType { out.append(.int("auxType", auxType)) }
        if let snifferBoard { out.append(.int("board", snifferBoard)) }
        if let snifferProtocolVersion { out.append(.int("protocolVersion", snifferProtocolVersion)) }
        if let snifferPacketCounter { out.append(.int("packetCounter", snifferPacketCounter)) }
        if let eventCounter { out.append(.int("eventCounter", eventCounter)) }
        if let snifferTimestampUs { out.append(.int("snifferTimestampUs", snifferTimestampUs)) }
        if let snifferDeltaUs { out.append(.int("snifferDeltaUs", snifferDeltaUs)) }
        return out
    }
}
