import BLEBase

/// Core v5.4 Vol 4 Part E §7.7.65 LE Meta event: a subevent code, then that subevent's parameters.
///
/// ```
/// +---------------+-------------------------------+
/// | Subevent_Code | subevent parameters (rest)    |
/// |      u8       |                               |
/// +---------------+-------------------------------+
/// ```
public struct LEMetaEvent: Sendable, Equatable {
    public var subevent: LESubeventCode
    public var body: LEMetaBody

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        subevent = LESubeventCode(rawValue: try r.readUInt8("Subevent_Code"))
        body = try LEMetaBody(parsing: &r, subevent: subevent)
    }
}

/// Typed LE subevents; any other subevent keeps its parameter bytes.
public enum LEMetaBody: Sendable, Equatable {
    /// LE Connection Complete (0x01), LE Enhanced Connection Complete v1 (0x0A) and v2 (0x29).
    case connectionComplete(LEConnectionCompleteEvent)
    case advertisingReport([LEAdvertisingReport])
    case connectionUpdateComplete(LEConnectionUpdateCompleteEvent)
    case readRemoteFeaturesComplete(LEReadRemoteFeaturesCompleteEvent)
    case longTermKeyRequest(LELongTermKeyRequestEvent)
    case remoteConnectionParameterRequest(LERemoteConnectionParameterRequestEvent)
    case dataLengthChange(LEDataLengthChangeEvent)
    case directedAdvertisingReport([LEDirectedAdvertisingReport])
    case phyUpdateComplete(LEPHYUpdateCompleteEvent)
    case extendedAdvertisingReport([LEExtendedAdvertisingReport])
    case advertisingSetTerminated(LEAdvertisingSetTerminatedEvent)
    case channelSelectionAlgorithm(LEChannelSelectionAlgorithmEvent)
    case raw([UInt8])

    public init(parsing r: inout ByteReader, subevent: LESubeventCode) throws(DecodeError) {
        switch subevent {
        case .connectionComplete, .enhancedConnectionCompleteV1, .enhancedConnectionCompleteV2:
            self = .connectionComplete(try LEConnectionCompleteEvent(parsing: &r, subevent: subevent))
        case .advertisingReport: self = .advertisingReport(try LEAdvertisingReport.parseList(&r))
        case .connectionUpdateComplete:
            self = .connectionUpdateComplete(try LEConnectionUpdateCompleteEvent(parsing: &r))
        case .readRemoteFeaturesComplete:
            self = .readRemoteFeaturesComplete(try LEReadRemoteFeaturesCompleteEvent(parsing: &r))
        case .longTermKeyRequest: self = .longTermKeyRequest(try LELongTermKeyRequestEvent(parsing: &r))
        case .remoteConnectionParameterRequest:
            self = .remoteConnectionParameterRequest(try LERemoteConnectionParameterRequestEvent(parsing: &r))
        case .dataLengthChange: self = .dataLengthChange(try LEDataLengthChangeEvent(parsing: &r))
        case .directedAdvertisingReport:
            self = .directedAdvertisingReport(try LEDirectedAdvertisingReport.parseList(&r))
        case .phyUpdateComplete: self = .phyUpdateComplete(try LEPHYUpdateCompleteEvent(parsing: &r))
        case .extendedAdvertisingReport:
            self = .extendedAdvertisingReport(try LEExtendedAdvertisingReport.parseList(&r))
        case .advertisingSetTerminated:
            self = .advertisingSetTerminated(try LEAdvertisingSetTerminatedEvent(parsing: &r))
        case .channelSelectionAlgorithm:
            self = .channelSelectionAlgorithm(try LEChannelSelectionAlgorithmEvent(parsing: &r))
        default: self = .raw(r.readRemainingBytes())
        }
    }
}
