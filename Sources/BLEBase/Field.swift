/// A decoded value as a renderer sees it: each layer describes its decoded values as an ordered
/// list of named fields, and the JSON, verbose-text and HTML renderers turn that into their own
/// syntax (escaping is theirs too). Numbers stay numbers; bytes stay bytes until a renderer
/// writes them as hex.
public indirect enum FieldValue: Sendable, Equatable {
    case int(Int64)
    case uint(UInt64)
    case bool(Bool)
    /// Text: either the decoder's own words (names) or untrusted text from the capture (device
    /// names); renderers escape it either way.
    case string(String)
    case bytes([UInt8])
    case address(BluetoothAddress)
    case uuid(BluetoothUUID)
    case list([FieldValue])
    case object([Field])
    case null
}

/// One named field. `name` is a lowerCamel JSON key; `display` is an optional human rendering
/// for text output (`0x0010`, `30.00 ms`, `Attribute Not Found (0x0A)`).
public struct Field: Sendable, Equatable {
    public var name: String
    public var value: FieldValue
    public var display: String?

    public init(_ name: String, _ value: FieldValue, display: String? = nil) {
        self.name = name
        self.value = value
        self.display = display
    }

    public static func int<T: BinaryInteger>(_ name: String, _ value: T, display: String? = nil) -> Field {
        Field(name, .int(Int64(value)), display: display)
    }

    /// An integer shown as `0x…` hex in text output.
    public static func code<T: BinaryInteger>(_ name: String, _ value: T, width: Int = 2, label: String? = nil) -> Field {
        let hex = Hex.code(value, width: width)
        return Field(name, .int(Int64(value)), display: label.map { "\($0) (\(hex))" } ?? hex)
    }

    public static func string(_ name: String, _ value: String) -> Field { Field(name, .string(value)) }
    public static func bytes(_ name: String, _ value: [UInt8]) -> Field { Field(name, .bytes(value)) }
    public static func bool(_ name: String, _ value: Bool) -> Field { Field(name, .bool(value)) }
}

/// Something a layer can describe as fields (JSON Lines output, `-v` trees).
public protocol FieldDescribable {
    var fields: [Field] { get }
}
