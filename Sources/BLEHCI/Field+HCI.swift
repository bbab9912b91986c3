import BLEBase

/// Field builders shared by the HCI presentation files.
extension Field {
    static func handle(_ value: UInt16, _ name: String = "connectionHandle") -> Field {
        .code(name, value, width: 4)
    }

    static func status(_ name: String, _ status: HCIStatus) -> Field {
        .code(name, status.rawValue, label: status.name)
    }

    static func address(_ name: String, _ address: BluetoothAddress) -> Field {
        Field(name, .address(address))
    }

    static func addressType(_ name: String, _ type: AddressType) -> Field {
        .code(name, type.rawValue, label: type.description)
    }

    /// A fixed-point time: the raw count, displayed in milliseconds.
    static func time<T: BinaryInteger>(_ name: String, _ raw: T, unitMicroseconds: Int) -> Field {
        .int(name, raw, display: HCITime.milliseconds(Int(raw) * unitMicroseconds))
    }

    static func dBm(_ name: String, _ value: Int8) -> Field {
        value == LEAdvertisingReport.notAvailable
            ? Field(name, .null, display: "not available") : .int(name, value, display: "\(value) dBm")
    }
}

/// Text helpers for summaries.
enum SummaryText {
    /// `6B:30:F9:0E:C7:DD (random)`.
    static func address(_ address: BluetoothAddress, _ type: AddressType) -> String {
        "\(address) (\(type))"
    }

    /// Untrusted text in double quotes with `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\x" + Hex.code(UInt8(scalar.value)).dropFirst(2)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
