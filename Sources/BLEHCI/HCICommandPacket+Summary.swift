import BLEBase

extension HCICommandPacket: FieldDescribable {
    /// `LE Create Connection peer 6B:30:F9:0E:C7:DD (random) interval 30.00–30.00 ms`.
    public var summary: String {
        let detail = parameters.summaryDetail
        return detail.isEmpty ? opcode.name : "\(opcode.name) \(detail)"
    }

    public var fields: [Field] {
        [.code("opcode", opcode.rawValue, width: 4, label: opcode.name),
         .code("ogf", opcode.ogf), .code("ocf", opcode.ocf, width: 4),
         .int("parameterTotalLength", parameterTotalLength)] + parameters.fields
    }
}

extension HCICommandParameters: FieldDescribable {
    var summaryDetail: String {
        switch self {
        case .disconnect(let c):
            return "handle \(Hex.code(c.connectionHandle, width: 4)) reason \(c.reason)"
        case .leSetScanParameters(let c):
            return "\(c.scanType == 1 ? "active" : "passive") interval \(HCITime.milliseconds(Int(c.scanInterval) * HCITime.scanUnit))"
                + " window \(HCITime.milliseconds(Int(c.scanWindow) * HCITime.scanUnit))"
        case .leSetScanEnable(let c):
            return (c.enable == 0 ? "disable" : "enable") + (c.filterDuplicates == 0 ? "" : " filter duplicates")
        case .leSetExtendedScanParameters(let c):
            return "PHYs " + c.phys.map(\.phy.name).joined(separator: ", ")
        case .leSetExtendedScanEnable(let c):
            return (c.enable == 0 ? "disable" : "enable") + (c.filterDuplicates == 0 ? "" : " filter duplicates")
        case .leCreateConnection(let c):
            return "peer \(SummaryText.address(c.peerAddress, c.peerAddressType)) \(c.connection.summary)"
        case .leCreateConnectionCancel:
            return ""
        case .leExtendedCreateConnection(let c):
            let interval = c.phys.first.map { " " + $0.connection.summary } ?? ""
            return "peer \(SummaryText.address(c.peerAddress, c.peerAddressType))\(interval)"
        case .leConnectionUpdate(let c):
            return "handle \(Hex.code(c.connectionHandle, width: 4)) \(c.connection.summary)"
        case .leSetDataLength(let c):
            return "handle \(Hex.code(c.connectionHandle, width: 4)) tx \(c.txOctets) bytes \(c.txTime) µs"
        case .leSetPHY(let c):
            return "handle \(Hex.code(c.connectionHandle, width: 4)) tx \(Hex.code(c.txPHYs)) rx \(Hex.code(c.rxPHYs))"
        case .leReadRemoteFeatures(let handle):
            return "handle \(Hex.code(handle, width: 4))"
        case .leEnableEncryption(let c):
            return "handle \(Hex.code(c.connectionHandle, width: 4)) EDIV \(Hex.code(c.encryptedDiversifier, width: 4))"
        case .leLongTermKeyRequestReply(let c):
            return "handle \(Hex.code(c.connectionHandle, width: 4))"
        case .leSetAdvertisingParameters(let c):
            return "interval \(HCITime.milliseconds(Int(c.advertisingIntervalMin) * HCITime.scanUnit).dropLast(3))–"
                + HCITime.milliseconds(Int(c.advertisingIntervalMax) * HCITime.scanUnit)
        case .leSetAdvertisingData(let c), .leSetScanResponseData(let c):
            return "\(c.dataLength) bytes" + (c.data.summary.isEmpty ? "" : " " + c.data.summary)
        case .leSetAdvertisingEnable(let enable):
            return enable == 0 ? "disable" : "enable"
        case .leAddDeviceToFilterAcceptList(let type, let address):
            return SummaryText.address(address, type)
        case .raw(let bytes):
            return bytes.isEmpty ? "" : Hex.string(bytes, limit: 16)
        }
    }

    public var fields: [Field] {
        switch self {
        case .disconnect(let c):
            return [.handle(c.connectionHandle), .status("reason", c.reason)]
        case .leSetScanParameters(let c):
            return [.code("scanType", c.scanType, label: c.scanType == 1 ? "active" : "passive"),
                    .time("scanInterval", c.scanInterval, unitMicroseconds: HCITime.scanUnit),
                    .time("scanWindow", c.scanWindow, unitMicroseconds: HCITime.scanUnit),
                    .addressType("ownAddressType", c.ownAddressType), .code("scanningFilterPolicy", c.scanningFilterPolicy)]
        case .leSetScanEnable(let c):
            return [.bool("enable", c.enable != 0), .bool("filterDuplicates", c.filterDuplicates != 0)]
        case .leSetExtendedScanParameters(let c):
            return [.addressType("ownAddressType", c.ownAddressType), .code("scanningFilterPolicy", c.scanningFilterPolicy),
                    .code("scanningPHYs", c.scanningPHYs),
                    Field("phys", .list(c.phys.map { p in
                        .object([.string("phy", p.phy.name), .code("scanType", p.scanType),
                                 .time("scanInterval", p.scanInterval, unitMicroseconds: HCITime.scanUnit),
                                 .time("scanWindow", p.scanWindow, unitMicroseconds: HCITime.scanUnit)])
                    }))]
        case .leSetExtendedScanEnable(let c):
            return [.bool("enable", c.enable != 0), .code("filterDuplicates", c.filterDuplicates),
                    .time("duration", c.duration, unitMicroseconds: HCITime.supervisionTimeoutUnit), .int("period", c.period)]
        case .leCreateConnection(let c):
            return [.time("scanInterval", c.scanInterval, unitMicroseconds: HCITime.scanUnit),
                    .time("scanWindow", c.scanWindow, unitMicroseconds: HCITime.scanUnit),
                    .code("initiatorFilterPolicy", c.initiatorFilterPolicy),
                    .addressType("peerAddressType", c.peerAddressType), .address("peerAddress", c.peerAddress),
                    .addressType("ownAddressType", c.ownAddressType)] + c.connection.fields
        case .leCreateConnectionCancel:
            return []
        case .leExtendedCreateConnection(let c):
            var fields: [Field] = []
            if let handle = c.advertisingHandle { fields.append(.int("advertisingHandle", handle)) }
            if let subevent = c.subevent { fields.append(.int("subevent", subevent)) }
            return fields + [
                .code("initiatorFilterPolicy", c.initiatorFilterPolicy), .addressType("ownAddressType", c.ownAddressType),
                .addressType("peerAddressType", c.peerAddressType), .address("peerAddress", c.peerAddress),
                .code("initiatingPHYs", c.initiatingPHYs),
                Field("phys", .list(c.phys.map { p in
                    .object([.string("phy", p.phy.name),
                             .time("scanInterval", p.scanInterval, unitMicroseconds: HCITime.scanUnit),
                             .time("scanWindow", p.scanWindow, unitMicroseconds: HCITime.scanUnit)] + p.connection.fields)
                }))]
        case .leConnectionUpdate(let c):
            return [.handle(c.connectionHandle)] + c.connection.fields
        case .leSetDataLength(let c):
            return [.handle(c.connectionHandle), .int("txOctets", c.txOctets), .int("txTime", c.txTime, display: "\(c.txTime) µs")]
        case .leSetPHY(let c):
            return [.handle(c.connectionHandle), .code("allPHYs", c.allPHYs), .code("txPHYs", c.txPHYs),
                    .code("rxPHYs", c.rxPHYs), .code("phyOptions", c.phyOptions, width: 4)]
        case .leReadRemoteFeatures(let handle):
            return [.handle(handle)]
        case .leEnableEncryption(let c):
            return [.handle(c.connectionHandle), Field("randomNumber", .uint(c.randomNumber), display: Hex.code(c.randomNumber, width: 16)),
                    .code("encryptedDiversifier", c.encryptedDiversifier, width: 4), .bytes("longTermKey", c.longTermKey)]
        case .leLongTermKeyRequestReply(let c):
            return [.handle(c.connectionHandle), .bytes("longTermKey", c.longTermKey)]
        case .leSetAdvertisingParameters(let c):
            return [.time("advertisingIntervalMin", c.advertisingIntervalMin, unitMicroseconds: HCITime.scanUnit),
                    .time("advertisingIntervalMax", c.advertisingIntervalMax, unitMicroseconds: HCITime.scanUnit),
                    .code("advertisingType", c.advertisingType), .addressType("ownAddressType", c.ownAddressType),
                    .addressType("peerAddressType", c.peerAddressType), .address("peerAddress", c.peerAddress),
                    .code("advertisingChannelMap", c.advertisingChannelMap),
                    .code("advertisingFilterPolicy", c.advertisingFilterPolicy)]
        case .leSetAdvertisingData(let c), .leSetScanResponseData(let c):
            return [.int("dataLength", c.dataLength), Field("data", .object(c.data.fields))]
        case .leSetAdvertisingEnable(let enable):
            return [.bool("enable", enable != 0)]
        case .leAddDeviceToFilterAcceptList(let type, let address):
            return [.addressType("addressType", type), .address("address", address)]
        case .raw(let bytes):
            return [.bytes("parameters", bytes)]
        }
    }
}

extension ConnectionParameterRange: FieldDescribable {
    /// `interval 30.00–30.00 ms`.
    var summary: String {
        let low = HCITime.milliseconds(connectionIntervalMinMicroseconds)
        return "interval \(low.dropLast(3))–\(HCITime.milliseconds(connectionIntervalMaxMicroseconds))"
    }

    public var fields: [Field] {
        [.time("connectionIntervalMin", connectionIntervalMin, unitMicroseconds: HCITime.connectionIntervalUnit),
         .time("connectionIntervalMax", connectionIntervalMax, unitMicroseconds: HCITime.connectionIntervalUnit),
         .int("maxLatency", maxLatency),
         .time("supervisionTimeout", supervisionTimeout, unitMicroseconds: HCITime.supervisionTimeoutUnit),
         .time("minCELength", minCELength, unitMicroseconds: HCITime.scanUnit),
         .time("maxCELength", maxCELength, unitMicroseconds: HCITime.scanUnit)]
    }
}
