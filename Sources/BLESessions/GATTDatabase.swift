import BLEAssignedNumbers
import BLEATT
import BLEBase

/// A device's attribute table rebuilt from the discovery a client ran (Core v5.4 Vol 3 Part G §4:
/// primary services, includes, characteristics, descriptors), kept across connections so a later
/// connection that skips discovery still resolves its handles.
struct GATTDatabase {
    private(set) var attributes: [UInt16: GATTAttribute] = [:]
    /// The UUIDs of the primary services, in discovery order.
    private(set) var services: [BluetoothUUID] = []
    /// `attributes`' UUIDs alone, for the lookup per ATT value (an attribute is copied with its
    /// property names).
    private var uuids = HandleUUIDs()
    /// The same for handles below `directLimit`, by handle (a GATT server numbers from 1 and
    /// most stay below it): no search per ATT value. Grows to the highest such handle known.
    private var uuidByHandle: [BluetoothUUID?] = []
    static let directLimit = 256
    /// Cap on attributes per device (a GATT server has at most 65535; hostile captures could
    /// try to grow this without end).
    static let cap = 4096

    private mutating func insert(_ attribute: GATTAttribute) {
        guard attributes.count < Self.cap || attributes[attribute.handle] != nil else { return }
        if attribute.kind == .service && attributes[attribute.handle]?.kind != .service && !services.contains(attribute.uuid) {
            services.append(attribute.uuid)
        }
        attributes[attribute.handle] = attribute
        uuids.set(attribute.uuid, for: attribute.handle)
        let handle = Int(attribute.handle)
        if handle < Self.directLimit {
            if handle >= uuidByHandle.count { uuidByHandle += repeatElement(nil, count: handle + 1 - uuidByHandle.count) }
            uuidByHandle[handle] = attribute.uuid
        }
    }

    /// Learns from a response, given the request it answers.
    mutating func learn(request: ATTPDU, response: ATTPDU) {
        switch (request.parameters, response.parameters) {
        case (.readByGroupTypeRequest(let r), .readByGroupTypeResponse(let groups)):
            let kind: GATTAttribute.Kind
            switch r.attributeType.uint16 {
            case 0x2800: kind = .service
            case 0x2801: kind = .secondaryService
            default: return
            }
            for service in (try? groups.serviceDeclarations()) ?? [] {
                insert(GATTAttribute(handle: service.startHandle, uuid: service.uuid, kind: kind, properties: [],
                                     declarationHandle: nil, endHandle: service.endHandle))
            }
        case (.findByTypeValueRequest(let r), .findByTypeValueResponse(let found)):
            guard r.attributeType.uint16 == 0x2800, let uuid = BluetoothUUID(wire: r.value) else { return }
            for entry in found {
                insert(GATTAttribute(handle: entry.foundHandle, uuid: uuid, kind: .service, properties: [],
                                     declarationHandle: nil, endHandle: entry.groupEndHandle))
            }
        case (.readByTypeRequest(let r), .readByTypeResponse(let response)):
            switch r.attributeType.uint16 {
            case 0x2803:
                for declaration in (try? response.characteristicDeclarations()) ?? [] {
                    insert(GATTAttribute(handle: declaration.valueHandle, uuid: declaration.uuid, kind: .characteristic,
                                         properties: declaration.properties.names,
                                         declarationHandle: declaration.declarationHandle, endHandle: nil))
                }
            case 0x2802:
                for include in (try? response.includeDeclarations()) ?? [] {
                    guard let uuid = include.uuid else { continue }
                    insert(GATTAttribute(handle: include.declarationHandle, uuid: uuid, kind: .include, properties: [],
                                         declarationHandle: nil, endHandle: include.endGroupHandle))
                }
            default:
                break
            }
        case (.findInformationRequest, .findInformationResponse(let info)):
            for entry in info.attributes {
                // Declarations and characteristic values are known from the other procedures.
                if let short = entry.uuid.uint16, (0x2800...0x2803).contains(short) { continue }
                if let known = attributes[entry.handle], known.kind != .descriptor { continue }
                insert(GATTAttribute(handle: entry.handle, uuid: entry.uuid, kind: .descriptor, properties: [],
                                     declarationHandle: nil, endHandle: nil))
            }
        default:
            break
        }
    }

    /// The characteristic whose value or descriptors a handle belongs to: the closest
    /// characteristic value handle at or below it.
    func characteristic(containing handle: UInt16) -> GATTAttribute? {
        attributes.values.filter { $0.kind == .characteristic && $0.handle <= handle }.max { $0.handle < $1.handle }
    }

    /// `Battery Level (2A19)`, `CCCD of FFE2`, `handle 0x0010` when unknown.
    func describe(_ handle: UInt16) -> String {
        guard let attribute = attributes[handle] else {
            return "handle \(Hex.code(handle, width: 4))"
        }
        let name = Self.name(attribute.uuid)
        if attribute.kind == .descriptor, let owner = characteristic(containing: handle) {
            return "\(name) of \(Self.name(owner.uuid))"
        }
        return name
    }

    static func name(_ uuid: BluetoothUUID) -> String {
        if let known = AssignedNumbers.name(for: uuid) {
            return known == "Client Characteristic Configuration" ? "CCCD" : "\(known) (\(uuid))"
        }
        return uuid.description
    }

    func uuid(of handle: UInt16) -> BluetoothUUID? {
        let index = Int(handle)
        guard index >= Self.directLimit else { return index < uuidByHandle.count ? uuidByHandle[index] : nil }
        return uuids[handle]
    }

    var sorted: [GATTAttribute] { attributes.values.sorted { $0.handle < $1.handle } }
}

/// Handles and their UUIDs, searched in halves once per ATT value.
typealias HandleUUIDs = SortedMap<UInt16, BluetoothUUID>

/// The GATT databases by device: indexed by the slot of the device's root address at the time
/// it was learned (no hashing on the lookup per ATT value). A device nothing was learned about
/// has an empty database.
struct GATTDatabases {
    private var bySlot: [GATTDatabase] = []
    /// Changes whenever a database learns something (its services may have changed).
    private(set) var version = 0

    subscript(slot: Int) -> GATTDatabase { slot < bySlot.count ? bySlot[slot] : GATTDatabase() }

    /// The primary services of a device's database, in discovery order.
    func services(slot: Int) -> [BluetoothUUID] {
        slot < bySlot.count ? bySlot[slot].services : []
    }

    /// The UUID of a handle in a device's database, read in place.
    func uuid(slot: Int, handle: UInt16) -> BluetoothUUID? {
        slot < bySlot.count ? bySlot[slot].uuid(of: handle) : nil
    }

    mutating func learn(slot: Int, request: ATTPDU, response: ATTPDU) {
        if slot >= bySlot.count { bySlot += repeatElement(GATTDatabase(), count: slot + 1 - bySlot.count) }
        bySlot[slot].learn(request: request, response: response)
        version += 1
    }
}
