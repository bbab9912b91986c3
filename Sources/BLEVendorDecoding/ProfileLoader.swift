import BLEBase
import Foundation
import Yams

/// Reads and validates a profile (YAML; JSON is accepted as the YAML 1.2 subset it is). Every
/// error names the file, the line and the key; unknown keys are errors. Format: docs/profiles.md.
public enum ProfileLoader {
    /// Profiles larger than this are refused before parsing.
    public static let maxFileBytes = 256 * 1024

    public static func load(path: String) throws(ProfileError) -> Profile {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            var error = ProfileError(file: file, line: nil, key: "", message: "cannot read \(path)")
            error.unreadable = true
            throw error
        }
        guard data.count <= maxFileBytes else {
            throw ProfileError(file: file, line: nil, key: "", message: "larger than \(maxFileBytes) bytes")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProfileError(file: file, line: nil, key: "", message: "not UTF-8 text")
        }
        return try load(yaml: text, file: file)
    }

    public static func load(yaml: String, file: String) throws(ProfileError) -> Profile {
        if let (line, message) = ProfileNesting.violation(in: yaml) {
            throw ProfileError(file: file, line: line, key: "", message: message)
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw ProfileError(file: file, line: nil, key: "", message: "empty document")
            }
            root = node
        } catch let error as ProfileError {
            throw error
        } catch let error as YamlError {
            let (line, message) = YAMLSyntax.describe(error, in: yaml)
            throw ProfileError(file: file, line: line, key: "", message: message)
        } catch {
            throw ProfileError(file: file, line: nil, key: "", message: "not valid YAML")
        }
        var top = try YAMLCursor(node: root, path: "", file: file).mapping()
        let name = try top.required("profile").string()
        _ = try top.optional("description")?.string()
        let match = try matchRule(try top.required("match"))
        let identity = try top.optional("identity").map { c throws(ProfileError) in try identityRule(c) }
        let channels = try channelList(try top.required("channels"))
        let (framing, deviceFraming) = try framingRules(try top.required("framing"))
        let commands = try top.optional("commands").map { c throws(ProfileError) in try commandRules(c, framing: framing) }
        var variables: Set<Expression.Variable> = [.index]
        if commands != nil { variables.insert(.cmd) }
        if commands?.sequence != nil { variables.insert(.seq) }
        if case .field = framing.length { variables.insert(.len) }
        if case .field? = deviceFraming?.length { variables.insert(.len) }
        let obfuscation = try top.optional("obfuscation").map { c throws(ProfileError) in
            try obfuscationRule(c, variables: variables)
        }
        let checksum = try top.optional("checksum").map { c throws(ProfileError) in try checksumSpec(c) }
        try top.finish()
        var profile = Profile(name: name, file: file, match: match, identity: identity, channels: channels, framing: framing,
                              checksum: checksum, obfuscation: obfuscation, commands: commands)
        profile.deviceFraming = deviceFraming
        return profile
    }

    // MARK: sections

    private static func matchRule(_ c: YAMLCursor) throws(ProfileError) -> MatchRule {
        var m = try c.mapping()
        var rule = MatchRule()
        rule.companyID = try m.optional("companyId").map { c throws(ProfileError) in UInt16(try c.int(0...0xFFFF)) }
        rule.name = try m.optional("name").map { c throws(ProfileError) in try nameMatcher(c) }
        rule.advertisedService = try m.optional("advertisedService")?.uuid()
        rule.gattService = try m.optional("gattService")?.uuid()
        try m.finish()
        guard rule != MatchRule() else { throw c.error("needs at least one of companyId, name, advertisedService, gattService") }
        return rule
    }

    private static func nameMatcher(_ c: YAMLCursor) throws(ProfileError) -> NameMatcher {
        var m = try c.mapping()
        let prefix = try m.optional("prefix")?.string()
        let regexCursor = m.optional("regex")
        try m.finish()
        switch (prefix, regexCursor) {
        case (let p?, nil): return .prefix(p)
        case (nil, let r?):
            let pattern = try r.string()
            if let problem = NameMatcher.problem(pattern: pattern) { throw r.error(problem) }
            return .regex(pattern)
        default: throw c.error("needs exactly one of prefix, regex")
        }
    }

    private static func identityRule(_ c: YAMLCursor) throws(ProfileError) -> IdentityRule {
        var m = try c.mapping()
        let source = try m.required("source").choice(["manufacturer-data", "service-data", "name"])
        let rule: IdentityRule
        if source == "name" {
            let regexCursor = try m.required("regex")
            let pattern = try regexCursor.string()
            if let problem = NameMatcher.problem(pattern: pattern) { throw regexCursor.error(problem) }
            rule = .name(.regex(pattern))
        } else {
            let companyID = source == "manufacturer-data"
                ? try m.optional("companyId").map { c throws(ProfileError) in UInt16(try c.int(0...0xFFFF)) } : nil
            let uuid = source == "service-data" ? try m.required("uuid").uuid() : nil
            let offset = try m.required("offset").int(0...255)
            let lengthCursor = try m.required("length")
            let length = try lengthCursor.int(1...32)
            let order = try m.optional("order")?.choice(["msb-first", "lsb-first"]) ?? "msb-first"
            let formatName = try m.optional("format")?.choice(IdentityField.Format.allCases.map(\.rawValue)) ?? "hex"
            let format = IdentityField.Format(rawValue: formatName) ?? .hex
            if format == .mac, length != 6 { throw lengthCursor.error("a mac is 6 bytes, not \(length)") }
            if format == .uint, length > 8 { throw lengthCursor.error("a uint is at most 8 bytes") }
            let field = IdentityField(offset: offset, length: length, msbFirst: order == "msb-first", format: format)
            if let uuid { rule = .serviceData(uuid: uuid, field: field) } else {
                rule = .manufacturerData(companyID: companyID, field: field)
            }
        }
        try m.finish()
        return rule
    }

    private static let viaOpcodes: [String: (VendorDirection, UInt8)] = [
        "write-request": (.hostToDevice, 0x12), "write-command": (.hostToDevice, 0x52),
        "notification": (.deviceToHost, 0x1B), "indication": (.deviceToHost, 0x1D),
    ]

    private static func channelList(_ c: YAMLCursor) throws(ProfileError) -> [Channel] {
        var channels: [Channel] = []
        for item in try c.list() {
            var m = try item.mapping()
            let direction = VendorDirection(rawValue: try m.required("direction").choice(VendorDirection.allCases.map(\.rawValue)))
                ?? .hostToDevice
            let uuid = try m.optional("uuid")?.uuid()
            let handle = try m.optional("handle").map { c throws(ProfileError) in UInt16(try c.int(1...0xFFFF)) }
            let characteristic: Channel.Characteristic
            switch (uuid, handle) {
            case (let u?, nil): characteristic = .uuid(u)
            case (nil, let h?): characteristic = .handle(h)
            default: throw item.error("needs exactly one of uuid, handle")
            }
            let viaCursor = try m.required("via")
            var opcodes: Set<UInt8> = []
            let allowed = viaOpcodes.filter { $0.value.0 == direction }.keys.sorted()
            for v in try viaCursor.list() {
                let word = try v.choice(allowed)
                if let entry = viaOpcodes[word] { opcodes.insert(entry.1) }
            }
            guard !opcodes.isEmpty else { throw viaCursor.error("needs at least one of \(allowed.joined(separator: ", "))") }
            try m.finish()
            channels.append(Channel(direction: direction, characteristic: characteristic, attOpcodes: opcodes))
        }
        guard !channels.isEmpty else { throw c.error("needs at least one channel") }
        return channels
    }

    /// The `framing` section: the common rule, and per direction a section whose keys replace
    /// the common ones (`device-to-host: {sync: 2424}`). Returns the host's and, when there is a
    /// `device-to-host` or `host-to-device` section, the device's framing.
    private static func framingRules(_ c: YAMLCursor) throws(ProfileError) -> (host: Framing, device: Framing?) {
        var m = try c.mapping()
        var hostSection = try m.optional("host-to-device")?.mapping()
        var deviceSection = try m.optional("device-to-host")?.mapping()
        var none: YAMLMapping?
        let common = try framingRule(&m, override: &none, cursor: c)
        let host = hostSection == nil ? common : try framingRule(&m, override: &hostSection, cursor: c)
        let device = deviceSection == nil ? common : try framingRule(&m, override: &deviceSection, cursor: c)
        try m.finish()
        try hostSection?.finish()
        try deviceSection?.finish()
        return (host, device == host ? nil : device)
    }

    /// One framing from `m`'s keys, each replaced by `override`'s when it has it (`length` and
    /// `fixed` replace each other).
    private static func framingRule(_ m: inout YAMLMapping, override: inout YAMLMapping?,
                                    cursor c: YAMLCursor) throws(ProfileError) -> Framing {
        func pick(_ key: String) -> YAMLCursor? { override?.optional(key) ?? m.optional(key) }
        let syncCursor = pick("sync")
        // A list holding lists is alternatives: `[[0x3A, 0x26], [0x3B, 0x26]]`, `[[0x3A, 0x26], 3b26]`.
        var syncs: [[UInt8]] = []
        if let syncCursor, let items = syncCursor.node.sequence, !items.isEmpty, items.contains(where: { $0.sequence != nil }) {
            for item in try syncCursor.list() {
                let bytes = try item.bytes()
                guard !bytes.isEmpty, bytes.count <= 8 else { throw item.error("a sync is 1 to 8 bytes") }
                syncs.append(bytes)
            }
            guard syncs.count <= 8 else { throw syncCursor.error("at most 8 alternative syncs") }
        } else {
            syncs = [try syncCursor?.bytes() ?? []]
        }
        let sync = syncs[0]
        let overridesLength = override?.optional("length") != nil || override?.optional("fixed") != nil
        let lengthCursor = overridesLength ? override?.optional("length") : m.optional("length")
        let fixedCursor = overridesLength ? override?.optional("fixed") : m.optional("fixed")
        let maxLength = try pick("maxLength")?.int(1...65_535) ?? Framing.defaultMaxLength
        var payloadOffset = 0
        var trailer = 0
        if let p = pick("payload") {
            var pm = try p.mapping()
            payloadOffset = try pm.required("offset").int(0...maxLength)
            trailer = try pm.optional("trailer")?.int(0...maxLength) ?? 0
            try pm.finish()
        }
        let tail = try pick("tail")?.bytes() ?? []
        let prefixCursor = pick("prefix")
        let prefix = try prefixCursor?.bytes() ?? []
        let spansValues = try pick("spansValues")?.bool() ?? true
        let length: Framing.Length
        switch (lengthCursor, fixedCursor) {
        case (let l?, nil): length = .field(try lengthField(l))
        case (nil, let f?): length = .fixed(try f.int(1...maxLength))
        case (nil, nil): length = .none
        default: throw (override?.cursor ?? c).error("length and fixed exclude each other")
        }
        guard sync.count <= 8 else { throw (syncCursor ?? c).error("sync is at most 8 bytes") }
        if let prefixCursor {
            guard !sync.isEmpty else { throw prefixCursor.error("a prefix needs sync bytes to come before") }
            guard !prefix.isEmpty, prefix.count <= 8 else { throw prefixCursor.error("a prefix is 1 to 8 bytes") }
        }
        if case .field(let field) = length, field.offset + field.size > maxLength {
            throw (lengthCursor ?? c).error("the length field lies beyond maxLength")
        }
        var framing = Framing(sync: sync, length: length, payloadOffset: payloadOffset, trailerSize: trailer, tail: tail,
                              maxLength: maxLength, prefix: prefix, spansValues: spansValues)
        framing.alternativeSyncs = Array(syncs.dropFirst())
        return framing
    }

    private static func lengthField(_ c: YAMLCursor) throws(ProfileError) -> LengthField {
        var m = try c.mapping()
        let offset = try m.required("offset").int(0...Int.max)
        let size = try m.optional("size")?.int(1...2) ?? 1
        let endian = try m.optional("endian")?.choice(["big", "little"]) ?? "big"
        let counts = LengthField.Counts(rawValue: try m.required("counts").choice(LengthField.Counts.allCases.map(\.rawValue)))
            ?? .payload
        let adjust = try m.optional("adjust")?.int(-65_535...65_535) ?? 0
        try m.finish()
        return LengthField(offset: offset, size: size, bigEndian: endian == "big", counts: counts, adjust: adjust)
    }

    private static func checksumSpec(_ c: YAMLCursor) throws(ProfileError) -> ChecksumSpec {
        var m = try c.mapping()
        let algorithm: ChecksumAlgorithm
        let algorithmCursor = m.optional("algorithm")
        let crcCursor = m.optional("crc")
        switch (algorithmCursor, crcCursor) {
        case (let a?, nil):
            let name = try a.string()
            switch name.lowercased() {
            case "sum8": algorithm = .sum8
            case "sum16": algorithm = .sum16
            case "xor8": algorithm = .xor8
            default:
                guard let entry = CRCCatalogue.entry(named: name) else {
                    throw a.error("'\(name)' is not sum8, sum16, xor8 or a CRC catalogue name (CRC-8/MAXIM-DOW, CRC-16/MODBUS, …)")
                }
                algorithm = .crc(entry.parameters)
            }
        case (nil, let p?):
            var pm = try p.mapping()
            let width = try pm.required("width").choice(["8", "16"]) == "8" ? 8 : 16
            let top = (1 << width) - 1
            let poly = try pm.required("poly").int(0...top)
            let initial = try pm.optional("init")?.int(0...top) ?? 0
            let refin = try pm.optional("refin")?.bool() ?? false
            let refout = try pm.optional("refout")?.bool() ?? refin
            let xorout = try pm.optional("xorout")?.int(0...top) ?? 0
            try pm.finish()
            algorithm = .crc(CRCParameters(width: width, poly: UInt64(poly), initial: UInt64(initial), reflectIn: refin,
                                           reflectOut: refout, xorOut: UInt64(xorout)))
        default: throw c.error("needs exactly one of algorithm, crc")
        }
        let at = try m.required("at").int(-65_535...65_535)
        let endian = try m.optional("endian")?.choice(["big", "little"]) ?? "big"
        var from = 0
        var to = at < 0 ? at : 0
        if let r = m.optional("range") {
            var rm = try r.mapping()
            from = try rm.optional("from")?.int(-65_535...65_535) ?? 0
            to = try rm.optional("to")?.int(-65_535...65_535) ?? to
            try rm.finish()
        }
        let over = try m.optional("over")?.choice(["sent", "plaintext"]) ?? "sent"
        let emptyCursor = m.optional("empty")
        let empty = try emptyCursor.map { c throws(ProfileError) in UInt64(try c.int(0...(algorithm.size == 1 ? 0xFF : 0xFFFF))) }
        try m.finish()
        return ChecksumSpec(algorithm: algorithm, at: at, bigEndian: endian == "big", from: from, to: to,
                            overPlaintext: over == "plaintext", emptyValue: empty)
    }

    private static func obfuscationRule(_ c: YAMLCursor, variables: Set<Expression.Variable>) throws(ProfileError) -> Obfuscation {
        var m = try c.mapping()
        let key = m.optional("xor")
        let expression = m.optional("xorExpression")
        try m.finish()
        switch (key, expression) {
        case (let k?, nil):
            let bytes = try k.bytes()
            guard !bytes.isEmpty, bytes.count <= 256 else { throw k.error("an XOR key is 1 to 256 bytes") }
            return .xorKey(bytes)
        case (nil, let e?): return .xorExpression(try e.expression(requires: variables))
        default: throw c.error("needs exactly one of xor, xorExpression")
        }
    }

    private static func frameField(_ c: YAMLCursor) throws(ProfileError) -> FrameField {
        var m = try c.mapping()
        let offset = try m.required("offset").int(0...Int.max)
        let size = try m.optional("size")?.int(1...2) ?? 1
        let endian = try m.optional("endian")?.choice(["big", "little"]) ?? "big"
        try m.finish()
        return FrameField(offset: offset, size: size, bigEndian: endian == "big")
    }

    private static func commandRules(_ c: YAMLCursor, framing: Framing) throws(ProfileError) -> CommandRules {
        var m = try c.mapping()
        let command = try frameField(try m.required("command"))
        let sequence = try m.optional("sequence").map { c throws(ProfileError) in try frameField(c) }
        var names: [Int: String] = [:]
        if let n = m.optional("names") {
            var nm = try n.mapping()
            for (key, value) in nm.all() {
                guard let code = YAMLCursor.parseInt(key), code >= 0, code <= 0xFFFF else {
                    throw value.error("command codes are integers 0...0xFFFF")
                }
                names[code] = try value.string()
            }
            try nm.finish()
        }
        var responseCommand = Expression.variable(.cmd)
        var responseTable: [Int: Int]?
        var sameSequence = sequence != nil
        if let r = m.optional("response") {
            var rm = try r.mapping()
            if let rc = rm.optional("command"), rc.node.mapping != nil {
                responseTable = try codeTable(rc)
            } else if let rc = rm.optional("command") {
                // A word or an expression; a mapping above is a table.
                switch try rc.string() {
                case "same": responseCommand = .variable(.cmd)
                case "or-0x80": responseCommand = .binary(.or, .variable(.cmd), .literal(0x80))
                case "plus-1": responseCommand = .binary(.add, .variable(.cmd), .literal(1))
                default:
                    var available: Set<Expression.Variable> = [.cmd]
                    if sequence != nil { available.insert(.seq) }
                    responseCommand = try rc.expression(requires: available)
                }
            }
            if let s = rm.optional("sameSequence") {
                sameSequence = try s.bool()
                if sameSequence, sequence == nil { throw s.error("needs commands.sequence") }
            }
            try rm.finish()
        }
        var status: StatusRule?
        if let s = m.optional("status") {
            var sm = try s.mapping()
            let offset = try sm.required("offset").int(0...Int.max)
            let size = try sm.optional("size")?.int(1...2) ?? 1
            var success: Set<Int> = []
            for v in try sm.required("success").list() { success.insert(try v.int(0...0xFFFF)) }
            let carriers = try sm.optional("commands").map { c throws(ProfileError) in
                var codes: Set<Int> = []
                for v in try c.list() { codes.insert(try v.int(0...0xFFFF)) }
                return codes
            }
            try sm.finish()
            status = StatusRule(offset: offset, size: size, success: success, commands: carriers)
        }
        let timeoutMs = try m.optional("timeoutMs")?.int(1...3_600_000) ?? 30_000
        let queues = try m.optional("queues")?.bool() ?? true
        try m.finish()
        _ = framing
        return CommandRules(command: command, sequence: sequence, names: names, responseCommand: responseCommand,
                            sameSequence: sameSequence, status: status, timeoutUs: Int64(timeoutMs) * 1000, queues: queues,
                            responseTable: responseTable)
    }

    /// A mapping of command codes to response codes (`{0x0301: 0x0300}`).
    private static func codeTable(_ c: YAMLCursor) throws(ProfileError) -> [Int: Int] {
        var m = try c.mapping()
        var table: [Int: Int] = [:]
        for (key, value) in m.all() {
            guard let code = YAMLCursor.parseInt(key), code >= 0, code <= 0xFFFF else {
                throw value.error("command codes are integers 0...0xFFFF")
            }
            table[code] = try value.int(0...0xFFFF)
        }
        try m.finish()
        guard !table.isEmpty else { throw c.error("needs at least one command") }
        return table
    }
}
