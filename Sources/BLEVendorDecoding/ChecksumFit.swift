import BLEBase

/// A checksum found in a device's frames (`infer-crc`): its algorithm, where its value sits and
/// what it covers (`spec`, whose fields read through, `fit.at`), and its catalogue name when it has
/// one; said the way a profile writes it.
@dynamicMemberLookup
public struct ChecksumFit: Sendable, Equatable {
    public var spec: ChecksumSpec
    public var catalogueName: String?

    public init(spec: ChecksumSpec, catalogueName: String?) {
        self.spec = spec
        self.catalogueName = catalogueName
    }

    public subscript<T>(dynamicMember field: KeyPath<ChecksumSpec, T>) -> T { spec[keyPath: field] }

    public var name: String { catalogueName ?? spec.algorithm.name }

    /// Where the value is and what it covers, in words: "check value at end-4 (little-endian)
    /// over bytes 2 to end-4".
    public var layout: String {
        let position = spec.at < 0 ? "end\(spec.at)" : String(spec.at)
        let order = spec.algorithm.size > 1 ? (spec.bigEndian ? " (big-endian)" : " (little-endian)") : ""
        let end = spec.to == 0 ? "end" : spec.to < 0 ? "end\(spec.to)" : String(spec.to)
        return "check value at \(position)\(order) over bytes \(spec.from) to \(end)"
    }

    /// The profile's `checksum:` section (docs/profiles.md): a catalogue name, or a CRC's
    /// parameters in full.
    public var yamlSnippet: String {
        var lines = ["checksum:"]
        switch spec.algorithm {
        case .crc(let p) where catalogueName == nil:
            let digits = p.width / 4
            lines += ["  crc:", "    width: \(p.width)", "    poly: \(Hex.code(p.poly, width: digits))",
                      "    init: \(Hex.code(p.initial, width: digits))", "    refin: \(p.reflectIn)",
                      "    refout: \(p.reflectOut)", "    xorout: \(Hex.code(p.xorOut, width: digits))"]
        default:
            lines.append("  algorithm: \(name)")
        }
        lines.append("  at: \(spec.at)")
        if spec.algorithm.size > 1 { lines.append("  endian: \(spec.bigEndian ? "big" : "little")") }
        lines.append("  range: {from: \(spec.from), to: \(spec.to)}")
        if let emptyValue = spec.emptyValue, emptyValue != spec.algorithm.compute([UInt8]()) {
            lines.append("  empty: \(Hex.code(emptyValue, width: spec.algorithm.size * 2))")
        }
        return lines.joined(separator: "\n")
    }
}
