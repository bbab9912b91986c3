import BLEBase

extension LEMetaEvent: FieldDescribable {
    /// `LE Connection Complete handle 0x0040 status Success role central peer 6B:30:F9:0E:C7:DD (random) interval 30.00 ms`.
    public var summary: String {
        let name = subevent.name
        let h = { (handle: UInt16) in "handle \(Hex.code(handle, width: 4))" }
        switch body {
        case .connectionComplete(let e):
            return "\(name) \(h(e.connectionHandle)) status \(e.status) role \(e.role) peer "
                + "\(SummaryText.address(e.peerAddress, e.peerAddressType)) interval "
                + HCITime.milliseconds(e.connectionIntervalMicroseconds)
        case .advertisingReport(let reports):
            return ([name] + reports.map(\.summary)).joined(separator: " ")
        case .connectionUpdateComplete(let e):
            return "\(name) \(h(e.connectionHandle)) status \(e.status) interval "
                + "\(HCITime.milliseconds(e.connectionIntervalMicroseconds)) latency \(e.peripheralLatency) "
                + "timeout \(HCITime.milliseconds(e.supervisionTimeoutMicroseconds))"
        case .readRemoteFeaturesComplete(let e):
            return "\(name) \(h(e.connectionHandle)) status \(e.status) features \(Hex.code(e.leFeatures, width: 16))"
        case .longTermKeyRequest(let e):
            return "\(name) \(h(e.connectionHandle)) EDIV \(Hex.code(e.encryptedDiversifier, width: 4))"
        case .remoteConnectionParameterRequest(let e):
            return "\(name) \(h(e.connectionHandle)) interval "
                + "\(HCITime.milliseconds(Int(e.intervalMin) * HCITime.connectionIntervalUnit).dropLast(3))–"
                + HCITime.milliseconds(Int(e.intervalMax) * HCITime.connectionIntervalUnit)
        case .dataLengthChange(let e):
            return "\(name) \(h(e.connectionHandle)) tx \(e.maxTxOctets) bytes rx \(e.maxRxOctets) bytes"
        case .directedAdvertisingReport(let reports):
            return ([name] + reports.map {
                "\(SummaryText.address($0.address, $0.addressType)) → "
                    + "\(SummaryText.address($0.directAddress, $0.directAddressType)) RSSI \($0.rssi) dBm"
            }).joined(separator: " ")
        case .phyUpdateComplete(let e):
            return "\(name) \(h(e.connectionHandle)) status \(e.status) tx \(e.txPHY) rx \(e.rxPHY)"
        case .extendedAdvertisingReport(let reports):
            return ([name] + reports.map(\.summary)).joined(separator: " ")
        case .advertisingSetTerminated(let e):
            return "\(name) set \(e.advertisingHandle) status \(e.status) \(h(e.connectionHandle))"
        case .channelSelectionAlgorithm(let e):
            return "\(name) \(h(e.connectionHandle)) #\(Int(e.channelSelectionAlgorithm) + 1)"
        case .raw(let bytes):
            return bytes.isEmpty ? name : "\(name) \(Hex.string(bytes, limit: 16))"
        }
    }

    public var fields: [Field] {
        [.code("subeventCode", subevent.rawValue, label: subevent.name)] + body.fields
    }
}

extension LEMetaBody: FieldDescribable {
    public var fields: [Field] {
        switch self {
        case .connectionComplete(let e): return e.fields
        case .advertisingReport(let reports):
            return [Field("reports", .list(reports.map { .object($0.fields) }))]
        case .connectionUpdateComplete(let e):
            return [.status("status", e.status), .handle(e.connectionHandle),
                    .time("connectionInterval", e.connectionInterval, unitMicroseconds: HCITime.connectionIntervalUnit),
                    .int("peripheralLatency", e.peripheralLatency),
                    .time("supervisionTimeout", e.supervisionTimeout, unitMicroseconds: HCITime.supervisionTimeoutUnit)]
        case .readRemoteFeaturesComplete(let e):
            return [.status("status", e.status), .handle(e.connectionHandle),
                    Field("leFeatures", .uint(e.leFeatures), display: Hex.code(e.leFeatures, width: 16))]
        case .longTermKeyRequest(let e):
            return [.handle(e.connectionHandle),
                    Field("randomNumber", .uint(e.randomNumber), display: Hex.code(e.randomNumber, width: 16)),
                    .code("encryptedDiversifier", e.encryptedDiversifier, width: 4)]
        case .remoteConnectionParameterRequest(let e):
            return [.handle(e.connectionHandle),
                    .time("intervalMin", e.intervalMin, unitMicroseconds: HCITime.connectionIntervalUnit),
                    .time("intervalMax", e.intervalMax, unitMicroseconds: HCITime.connectionIntervalUnit),
                    .int("maxLatency", e.maxLatency),
                    .time("supervisionTimeout", e.supervisionTimeout, unitMicroseconds: HCITime.supervisionTimeoutUnit)]
        case .dataLengthChange(let e):
            return [.handle(e.connectionHandle), .int("maxTxOctets", e.maxTxOctets), .int("maxTxTime", e.maxTxTime),
                    .int("maxRxOctets", e.maxRxOctets), .int("maxRxTime", e.maxRxTime)]
        case .directedAdvertisingReport(let reports):
            return [Field("reports", .list(reports.map { r in
                .object([.string("eventType", r.eventType.name), .addressType("addressType", r.addressType),
                         .address("address", r.address), .addressType("directAddressType", r.directAddressType),
                         .address("directAddress", r.directAddress), .dBm("rssi", r.rssi)])
            }))]
        case .phyUpdateComplete(let e):
            return [.status("status", e.status), .handle(e.connectionHandle),
                    .code("txPhy", e.txPHY.rawValue, label: e.txPHY.name), .code("rxPhy", e.rxPHY.rawValue, label: e.rxPHY.name)]
        case .extendedAdvertisingReport(let reports):
            return [Field("reports", .list(reports.map { .object($0.fields) }))]
        case .advertisingSetTerminated(let e):
            return [.status("status", e.status), .int("advertisingHandle", e.advertisingHandle), .handle(e.connectionHandle),
                    .int("numCompletedExtendedAdvertisingEvents", e.numCompletedExtendedAdvertisingEvents)]
        case .channelSelectionAlgorithm(let e):
            return [.handle(e.connectionHandle), .code("channelSelectionAlgorithm", e.channelSelectionAlgorithm,
                                                       label: "#\(Int(e.channelSelectionAlgorithm) + 1)")]
        case .raw(let bytes):
            return [.bytes("parameters", bytes)]
        }
    }
}

extension LEConnectionCompleteEvent: FieldDescribable {
    public var fields: [Field] {
        var fields: [Field] = [.status("status", status), .handle(connectionHandle),
                               .code("role", role.rawValue, label: role.name),
                               .addressType("peerAddressType", peerAddressType), .address("peerAddress", peerAddress)]
        if let local = localResolvablePrivateAddress { fields.append(.address("localResolvablePrivateAddress", local)) }
        if let peer = peerResolvablePrivateAddress { fields.append(.address("peerResolvablePrivateAddress", peer)) }
        fields += [.time("connectionInterval", connectionInterval, unitMicroseconds: HCITime.connectionIntervalUnit),
                   .int("peripheralLatency", peripheralLatency),
                   .time("supervisionTimeout", supervisionTimeout, unitMicroseconds: HCITime.supervisionTimeoutUnit),
                   .code("centralClockAccuracy", centralClockAccuracy)]
        if let handle = advertisingHandle { fields.append(.int("advertisingHandle", handle)) }
        if let sync = syncHandle { fields.append(.handle(sync, "syncHandle")) }
        return fields
    }
}

extension LEAdvertisingReport: FieldDescribable {
    /// `ADV_IND 6B:30:F9:0E:C7:DD (random) RSSI -61 dBm name "DEMO-E6F1" …`.
    public var summary: String {
        let ad = data.summary
        return "\(eventType) \(SummaryText.address(address, addressType)) RSSI \(rssi) dBm" + (ad.isEmpty ? "" : " \(ad)")
    }

    public var fields: [Field] {
        [.code("eventType", eventType.rawValue, label: eventType.name), .addressType("addressType", addressType),
         .address("address", address), Field("data", .object(data.fields)), .dBm("rssi", rssi)]
    }
}

extension LEExtendedAdvertisingReport: FieldDescribable {
    /// `ADV_IND 6B:30:F9:0E:C7:DD (random) SID 1 RSSI -61 dBm …`, with the data status when not complete.
    public var summary: String {
        let status = eventType.dataStatus == .complete ? "" : " [\(eventType.dataStatus)]"
        let ad = eventType.dataStatus == .incomplete ? "\(data.count) bytes" : advertisingData.summary
        return "\(eventType) \(SummaryText.address(address, addressType)) SID \(advertisingSID) RSSI \(rssi) dBm"
            + status + (ad.isEmpty ? "" : " \(ad)")
    }

    public var fields: [Field] {
        [.code("eventType", eventType.rawValue, width: 4, label: eventType.name),
         .code("dataStatus", eventType.dataStatus.rawValue, label: eventType.dataStatus.name),
         .addressType("addressType", addressType), .address("address", address),
         .code("primaryPhy", primaryPHY.rawValue, label: primaryPHY.name),
         .code("secondaryPhy", secondaryPHY.rawValue, label: secondaryPHY.name),
         .int("advertisingSid", advertisingSID), .dBm("txPower", txPower), .dBm("rssi", rssi),
         .time("periodicAdvertisingInterval", periodicAdvertisingInterval, unitMicroseconds: HCITime.connectionIntervalUnit),
         .addressType("directAddressType", directAddressType), .address("directAddress", directAddress),
         .bytes("data", data)]
            + (eventType.dataStatus == .incomplete ? [] : [Field("advertisingData", .object(advertisingData.fields))])
    }
}
