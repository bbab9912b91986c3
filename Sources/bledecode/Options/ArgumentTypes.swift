import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

// Library types the options take, read from their command-line text.

extension VendorLayer.Listing: ExpressibleByArgument {}

extension SessionOptions.TransactionListing: ExpressibleByArgument {}

extension TimelineTimeFormat: ExpressibleByArgument {}

extension TimeBound: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension BluetoothUUID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension ConnectionID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// `0x0010` or `16`.
struct AttributeHandle: ExpressibleByArgument {
    var value: UInt16
    init?(argument: String) {
        let lower = argument.lowercased()
        guard let value = lower.hasPrefix("0x") ? UInt16(lower.dropFirst(2), radix: 16) : UInt16(lower) else { return nil }
        self.value = value
    }
}
