import Foundation

/// Validates JSON against the subset of JSON Schema (draft 2020-12) that the project's schemas
/// use: `type`, `required`, `properties`, `additionalProperties`, `propertyNames`, `items`, `enum`,
/// `const`, `pattern`, `minimum`, `maximum`, `oneOf`, and local `$ref` (`#/$defs/…`). A keyword
/// outside that subset is reported as an error rather than ignored, so the schema cannot drift
/// past what the tests check.
public struct JSONSchemaValidator {
    let root: [String: Any]
    /// Also reports a key of an object the schema describes by `properties` and which is not among
    /// them (with no `additionalProperties` schema for it): a published schema stays open to the
    /// keys later versions add, and the tests still catch a key the report writes undescribed.
    let describesEveryKey: Bool
    static let supported: Set<String> = ["$schema", "$id", "title", "description", "type", "required", "properties",
                                         "additionalProperties", "propertyNames", "items", "enum", "const", "pattern",
                                         "minimum", "maximum", "oneOf", "$ref", "$defs"]

    public init(schema: Data, describesEveryKey: Bool = false) throws {
        guard let object = try JSONSerialization.jsonObject(with: schema) as? [String: Any] else {
            throw ValidationError(path: "$", message: "the schema is not an object")
        }
        root = object
        self.describesEveryKey = describesEveryKey
    }

    public struct ValidationError: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// All violations, with JSON paths; empty when the document is valid.
    public func validate(_ json: Data) throws -> [ValidationError] {
        let document = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        var errors: [ValidationError] = []
        check(document, against: root, at: "$", errors: &errors)
        return errors
    }

    private func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let ref = schema["$ref"] as? String, ref.hasPrefix("#/$defs/"),
              let defs = root["$defs"] as? [String: Any],
              let target = defs[String(ref.dropFirst("#/$defs/".count))] as? [String: Any] else { return schema }
        return target
    }

    private func check(_ value: Any, against raw: [String: Any], at path: String, errors: inout [ValidationError]) {
        let schema = resolve(raw)
        for key in schema.keys where !Self.supported.contains(key) {
            errors.append(ValidationError(path: path, message: "schema keyword \(key) is not supported by the validator"))
        }
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [(type as? String) ?? ""]
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                errors.append(ValidationError(path: path, message: "expected \(allowed.joined(separator: " or ")), found \(Self.typeName(value))"))
                return
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            errors.append(ValidationError(path: path, message: "\(value) is not one of \(options)"))
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            errors.append(ValidationError(path: path, message: "\(value) is not \(constant)"))
        }
        if let pattern = schema["pattern"] as? String, let text = value as? String {
            let regex = try? NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            if regex?.firstMatch(in: text, range: range) == nil {
                errors.append(ValidationError(path: path, message: "\"\(text)\" does not match \(pattern)"))
            }
        }
        if let number = value as? NSNumber, !Self.isBool(value) {
            if let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue {
                errors.append(ValidationError(path: path, message: "\(number) < minimum \(minimum)"))
            }
            if let maximum = schema["maximum"] as? NSNumber, number.doubleValue > maximum.doubleValue {
                errors.append(ValidationError(path: path, message: "\(number) > maximum \(maximum)"))
            }
        }
        if let options = schema["oneOf"] as? [[String: Any]] {
            let passing = options.filter { option in
                var inner: [ValidationError] = []
                check(value, against: option, at: path, errors: &inner)
                return inner.isEmpty
            }
            if passing.count != 1 {
                errors.append(ValidationError(path: path, message: "matches \(passing.count) of the oneOf schemas, not exactly 1"))
            }
        }
        if let object = value as? [String: Any] {
            for key in (schema["required"] as? [String]) ?? [] where object[key] == nil {
                errors.append(ValidationError(path: path, message: "missing required \(key)"))
            }
            let properties = (schema["properties"] as? [String: Any]) ?? [:]
            for (key, member) in object {
                let memberPath = path + "." + key
                if let names = schema["propertyNames"] as? [String: Any] {
                    check(key, against: names, at: memberPath + " (name)", errors: &errors)
                }
                if let sub = properties[key] as? [String: Any] {
                    check(member, against: sub, at: memberPath, errors: &errors)
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    check(member, against: additional, at: memberPath, errors: &errors)
                } else if let additional = schema["additionalProperties"] as? Bool, !additional {
                    errors.append(ValidationError(path: memberPath, message: "property not allowed"))
                } else if describesEveryKey, schema["properties"] != nil, schema["additionalProperties"] == nil {
                    errors.append(ValidationError(path: memberPath, message: "not described by the schema"))
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (i, item) in array.enumerated() { check(item, against: items, at: "\(path)[\(i)]", errors: &errors) }
        }
    }

    static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        // JSON true/false come back as NSNumbers whose Objective-C type is `c` (char).
        return String(cString: number.objCType) == "c"
    }

    static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool(value)
        case "integer":
            guard let n = value as? NSNumber, !isBool(value) else { return false }
            return n.doubleValue.rounded() == n.doubleValue
        case "number": return value is NSNumber && !isBool(value)
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func typeName(_ value: Any) -> String {
        ["null", "boolean", "integer", "number", "string", "array", "object"].first { matches(value, type: $0) } ?? "unknown"
    }

    static func equal(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? String, let b = b as? String { return a == b }
        if let a = a as? NSNumber, let b = b as? NSNumber { return a == b && isBool(a) == isBool(b) }
        return a is NSNull && b is NSNull
    }
}
