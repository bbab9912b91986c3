/// The protocol layer a decode error or finding belongs to.
public enum Layer: String, Sendable, Codable, CaseIterable {
    case capture, h4, hci, acl, l2cap, signalling, smp, att, advertisingData = "ad", linkLayer = "ll",
         vendor, unknown
}

/// A typed decode failure: what layer, which field, where (absolute byte offset within the
/// record or file), and how much was needed. Decoders throw these; the pipeline attaches them to
/// the packet as an issue and keeps going (lax at packet level, strict at field level).
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer bytes than a field needs.
    case truncated(layer: Layer, field: String, at: Int, needed: Int, available: Int)
    /// A value the specification forbids (reserved code, impossible length, …).
    case invalid(layer: Layer, field: String, at: Int, reason: String)
    /// Bytes remain after a structure whose size is fixed.
    case leftover(layer: Layer, structure: String, at: Int, count: Int)

    public var layer: Layer {
        switch self {
        case .truncated(let layer, _, _, _, _), .invalid(let layer, _, _, _), .leftover(let layer, _, _, _):
            return layer
        }
    }

    public var offset: Int {
        switch self {
        case .truncated(_, _, let at, _, _), .invalid(_, _, let at, _), .leftover(_, _, let at, _):
            return at
        }
    }

    public var description: String { "\(layer.rawValue): \(message)" }

    /// The description without the layer prefix.
    public var message: String {
        switch self {
        case let .truncated(_, field, at, needed, available):
            return "\(field) truncated at byte \(at): needs \(needed), \(available) left"
        case let .invalid(_, field, at, reason):
            return "invalid \(field) at byte \(at): \(reason)"
        case let .leftover(_, structure, at, count):
            return "\(count) unexpected byte(s) after \(structure) at byte \(at)"
        }
    }
}
