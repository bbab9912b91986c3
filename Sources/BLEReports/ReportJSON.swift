import BLEAnalysis
import BLEAssignedNumbers
import BLEATT
import BLEBase
import BLECaptureFormats
import BLEL2CAP
import BLEPacketDecoding
import BLESessions
import BLEVendorDecoding

/// The JSON report of docs/report.md (schema: docs/report.schema.json).
public enum ReportJSON {
    public static let schemaVersion = 1

    /// Streams the report to `sink` in pieces of about `chunkSize` bytes, so that memory
    /// does not grow with the report (a long capture's report is tens of MB); each piece is lent
    /// for the call only. `parallel` writes its long arrays on two threads (`ParallelJSON`), for a
    /// caller that leaves a core free.
    public static func write(_ analysis: Analysis, commandLine: String, chunkSize: Int = 1 << 16, parallel: Bool = true,
                             to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
        var w = JSONWriter(capacity: min(chunkSize, 1 << 16) + 4096)
        let report = analysis.report
        w.beginObject()
        w.field("schemaVersion", schemaVersion)
        w.key("tool")
        w.beginObject()
        w.field("name", "bledecode")
        w.field("version", ToolVersion.current)
        w.field("commandLine", commandLine)
        w.endObject()
        capture(analysis, into: &w)
        stats(report.stats, into: &w)
        w.key("devices")
        w.beginArray()
        ParallelJSON.writeElements(report.devices, into: &w, parallel: parallel,
                                   chunkSize: chunkSize, sink: sink) { device, w in
            self.device(device, into: &w)
        }
        w.endArray()
        // A device's GATT database is written with each of its connections: encoded once per device.
        let gattJSONByDevice = Dictionary(report.devices.map { ($0.id, gattJSON($0.gatt)) }, uniquingKeysWith: { a, _ in a })
        let noGATT = gattJSON([])
        w.key("connections")
        w.beginArray()
        ParallelJSON.writeElements(report.connections, into: &w, parallel: parallel,
                                   chunkSize: chunkSize, sink: sink) { connection, w in
            let gatt = connection.gatt.isEmpty ? connection.deviceID.flatMap { gattJSONByDevice[$0] } ?? noGATT
                : gattJSON(connection.gatt)
            self.connection(connection, gattJSON: gatt, into: &w)
        }
        w.endArray()
        w.key("connectionAttempts")
        w.beginArray()
        for attempt in report.attempts { self.attempt(attempt, into: &w) }
        w.endArray()
        w.key("hciCommands")
        w.beginArray()
        for command in report.commands {
            w.beginObject()
            w.field("opcode", command.opcode.rawValue)
            w.field("name", command.opcode.name)
            w.field("count", command.count)
            w.field("failed", command.failed)
            w.field("unanswered", command.unanswered)
            w.endObject()
        }
        w.endArray()
        profiles(analysis, into: &w)
        w.key("vendorFrames")
        w.beginArray()
        ParallelJSON.writeElements(analysis.vendorFrames, into: &w, parallel: parallel,
                                   chunkSize: chunkSize, sink: sink) { frame, w in
            vendorFrame(frame, into: &w)
        }
        w.endArray()
        w.key("failures")
        w.beginArray()
        ParallelJSON.writeElements(report.failures, into: &w, parallel: parallel,
                                   chunkSize: chunkSize, sink: sink) { failure, w in
            self.failure(failure, into: &w)
        }
        w.endArray()
        w.key("notices")
        w.beginArray()
        for notice in report.notices { failure(notice, into: &w) }
        w.endArray()
        w.endObject()
        w.lendBytes(to: sink)
    }

    /// A time as `nameUs` (microseconds) and `name` (ISO 8601).
    static func time(_ name: StaticString, _ usName: StaticString, _ us: Int64?, into w: inout JSONWriter) {
        w.field(usName, optional: us)
        w.key(name)
        if let us { w.isoTime(unixMicroseconds: us) } else { w.null() }
    }

    static func capture(_ analysis: Analysis, into w: inout JSONWriter) {
        let stats = analysis.report.stats
        w.key("capture")
        w.beginObject()
        w.field("path", analysis.info.path)
        w.field("format", analysis.info.container.rawValue)
        w.field("linkType", analysis.info.linkTypeDescription)
        w.field("compressed", analysis.info.compressed)
        w.field("packets", stats.records)
        w.field("firstTimeUs", optional: stats.firstTimeUs)
        w.field("lastTimeUs", optional: stats.lastTimeUs)
        w.field("firstTime", optional: stats.firstTimeUs.map { Timestamp.iso8601(unixMicroseconds: $0) })
        w.field("lastTime", optional: stats.lastTimeUs.map { Timestamp.iso8601(unixMicroseconds: $0) })
        w.field("truncatedRecords", stats.truncatedRecords)
        w.key("warnings")
        w.beginArray()
        for diagnostic in analysis.diagnostics {
            w.beginObject()
            w.field("severity", diagnostic.severity.rawValue)
            w.field("kind", diagnostic.kind.rawValue)
            w.field("record", optional: diagnostic.recordNumber)
            w.field("byteOffset", optional: diagnostic.byteOffset)
            w.field("message", diagnostic.message)
            w.endObject()
        }
        for issue in analysis.pipelineIssues {
            w.beginObject()
            w.field("severity", "warning")
            w.field("kind", issue.kind.rawValue)
            w.field("record", optional: Int?.none)
            w.field("byteOffset", optional: Int?.none)
            w.field("message", "at end of capture: " + issue.description)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    static func stats(_ stats: CaptureStatistics, into w: inout JSONWriter) {
        w.key("stats")
        w.beginObject()
        w.field("hciCommands", stats.hciCommands)
        w.field("hciEvents", stats.hciEvents)
        w.field("aclPackets", stats.aclPackets)
        w.field("airPackets", stats.airPackets)
        w.field("badCrcPackets", stats.badCRCPackets)
        w.field("undecodableRadioPackets", stats.undecodableRadioPackets)
        w.field("maxConcurrentConnections", stats.maxConcurrentConnections)
        w.field("records", stats.records)
        w.field("scoPackets", stats.scoPackets)
        w.field("isoPackets", stats.isoPackets)
        w.field("otherRecords", stats.otherRecords)
        w.field("undecodableRecords", stats.undecodableRecords)
        w.key("channelsNotAnalysed")
        w.beginArray()
        for use in stats.channelsNotAnalysed { channelUse(use, into: &w) }
        w.endArray()
        w.field("l2capWithoutConnection", stats.l2capWithoutConnection)
        w.key("packetsNotAnalysed")
        w.beginArray()
        for use in stats.packetsNotAnalysed { packetsNotAnalysed(use, into: &w) }
        w.endArray()
        w.key("failuresByKind")
        w.beginObject()
        for (kind, count) in stats.failuresByKind.sorted(by: { $0.key < $1.key }) { w.dynamicKey(kind.rawValue); w.int(count) }
        w.endObject()
        w.key("noticesByKind")
        w.beginObject()
        for (kind, count) in stats.noticesByKind.sorted(by: { $0.key < $1.key }) { w.dynamicKey(kind.rawValue); w.int(count) }
        w.endObject()
        w.key("attPdus")
        w.beginObject()
        for (opcode, count) in stats.attPDUs.sorted(by: { $0.key < $1.key }) { w.dynamicKey(Hex.code(opcode)); w.int(count) }
        w.endObject()
        w.key("attPdusCut")
        w.beginObject()
        for (opcode, count) in stats.cutATTPDUs.sorted(by: { $0.key < $1.key }) { w.dynamicKey(Hex.code(opcode)); w.int(count) }
        w.endObject()
        w.field("attPdusHidden", stats.hiddenATTPDUs)
        w.key("decodeIssues")
        w.beginObject()
        for (kind, count) in stats.issues.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { w.dynamicKey(kind.rawValue); w.int(count) }
        w.endObject()
        w.endObject()
    }

    /// One channel not analysed: `psm` (null when the capture lacks the channel's opening), its
    /// name, the CID, packets, bytes and first and last time.
    static func channelUse(_ use: ChannelUse, into w: inout JSONWriter) {
        w.beginObject()
        w.field("psm", optional: use.psm)
        w.field("name", use.psm.map { PSM(rawValue: $0).name } ?? ChannelID(rawValue: use.cid).name)
        w.field("cid", use.cid)
        w.field("packets", use.packets)
        w.field("bytes", use.bytes)
        w.field("firstUs", use.firstUs)
        w.field("lastUs", use.lastUs)
        w.endObject()
    }

    /// Packets of one kind and code counted but not decoded: `kind`, `code` (null for a vendor
    /// event without parameters), `name`, packets, bytes, first and last time, first record.
    static func packetsNotAnalysed(_ use: PacketsNotAnalysed, into w: inout JSONWriter) {
        w.beginObject()
        w.field("kind", use.kind.rawValue)
        w.field("code", optional: use.code)
        w.field("name", use.name)
        w.field("packets", use.packets)
        w.field("bytes", use.bytes)
        w.field("firstUs", use.firstUs)
        w.field("lastUs", use.lastUs)
        w.field("firstRecord", use.firstRecord)
        w.endObject()
    }

    static func device(_ device: Device, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", device.id)
        w.key("addresses")
        w.beginArray()
        for address in device.addresses {
            w.beginObject()
            w.field("address", address.address.description)
            w.field("type", address.type.rawValue)
            w.field("advertisements", address.advertisements)
            w.field("scanResponses", address.scanResponses)
            w.key("rssi")
            if let rssi = address.rssi {
                w.beginObject()
                w.field("min", rssi.min)
                w.field("median", rssi.median)
                w.field("max", rssi.max)
                w.endObject()
            } else {
                w.null()
            }
            time("firstSeen", "firstSeenUs", address.firstSeenUs, into: &w)
            time("lastSeen", "lastSeenUs", address.lastSeenUs, into: &w)
            w.key("bursts")
            w.beginArray()
            for burst in address.bursts {
                w.beginObject()
                w.field("startUs", burst.startUs)
                w.field("endUs", burst.endUs)
                w.field("count", burst.count)
                w.field("rssiMin", optional: burst.rssiMin)
                w.field("rssiMax", optional: burst.rssiMax)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("identity")
        if let identity = device.identity {
            w.beginObject()
            w.field("value", identity.value)
            w.field("source", identity.source)
            w.endObject()
        } else {
            w.null()
        }
        w.key("names")
        w.value(.list(device.names.map { .string($0) }))
        w.key("companyIds")
        w.value(.list(device.companyIDs.map { .int(Int64($0)) }))
        w.key("companies")
        w.value(.list(device.companyIDs.map { .string(AssignedNumbers.companyName($0) ?? Hex.code($0, width: 4)) }))
        w.key("serviceUuids")
        w.value(.list(device.serviceUUIDs.map { .uuid($0) }))
        w.field("txPower", optional: device.txPower)
        w.field("advertisements", device.advertisements)
        time("firstSeen", "firstSeenUs", device.firstSeenUs, into: &w)
        time("lastSeen", "lastSeenUs", device.lastSeenUs, into: &w)
        w.key("connections")
        w.beginArray()
        for id in device.connectionIDs { w.id(id) }
        w.endArray()
        w.endObject()
    }

    /// A GATT database as the JSON array of `connections[].gatt`.
    static func gattJSON(_ gatt: [GATTAttribute]) -> [UInt8] {
        var w = JSONWriter(capacity: 128 * gatt.count + 2)
        w.beginArray()
        for attribute in gatt {
            w.beginObject()
            w.field("handle", attribute.handle)
            w.field("uuid", attribute.uuid.description)
            w.field("name", optional: AssignedNumbers.name(for: attribute.uuid))
            w.field("kind", attribute.kind.rawValue)
            w.key("properties")
            w.value(.list(attribute.properties.map { .string($0) }))
            w.field("declarationHandle", optional: attribute.declarationHandle)
            w.field("endHandle", optional: attribute.endHandle)
            w.endObject()
        }
        w.endArray()
        return w.bytes
    }

    /// `gattJSON`: the device's GATT database, encoded by `gattJSON(_:)`.
    static func connection(_ c: Connection, gattJSON: [UInt8], into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", c.id)
        w.field("device", optional: c.deviceID)
        w.field("handle", optional: c.handle)
        w.field("accessAddress", optional: c.accessAddress)
        w.field("crcInit", optional: c.crcInit)
        w.field("peerAddress", optional: c.peerAddress?.description)
        w.field("peerAddressType", optional: c.peerAddressType?.description)
        w.field("role", c.role.rawValue)
        w.field("transport", c.transport.rawValue)
        w.field("startedBeforeCapture", c.startedBeforeCapture)
        w.field("completeEvent", c.completeEvent)
        time("create", "createUs", c.createUs, into: &w)
        time("start", "startUs", c.startUs, into: &w)
        time("end", "endUs", c.endUs, into: &w)
        w.field("startRecord", c.startRecord)
        w.field("endRecord", optional: c.endRecord)
        w.field("dangling", c.dangling)
        w.key("disconnectReason")
        if let reason = c.disconnectReason {
            w.beginObject()
            w.field("code", reason.rawValue)
            w.field("name", reason.name)
            w.endObject()
        } else {
            w.null()
        }
        w.field("initiator", optional: c.initiator?.rawValue)
        w.field("endInferred", optional: c.endInferred)
        w.key("parameters")
        w.beginArray()
        for p in c.parameters {
            w.beginObject()
            w.field("timeUs", p.timeUs)
            w.field("intervalUs", p.intervalUs)
            w.field("latency", p.latency)
            w.field("supervisionTimeoutMs", p.supervisionTimeoutMs)
            w.endObject()
        }
        w.endArray()
        w.field("mtu", c.mtu)
        w.key("dataLength")
        if let length = c.dataLength {
            w.beginObject(); w.field("tx", length.tx); w.field("rx", length.rx); w.endObject()
        } else { w.null() }
        w.key("phy")
        if let phy = c.phy {
            w.beginObject(); w.field("tx", phy.tx); w.field("rx", phy.rx); w.endObject()
        } else { w.null() }
        w.field("encrypted", c.encrypted)
        w.field("encryptedSinceUs", optional: c.security.encryptedSinceUs)
        security(c.security, into: &w)
        w.key("bearers")
        w.beginArray()
        for bearer in c.bearers {
            w.beginObject()
            w.field("kind", bearer.kind.rawValue)
            w.field("psm", optional: bearer.psm)
            w.field("localCid", bearer.localCID)
            w.field("remoteCid", bearer.remoteCID)
            w.endObject()
        }
        w.endArray()
        w.key("channels")
        w.beginArray()
        for use in c.channels { channelUse(use, into: &w) }
        w.endArray()
        w.key("packetsNotAnalysed")
        w.beginArray()
        for use in c.packetsNotAnalysed { packetsNotAnalysed(use, into: &w) }
        w.endArray()
        w.key("discovery")
        if let discovery = c.discovery {
            w.beginObject(); w.field("startUs", discovery.startUs); w.field("endUs", discovery.endUs); w.endObject()
        } else { w.null() }
        w.key("otherSideDiscovery")
        if let discovery = c.otherSideDiscovery {
            w.beginObject(); w.field("startUs", discovery.startUs); w.field("endUs", discovery.endUs); w.endObject()
        } else { w.null() }
        w.key("rediscoveries")
        w.beginArray()
        for run in c.rediscoveries {
            w.beginObject(); w.field("startUs", run.startUs); w.field("endUs", run.endUs); w.endObject()
        }
        w.endArray()
        w.key("values")
        w.beginArray()
        for (key, count) in c.valueCounts {
            w.beginObject()
            w.field("opcode", key.opcode)
            w.field("opcodeName", ATTOpcode(rawValue: key.opcode).name)
            w.field("handle", key.handle)
            w.field("server", key.server.rawValue)
            w.field("count", count)
            w.endObject()
        }
        w.endArray()
        w.key("subscriptions")
        w.beginArray()
        for s in c.subscriptions {
            w.beginObject()
            w.field("timeUs", s.timeUs)
            w.field("cccdHandle", s.cccdHandle)
            w.field("characteristic", s.characteristic)
            w.field("notifications", s.notifications)
            w.field("indications", s.indications)
            w.endObject()
        }
        w.endArray()
        w.key("gatt")
        w.raw(gattJSON)
        w.key("otherSideGatt")
        w.raw(Self.gattJSON(c.otherSideGATT))
        w.key("transactions")
        w.beginArray()
        for t in c.transactions { transaction(t, into: &w) }
        w.endArray()
        w.key("transactionTotals")
        w.beginArray()
        for (key, aggregate) in c.transactionTotals.byKey {
            w.beginObject()
            w.field("opcode", key.opcode)
            w.field("opcodeName", ATTOpcode(rawValue: key.opcode).name)
            w.field("handle", optional: key.handle)
            w.field("server", key.server.rawValue)
            w.field("count", aggregate.count)
            w.field("errors", aggregate.errors)
            w.field("discoveryEnds", aggregate.discoveryEnds)
            w.field("unanswered", aggregate.unanswered)
            w.field("outOfTurn", aggregate.outOfTurn)
            w.key("latencyUs")
            if let min = aggregate.latencies.min, let max = aggregate.latencies.max {
                w.beginObject()
                w.field("min", min)
                w.field("median", optional: aggregate.latencies.median)
                w.field("max", max)
                w.endObject()
            } else {
                w.null()
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// `connections[].security`: pairings, encryption changes, Security Requests.
    static func security(_ s: ConnectionSecurity, into w: inout JSONWriter) {
        w.key("security")
        w.beginObject()
        w.key("pairings")
        w.beginArray()
        for p in s.pairings {
            w.beginObject()
            w.field("startUs", p.startUs)
            w.field("endUs", optional: p.endUs)
            w.field("durationUs", optional: p.endUs.map { $0 - p.startUs })
            w.field("record", p.startRecord)
            w.field("initiator", p.initiator)
            w.field("method", p.method.rawValue)
            w.field("secureConnections", p.secureConnections)
            w.field("bonding", p.bonding)
            w.field("mitm", p.mitm)
            w.field("initiatorIoCapability", optional: p.initiatorIOCapability)
            w.field("responderIoCapability", optional: p.responderIOCapability)
            w.field("keySize", optional: p.keySize)
            w.key("initiatorKeys")
            w.value(.list(p.initiatorKeys.map { .string($0) }))
            w.key("responderKeys")
            w.value(.list(p.responderKeys.map { .string($0) }))
            w.field("result", p.result.rawValue)
            w.field("reasonCode", optional: p.reasonCode)
            w.field("reasonName", optional: p.reasonName)
            w.field("failedBy", optional: p.failedBy)
            w.endObject()
        }
        w.endArray()
        w.key("encryption")
        w.beginArray()
        for e in s.encryption {
            w.beginObject()
            w.field("timeUs", e.timeUs)
            w.field("record", optional: e.record)
            w.field("kind", e.kind.rawValue)
            w.field("status", e.status)
            w.field("statusName", e.statusName)
            w.field("source", e.source)
            w.field("keySize", optional: e.keySize)
            w.endObject()
        }
        w.endArray()
        w.key("securityRequests")
        w.beginArray()
        for r in s.securityRequests {
            w.beginObject()
            w.field("timeUs", r.timeUs)
            w.field("record", r.record)
            w.field("bonding", r.bonding)
            w.field("mitm", r.mitm)
            w.field("secureConnections", r.secureConnections)
            w.field("from", r.from)
            w.field("outcome", r.outcome.rawValue)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    static func transaction(_ t: ATTTransaction, into w: inout JSONWriter) {
        w.beginObject()
        w.field("opcode", t.opcode.rawValue)
        w.field("opcodeName", t.opcode.name)
        w.field("handle", optional: t.handle)
        w.field("attribute", optional: t.attribute)
        w.field("direction", t.direction.rawValue)
        w.field("server", t.server.rawValue)
        w.field("requestUs", t.requestUs)
        w.field("requestRecord", t.requestRecord)
        w.field("responseUs", optional: t.responseUs)
        w.field("responseRecord", optional: t.responseRecord)
        w.field("responseOpcode", optional: t.responseOpcode?.rawValue)
        w.field("latencyUs", optional: t.latencyUs)
        w.field("outcome", t.outcome.rawValue)
        w.field("errorCode", optional: t.errorCode?.rawValue)
        w.field("errorName", optional: t.errorCode?.name)
        // Values in hex, cut to `ATTTransaction.valueCap` bytes; the lengths say how long they were.
        if let value = t.value {
            w.field("requestValue", Hex.string(value.prefix(ATTTransaction.valueCap)))
            w.field("requestValueLength", value.count)
        }
        if let value = t.responseValue {
            w.field("responseValue", Hex.string(value.prefix(ATTTransaction.valueCap)))
            w.field("responseValueLength", t.responseValueLength ?? value.count)
        }
        w.endObject()
    }

    static func attempt(_ a: ConnectionAttempt, into w: inout JSONWriter) {
        w.beginObject()
        w.field("peerAddress", optional: a.peerAddress?.description)
        w.field("device", optional: a.deviceID)
        time("create", "createUs", a.createUs, into: &w)
        time("end", "endUs", a.endUs, into: &w)
        w.field("waitedUs", optional: a.endUs.map { $0 - a.createUs })
        w.field("outcome", a.outcome.rawValue)
        w.field("status", optional: a.status?.rawValue)
        w.field("statusName", optional: a.status?.name)
        w.endObject()
    }

    /// `profiles`: what each profile decoded, or why it decoded nothing (also `verify --json`'s).
    static func profiles(_ analysis: Analysis, into w: inout JSONWriter) {
        w.key("profiles")
        w.beginArray()
        for use in analysis.profileUses {
            w.beginObject()
            w.field("name", use.name)
            w.field("devices", use.devices)
            w.field("connections", use.connections.count)
            w.field("frames", use.frames)
            w.field("why", optional: use.why)
            w.endObject()
        }
        w.endArray()
    }

    static func vendorFrame(_ f: VendorFrame, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", f.id)
        w.field("connection", f.connection)
        w.field("direction", f.direction.rawValue)
        w.field("attOpcode", f.attOpcode)
        w.field("handle", f.handle)
        w.field("firstTimeUs", f.firstTimeUs)
        w.field("lastTimeUs", f.lastTimeUs)
        w.field("firstRecord", f.firstRecord)
        w.field("firstFragmentRecord", f.firstFragmentRecord)
        w.field("firstFragmentTimeUs", f.firstFragmentTimeUs)
        w.field("lastRecord", f.lastRecord)
        w.field("fragments", f.fragments)
        w.key("raw")
        w.hexString(f.raw)
        w.key("plaintext")
        if let plaintext = f.plaintext { w.hexString(plaintext) } else { w.null() }
        w.key("crcOk")
        if let ok = f.checksumOK { w.bool(ok) } else { w.null() }
        w.field("checksumCarried", optional: f.checksumCarried.map(Int.init))
        w.field("checksumComputed", optional: f.checksumComputed.map(Int.init))
        w.field("command", optional: f.command)
        w.field("commandName", optional: f.commandName)
        w.field("sequence", optional: f.sequence)
        w.field("status", optional: f.status)
        w.key("statusOk")
        if let ok = f.statusOK { w.bool(ok) } else { w.null() }
        w.field("outcome", f.outcome.rawValue)
        w.field("matchedFrame", optional: f.matchedFrame)
        w.field("latencyUs", optional: f.latencyUs)
        w.field("problem", optional: f.problem)
        w.endObject()
    }

    static func failure(_ f: Failure, into w: inout JSONWriter) {
        w.beginObject()
        w.field("kind", f.kind.rawValue)
        w.field("severity", f.severity.rawValue)
        time("time", "timeUs", f.timeUs, into: &w)
        w.field("device", optional: f.deviceID)
        w.field("connection", optional: f.connectionID)
        w.field("record", optional: f.record)
        w.field("summary", f.summary)
        if f.severity != .failure { w.field("count", f.count) }
        for detail in f.details {
            w.dynamicKey(detail.name)
            w.value(detail.value)
        }
        w.endObject()
    }
}

/// The version the tool reports (`bledecode --version`, reports' `tool.version`).
public enum ToolVersion {
    public static let current = "0.1.0"
}
