import BLEHCI

/// Options of the session analysis.
public struct SessionOptions: Sendable {
    /// Which ATT transactions the report lists; counts and latencies per characteristic are
    /// kept for all of them either way.
    public enum TransactionListing: String, Sendable, CaseIterable { case all, failed, none }

    public var transactions: TransactionListing
    /// Core v5.4 Vol 3 Part F §3.3.3: a transaction not completed within 30 s has failed.
    public var transactionTimeoutUs: Int64
    /// Classifies a device from its advertising data (a vendor profile's match and identity
    /// rules): addresses with the same identity are one device, and the profile's name travels
    /// with the device's ATT values to the vendor decoders.
    public var classifier: (@Sendable (AdvertisingData) -> DeviceClassification?)?
    /// Transactions listed in the whole capture (`--transactions all`, the HTML report's ticks);
    /// past it only failed ones, at most `SessionAnalyzer.failuresListedPerKind` more, so that a
    /// long capture's HTML report and memory stay bounded.
    public var transactionsListedPerCapture: Int

    public init(transactions: TransactionListing = .failed, transactionTimeoutUs: Int64 = 30_000_000,
                classifier: (@Sendable (AdvertisingData) -> DeviceClassification?)? = nil,
                transactionsListedPerCapture: Int = 100_000) {
        self.transactions = transactions
        self.transactionTimeoutUs = transactionTimeoutUs
        self.classifier = classifier
        self.transactionsListedPerCapture = transactionsListedPerCapture
    }
}

/// What a classifier learned about a device from one advertisement.
public struct DeviceClassification: Sendable, Equatable {
    public var identity: DeviceIdentity?
    /// The name of the vendor profile that matches the device.
    public var profile: String?

    public init(identity: DeviceIdentity?, profile: String?) {
        self.identity = identity
        self.profile = profile
    }
}
