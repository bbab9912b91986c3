import BLEBase

/// A decoded CtrData field of an LL control PDU.
public struct ControlParameter: Sendable, Equatable {
    /// What one step of an integer field means.
    public enum Unit: Sendable, Equatable {
        case slots1250us, ms10, us
    }

    public enum Value: Sendable, Equatable {
        case unsigned(UInt64)
        case signed(Int64)
        case bytes([UInt8])
        case errorCode(LLErrorCode)
        case opcode(ControlOpcode)
        case address(BluetoothAddress)
        /// PHY bit field: bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded.
        case phys(UInt8)
        /// Link Layer version (Assigned Numbers §2.1 "Link Layer Version").
        case version(UInt8)
    }

    public var name: String
    public var value: Value
    public var unit: Unit?
}

/// An LL control PDU (Core v5.4 Vol 6 Part B §2.4.2):
///
/// ```
/// +-------------+-------------------------------------------+
/// | Opcode (u8) | CtrData (layout per opcode, little-endian) |
/// +-------------+-------------------------------------------+
/// ```
/// The CtrData size comes from `ControlOpcode.table` and is checked before any field is read;
/// octets beyond it are kept in `extraOctets` (the receiver ignores them, §2.4.2). Unknown
/// opcodes keep their CtrData raw.
public struct ControlPDU: Sendable, Equatable {
    public var opcode: ControlOpcode
    public var parameters: [ControlParameter]
    /// The CtrData of an opcode without a known layout, or bytes after a known layout.
    public var extraOctets: [UInt8]

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        opcode = ControlOpcode(rawValue: try reader.readUInt8("control opcode"))
        guard let layout = opcode.layout else {
            parameters = []
            extraOctets = reader.readRemainingBytes()
            return
        }
        let size = layout.reduce(0) { $0 + $1.shape.width }
        guard reader.remaining >= size else {
            throw DecodeError.truncated(layer: .linkLayer, field: "\(opcode.name) CtrData", at: reader.reportedOffset,
                                        needed: size, available: reader.remaining)
        }
        var decoded: [ControlParameter] = []
        decoded.reserveCapacity(layout.count)
        for spec in layout {
            decoded.append(ControlParameter(name: spec.name, value: try Self.read(spec.shape, &reader), unit: spec.unit))
        }
        parameters = decoded
        extraOctets = reader.readRemainingBytes()
    }

    private static func read(_ shape: ControlParameterSpec.Shape,
                             _ reader: inout ByteReader) throws(DecodeError) -> ControlParameter.Value {
        switch shape {
        case .u8, .u16, .u24, .u32:
            return .unsigned(try reader.readUnsigned(shape.width, bigEndian: false, field: "CtrData field"))
        case .i8: return .signed(Int64(try reader.readInt8("CtrData field")))
        case .bytes(let n): return .bytes(try reader.readBytes(n, "CtrData field"))
        case .errorCode: return .errorCode(LLErrorCode(rawValue: try reader.readUInt8("ErrorCode")))
        case .opcode: return .opcode(ControlOpcode(rawValue: try reader.readUInt8("opcode")))
        case .address: return .address(try BluetoothAddress(parsing: &reader))
        case .phys: return .phys(try reader.readUInt8("PHY"))
        case .version: return .version(try reader.readUInt8("VersNr"))
        }
    }

    public func parameter(_ name: String) -> ControlParameter.Value? {
        parameters.first { $0.name == name }?.value
    }

    /// An unsigned CtrData field by its key.
    public func unsigned(_ name: String) -> UInt64? {
        if case .unsigned(let v)? = parameter(name) { return v }
        return nil
    }

    /// The ErrorCode of LL_TERMINATE_IND, LL_REJECT_IND, LL_REJECT_EXT_IND, LL_CIS_TERMINATE_IND.
    public var errorCode: LLErrorCode? {
        if case .errorCode(let code)? = parameter("errorCode") { return code }
        return nil
    }
}
