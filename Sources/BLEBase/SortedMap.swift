/// Values under a few comparable keys (attribute handles, command codes), kept in key order and
/// searched in halves: one binary search per lookup costs less than hashing the key for a
/// dictionary.
public struct SortedMap<Key: Comparable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline var keys: [Key] = []
    @usableFromInline var values: [Value] = []

    @inlinable public init() {}

    @inlinable
    public init(_ dictionary: [Key: Value]) where Key: Hashable {
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            keys.append(key)
            values.append(value)
        }
    }

    @inlinable public var count: Int { keys.count }

    @inlinable
    public subscript(key: Key) -> Value? {
        let i = position(of: key)
        return i < keys.count && keys[i] == key ? values[i] : nil
    }

    /// Sets the value of `key`, adding the key in its place.
    @inlinable
    public mutating func set(_ value: Value, for key: Key) {
        let i = position(of: key)
        if i < keys.count && keys[i] == key {
            values[i] = value
        } else {
            keys.insert(key, at: i)
            values.insert(value, at: i)
        }
    }

    /// The first position whose key is not below `key`.
    @inlinable
    func position(of key: Key) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
