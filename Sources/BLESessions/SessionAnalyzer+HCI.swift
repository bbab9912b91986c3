import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// HCI commands and events: command outcomes, connection life, advertising
/// (Core v5.4 Vol 4 Part E §7.7, §7.8).
extension SessionAnalyzer {
    /// A host that never gets an answer must not grow this without end.
    static let pendingCommandCap = 16
    /// A background attempt cancelled after this long is worth a look (a warning).
    public static let longBackgroundWaitUs: Int64 = 30_000_000

    mutating func handle(_ command: HCICommandPacket, record: CaptureRecord) {
        let opcode = command.opcode
        // BTstack's daemon protocol: no controller answers it, so it is owed no answer.
        if opcode.isBTstackDaemon {
            PacketsNotAnalysed.count(.btstackDaemonCommand, code: Int(opcode.rawValue), bytes: Int(command.parameterTotalLength),
                                     timeUs: record.timestampUs, record: record.index, in: &stats.packetsNotAnalysed)
            return
        }
        // Queued in place in the dictionary (a copy taken out would be copied on write).
        let repeated = !(pendingCommands[opcode.rawValue]?.isEmpty ?? true)
        let droppedOldest = Self.enqueue(PendingCommand(opcode: opcode, timeUs: record.timestampUs, record: record.index,
                                                        handle: Self.linkHandle(of: command), repeated: repeated),
                                         in: &pendingCommands[opcode.rawValue, default: []])
        if droppedOldest { commandTotals[opcode.rawValue, default: CommandTotals(opcode: opcode)].unanswered += 1 }
        commandTotals[opcode.rawValue, default: CommandTotals(opcode: opcode)].count += 1

        switch command.parameters {
        case .leCreateConnection(let create):
            let peer = create.initiatorFilterPolicy == 0 ? create.peerAddress : nil
            pendingCreates.append(PendingCreate(peer: peer, peerType: create.peerAddressType,
                                                createUs: record.timestampUs, record: record.index))
        case .leExtendedCreateConnection(let create):
            let peer = create.initiatorFilterPolicy == 0 ? create.peerAddress : nil
            pendingCreates.append(PendingCreate(peer: peer, peerType: create.peerAddressType,
                                                createUs: record.timestampUs, record: record.index))
        case .leCreateConnectionCancel:
            for i in pendingCreates.indices { pendingCreates[i].cancelRequested = true }
        case .leEnableEncryption(let start):
            // The central encrypts with a key it has: the answer to a pending Security Request.
            if let conn = live[.hci(adapter: record.adapter, handle: start.connectionHandle)] {
                answerSecurityRequest(in: conn, with: .encryption)
            }
        case .raw where opcode.rawValue == 0x201B:
            if let handle = Self.linkHandle(of: command), let conn = live[.hci(adapter: record.adapter, handle: handle)] {
                longTermKeyRefused(in: conn, record: record)
            }
        case .disconnect(let disconnect):
            if let conn = live[.hci(adapter: record.adapter, handle: disconnect.connectionHandle)] {
                conn.disconnectRequested = true
                conn.disconnectRequest = (record.timestampUs, record.index)
            }
        case .raw:
            classicCommand(command)
            if let security = ClassicSecurityCommand(command) { handle(security, record: record) }
        default:
            break
        }
        if pendingCreates.count > Self.pendingCommandCap { pendingCreates.removeFirst() }
    }

    /// Queues a command awaiting its answer; true when the oldest had to make room (never answered).
    static func enqueue(_ command: PendingCommand, in pending: inout [PendingCommand]) -> Bool {
        let full = pending.count >= pendingCommandCap
        if full { pending.removeFirst() }
        pending.append(command)
        return full
    }

    /// One HCI event, with its record and the extended advertising reports its packet joined
    /// (handed the whole packet, the caller would copy it).
    mutating func handle(_ event: HCIEventPacket, record: CaptureRecord,
                         joinedAdvertising: [ExtendedAdvertisingAssembler.Output], events: inout [SessionEvent]) {
        if event.code.isBTstackDaemon {
            PacketsNotAnalysed.count(.btstackDaemonEvent, code: Int(event.code.rawValue), bytes: Int(event.parameterTotalLength),
                                     timeUs: record.timestampUs, record: record.index, in: &stats.packetsNotAnalysed)
            return
        }
        switch event.body {
        case .commandComplete(let complete):
            guard !complete.commandOpcode.isNOP else { return }
            answer(complete.commandOpcode, status: complete.status, by: "Command Complete", record: record)
        case .commandStatus(let status):
            answer(status.commandOpcode, status: status.status, by: "Command Status", record: record)
            if status.commandOpcode == .leCreateConnection || status.commandOpcode == .leExtendedCreateConnection
                || status.commandOpcode == .leExtendedCreateConnectionV2 {
                createStatus(status.status, record: record)
            }
        case .disconnectionComplete(let disconnection):
            guard disconnection.status.isSuccess else { return }
            disconnectionOfUnknownLink(handle: disconnection.connectionHandle, record: record)
            end(.hci(adapter: record.adapter, handle: disconnection.connectionHandle), reason: disconnection.reason,
                initiator: nil, timeUs: record.timestampUs, record: record.index, events: &events)
        case .encryptionChange(let change):
            // Encryption changed on a link: one the capture did not see begin is a connection.
            if change.status.isSuccess { linkWithoutCompletion(handle: change.connectionHandle, record: record) }
            guard let conn = live[.hci(adapter: record.adapter, handle: change.connectionHandle)] else { return }
            let off = change.status.isSuccess && change.encryptionEnabled == 0
            if off { conn.connection.encrypted = false }
            encryptionChanged(in: conn, kind: off ? .pause : .start, status: change.status.rawValue,
                              statusName: change.status.name, keySize: change.encryptionKeySize.map(Int.init), source: "hci",
                              record: record)
        case .encryptionKeyRefreshComplete(let status, let handle):
            guard let conn = live[.hci(adapter: record.adapter, handle: handle)] else { return }
            encryptionChanged(in: conn, kind: .refresh, status: status.rawValue, statusName: status.name, keySize: nil,
                              source: "hci", record: record)
        case .vendor(let parameters):
            vendorEvent(parameters, record: record)
        case .leMeta(let meta):
            handle(meta, record: record, joinedAdvertising: joinedAdvertising)
            if case .raw(let bytes) = meta.body { isochronousLink(subevent: meta.subevent.rawValue, bytes) }
        case .raw:
            if let classic = event.classicLink {
                handle(classic, record: record)
            } else if let security = event.classicSecurity {
                handle(security, record: record)
            }
        default:
            break
        }
    }

    /// A Vendor Specific event: an Android Bluetooth Quality Report that a link is approaching its
    /// supervision timeout is a warning on that link (`QualityReport`); any other is counted as
    /// not analysed, by its first byte.
    mutating func vendorEvent(_ parameters: [UInt8], record: CaptureRecord) {
        guard let report = QualityReport(vendorParameters: parameters), report.reportID == .approachingLSTO else {
            PacketsNotAnalysed.count(.hciVendorEvent, code: parameters.first.map(Int.init), bytes: parameters.count,
                                     timeUs: record.timestampUs, record: record.index, in: &stats.packetsNotAnalysed)
            return
        }
        let conn = live[.hci(adapter: record.adapter, handle: report.connectionHandle)]
        fail(.supervisionTimeoutApproaching, severity: .warning, at: record.timestampUs, record: record.index, slot: conn?.slot,
             connection: conn?.connection.id,
             "controller reported approaching supervision timeout on handle \(Hex.code(report.connectionHandle, width: 4)), "
                + "RSSI \(report.rssi) dBm" + (report.heardNothing ? " (nothing heard)" : "") + " (Bluetooth Quality Report)",
             details: [.int("connectionHandle", report.connectionHandle), .int("rssi", report.rssi),
                       .int("reportId", report.reportID.rawValue), .string("reportName", report.reportID.name)])
    }

    mutating func answer(_ opcode: HCIOpcode, status: HCIStatus?, by event: String, record: CaptureRecord) {
        let command = pendingCommands[opcode.rawValue]?.first
        if command != nil { pendingCommands[opcode.rawValue]?.removeFirst() }
        if opcode == .disconnect, status?.isSuccess ?? false, let handle = command?.handle {
            live[.hci(adapter: record.adapter, handle: handle)]?.disconnectAccepted = true
        }
        guard let status, !status.isSuccess else { return }
        commandTotals[opcode.rawValue, default: CommandTotals(opcode: opcode)].failed += 1
        var details: [Field] = [.int("opcode", opcode.rawValue), .string("opcodeName", opcode.name),
                                .int("status", status.rawValue), .string("statusName", status.name),
                                .string("answeredBy", event)]
        if let command { details.append(.int("commandTimeUs", command.timeUs)) }
        // A command about one link (connection update, PHY, data length, encryption, disconnect)
        // is shown on that link.
        let conn = command?.handle.flatMap { live[.hci(adapter: record.adapter, handle: $0)] }
        if let handle = command?.handle { details.append(.int("connectionHandle", handle)) }
        if opcode == .disconnect { conn?.disconnectRequested = false }
        let (kind, severity, why) = Self.classify(opcode, status: status, repeated: command?.repeated ?? false)
        fail(kind, severity: severity, at: record.timestampUs, record: record.index, slot: conn?.slot,
             connection: conn?.connection.id,
             "\(opcode.name) failed: \(status.name) (\(Hex.code(status.rawValue))), answered by \(event)" + why,
             details: details)
    }

    /// Which failed commands are stack housekeeping rather than failures (docs/failures.md):
    /// - a vendor-specific command (OGF 0x3F) answered Unknown HCI Command: stacks probe the
    ///   controller's vendor extensions (Android does at every start);
    /// - an advertising set's random address (or the random address) refused with Command
    ///   Disallowed: the controller refuses a new address while the set advertises (Core v5.4
    ///   Vol 4 Part E §7.8.52, §7.8.4), and the host retries at the next rotation;
    /// - LE Create Connection Cancel refused with Command Disallowed: nothing was pending any
    ///   more, the connection had completed or failed meanwhile (§7.8.13);
    /// - a vendor command that failed otherwise: the stack's extension, nothing the user asked
    ///   for is known to have failed (a warning);
    /// - a command refused with Command Disallowed that the host sent again while the same
    ///   command was pending: the host's repetition, not the operation, was refused (a warning).
    static func classify(_ opcode: HCIOpcode, status: HCIStatus, repeated: Bool) -> (FailureKind, FindingSeverity, String) {
        // OGF 0x3F vendor-specific, 0x3E reserved for testing (Vol 4 Part E §5.4.1).
        if opcode.isVendorSpecific && status.rawValue == 0x01 {
            return (.hciVendorCommandUnsupported, .info, " (the controller does not know this vendor command)")
        }
        if opcode.isLogoTesting && status.rawValue == 0x01 {
            return (.hciVendorCommandUnsupported, .info,
                    " (the controller does not know this command of OGF 0x3E, reserved for Bluetooth logo testing)")
        }
        if opcode.isVendorSpecific {
            return (.hciVendorCommandFailed, .warning, " (a vendor extension of the stack)")
        }
        if status.rawValue == 0x0C && repeated {
            return (.hciCommandWhilePending, .warning, " (sent again while the same command was still pending)")
        }
        if status.rawValue == 0x0C && (opcode.rawValue == 0x2035 || opcode.rawValue == 0x2005) {
            return (.advertisingAddressRefused, .info, " (refused while advertising; the host sets it again later)")
        }
        if status.rawValue == 0x0C && opcode == .leCreateConnectionCancel {
            return (.nothingToCancel, .info, " (no connection attempt was pending any more)")
        }
        return (.hciCommandFailed, .failure, "")
    }

    /// The connection handle of a command about one link (the first parameter of each, §7.1, §7.8).
    static func linkHandle(of command: HCICommandPacket) -> UInt16? {
        switch command.parameters {
        case .disconnect(let c): return c.connectionHandle
        case .leConnectionUpdate(let c): return c.connectionHandle
        case .leSetDataLength(let c): return c.connectionHandle
        case .leSetPHY(let c): return c.connectionHandle
        case .leReadRemoteFeatures(let handle): return handle
        case .leEnableEncryption(let c): return c.connectionHandle
        case .leLongTermKeyRequestReply(let c): return c.connectionHandle
        case .raw(let bytes):
            // LE Long Term Key Request Negative Reply, LE Read PHY, Read Remote Version
            // Information, Authentication Requested, Set Connection Encryption, Read RSSI.
            guard [0x201B, 0x2030, 0x041D, 0x0411, 0x0413, 0x1405].contains(command.opcode.rawValue) else { return nil }
            var reader = ByteReader(bytes, layer: .hci)
            return (try? reader.readUInt16LE("Connection_Handle")).map { $0 & 0x0FFF }
        default: return nil
        }
    }

    /// The controller's verdict on LE Create Connection: a non-zero status means no attempt.
    mutating func createStatus(_ status: HCIStatus, record: CaptureRecord) {
        guard let index = pendingCreates.lastIndex(where: { !$0.accepted }) else { return }
        if status.isSuccess {
            pendingCreates[index].accepted = true
        } else {
            let create = pendingCreates.remove(at: index)
            let slot = create.peer.map { registry.slot($0, type: create.peerType ?? .publicDevice) }
            attempts.append(ConnectionAttempt(peerAddress: create.peer, deviceID: slot.map { registry.deviceID(of: $0) },
                                              createUs: create.createUs, endUs: record.timestampUs, outcome: .rejected,
                                              status: status))
        }
    }

    mutating func handle(_ meta: LEMetaEvent, record: CaptureRecord, joinedAdvertising: [ExtendedAdvertisingAssembler.Output]) {
        switch meta.body {
        case .advertisingReport(let reports):
            for report in reports { advertised(report, timeUs: record.timestampUs) }
        case .directedAdvertisingReport(let reports):
            for report in reports {
                advertised(report.address, type: report.addressType, timeUs: record.timestampUs, rssi: report.rssi,
                           scanResponse: false, data: nil)
            }
        case .extendedAdvertisingReport:
            for output in joinedAdvertising {
                switch output {
                case .complete(let report, _), .truncated(let report, _):
                    advertised(report, timeUs: record.timestampUs)
                case .abandoned:
                    break
                }
            }
        case .connectionComplete(let complete):
            connectionComplete(complete, record: record)
        case .connectionUpdateComplete(let update):
            guard update.status.isSuccess else { return }
            live[.hci(adapter: record.adapter, handle: update.connectionHandle)]?.connection.parameters.append(
                ConnectionParameters(timeUs: record.timestampUs, intervalUs: update.connectionIntervalMicroseconds,
                                     latency: Int(update.peripheralLatency),
                                     supervisionTimeoutMs: update.supervisionTimeoutMicroseconds / 1000))
        case .dataLengthChange(let change):
            live[.hci(adapter: record.adapter, handle: change.connectionHandle)]?.connection.dataLength
                = (Int(change.maxTxOctets), Int(change.maxRxOctets))
        case .phyUpdateComplete(let update):
            guard update.status.isSuccess else { return }
            live[.hci(adapter: record.adapter, handle: update.connectionHandle)]?.connection.phy
                = (update.txPHY.name, update.rxPHY.name)
        default:
            break
        }
    }

    mutating func advertised(_ address: BluetoothAddress, type: AddressType, timeUs: Int64, rssi: Int8?,
                             scanResponse: Bool, data: AdvertisingData?) {
        let slot = registry.slot(address, type: type)
        registry.sawAdvertisement(slot: slot, timeUs: timeUs, rssi: rssi, scanResponse: scanResponse, data: data)
        if let data { classify(slot: slot, data: data) }
    }

    /// A legacy report, its Data parsed only when the address sent other bytes the last time
    /// (`DeviceRegistry.sawAdvertisement(…dataBytes:)`): the classifier already had these.
    mutating func advertised(_ report: LEAdvertisingReport, timeUs: Int64) {
        advertised(report.address, type: report.addressType, timeUs: timeUs, rssi: report.rssi,
                   scanResponse: report.eventType == .scanRsp, dataBytes: report.dataBytes)
    }

    /// An extended report (its fragments joined), its Data parsed only when it changed, as a
    /// legacy report's (parsing it every time would be most of an extended report's cost).
    mutating func advertised(_ report: LEExtendedAdvertisingReport, timeUs: Int64) {
        advertised(report.address, type: report.addressType, timeUs: timeUs, rssi: report.rssi,
                   scanResponse: report.eventType.isScanResponse,
                   dataBytes: ByteReader(report.data, layer: .advertisingData))
    }

    /// A report's Data bytes counted, and classified when the address sent other bytes the last time.
    private mutating func advertised(_ address: BluetoothAddress, type: AddressType, timeUs: Int64, rssi: Int8?,
                                     scanResponse: Bool, dataBytes: ByteReader) {
        let slot = registry.slot(address, type: type)
        if let data = registry.sawAdvertisement(slot: slot, timeUs: timeUs, rssi: rssi, scanResponse: scanResponse,
                                                dataBytes: dataBytes) {
            classify(slot: slot, data: data)
        }
    }

    /// Matches an address's advertising to a profile and identity, until an identity is found:
    /// the address's latest advertisement and scan response together, as a profile's match or
    /// identity may need what only the other carries (a company id, a name).
    private mutating func classify(slot: Int, data: AdvertisingData) {
        guard let classifier = options.classifier, !classified.contains(slot) else { return }
        // This report's structures, then those of the address's latest of each kind (HCI reports;
        // air captures keep no bytes), repeats included: a match only asks whether one is there.
        var reader = ByteReader(registry.advertisingBytes(of: slot))
        var all = data
        all.structures += AdvertisingData(parsing: &reader).structures
        guard let found = classifier(all) else { return }
        if let profile = found.profile { registry.setProfile(profile, of: slot) }
        if let identity = found.identity {
            classified.insert(slot)
            registry.assign(identity, to: slot)
        }
    }

    /// A completion with a non-zero status: the attempt was cancelled (0x02 after the host's LE
    /// Create Connection Cancel) or failed.
    mutating func attemptEnded(_ complete: LEConnectionCompleteEvent, create: PendingCreate?, slot: Int?,
                               record: CaptureRecord) {
        // 0x02 is how the controller completes an attempt the host cancelled (Core v5.4 Vol 4
        // Part E §7.8.13), and nothing else: cancelled whether the cancel was logged before or
        // after it, or the create before the capture began.
        let cancelled = complete.status.rawValue == 0x02
        attempts.append(ConnectionAttempt(peerAddress: slot == nil ? create?.peer : complete.peerAddress,
                                          deviceID: slot.map { registry.deviceID(of: $0) },
                                          createUs: create?.createUs ?? record.timestampUs, endUs: record.timestampUs,
                                          outcome: cancelled ? .cancelled : .failed, status: complete.status))
        if cancelled, let create, create.peer == nil, record.timestampUs - create.createUs >= Self.longBackgroundWaitUs {
            fail(.connectionAttemptCancelled, severity: .warning, at: record.timestampUs, record: record.index, slot: slot,
                 connection: nil, "Background connection attempt (filter accept list) cancelled after "
                    + Self.seconds(record.timestampUs - create.createUs) + " without a connection")
        }
        if !cancelled {
            fail(.connectionFailed, at: record.timestampUs, record: record.index, slot: slot, connection: nil,
                 "Connection to \(label(slot: slot)) failed: \(complete.status.name) (\(Hex.code(complete.status.rawValue)))",
                 details: [.int("status", complete.status.rawValue), .string("statusName", complete.status.name)])
        }
    }

    /// LE Connection Complete, Enhanced v1 and v2 (§7.7.65.1, .10, .41).
    mutating func connectionComplete(_ complete: LEConnectionCompleteEvent, record: CaptureRecord) {
        let index = pendingCreates.firstIndex { $0.peer == complete.peerAddress }
            ?? pendingCreates.firstIndex { $0.peer == nil }
            ?? (complete.role == .central ? pendingCreates.indices.first : nil)
        let create = index.map { pendingCreates.remove(at: $0) }
        guard complete.status.isSuccess || complete.peerAddress.value != 0 else {
            // A cancelled or failed attempt through the filter accept list names no peer.
            attemptEnded(complete, create: create, slot: nil, record: record)
            return
        }
        let slot = registry.slot(complete.peerAddress, type: complete.peerAddressType)
        if let rpa = complete.peerResolvablePrivateAddress, rpa.value != 0 {
            // The controller resolved the peer's RPA to its identity address: one device.
            let rpaSlot = registry.slot(rpa, type: .randomDevice)
            registry.merge(slot, rpaSlot)
            registry.assign(DeviceIdentity(value: complete.peerAddress.description, source: "enhanced-connection-complete"),
                            to: slot)
        }
        guard complete.status.isSuccess else {
            attemptEnded(complete, create: create, slot: slot, record: record)
            return
        }
        let id = newConnectionID()
        let link = LinkID.hci(adapter: record.adapter, handle: complete.connectionHandle)
        let connection = Connection(
            id: id, deviceID: registry.deviceID(of: slot), link: link, handle: complete.connectionHandle,
            accessAddress: nil, peerAddress: complete.peerAddress, peerAddressType: complete.peerAddressType,
            role: complete.role == .central ? .central : (complete.role == .peripheral ? .peripheral : .unknown),
            createUs: create?.createUs, startUs: record.timestampUs, startRecord: record.index,
            endUs: nil, endRecord: nil, disconnectReason: nil, initiator: nil, completeEvent: complete.subevent.name,
            parameters: [ConnectionParameters(timeUs: record.timestampUs, intervalUs: complete.connectionIntervalMicroseconds,
                                              latency: Int(complete.peripheralLatency),
                                              supervisionTimeoutMs: complete.supervisionTimeoutMicroseconds / 1000)],
            mtu: 23, dataLength: nil, phy: nil, encrypted: false, lastActivityUs: record.timestampUs,
            transactions: [], transactionTotals: TransactionTotals(), subscriptions: [],
            crcInit: nil, valueCounts: [], discovery: nil)
        if let previous = live[link] {
            // A new connection on a handle still open: the end was not captured.
            previous.connection.endUs = previous.connection.lastActivityUs
            previous.connection.endRecord = record.index
            previous.connection.initiator = .unknown
            previous.connection.endInferred = "its handle was reused: the end was not captured"
            keep(previous)
        }
        live.insert(LiveConnection(connection: connection, slot: slot), for: link)
        stats.maxConcurrentConnections = max(stats.maxConcurrentConnections, live.count)
        registry.sawConnection(slot: slot, id: id, timeUs: record.timestampUs)
    }
}
