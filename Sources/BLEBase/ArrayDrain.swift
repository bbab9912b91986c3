extension Array {
    /// Hands every element to `body` in order, each moved out of the array rather than copied,
    /// then empties the array (its capacity kept). `filler`, a value that owns nothing, holds
    /// each place meanwhile. `for element in array` would copy each element (retaining what it
    /// holds) and release it twice, once as the copy and once with the array.
    @inlinable
    public mutating func drain(filler: Element, _ body: (consuming Element) -> Void) {
        // Emptying costs a call into the generic `replaceSubrange` even when there is nothing.
        guard !isEmpty else { return }
        withUnsafeMutableBufferPointer { elements in
            for i in elements.indices {
                body(elements.moveElement(from: i))
                elements.initializeElement(at: i, to: filler)
            }
        }
        removeFirstFew(count)
    }

    /// Removes the first `k` elements, keeping the capacity. When they are all of them and few
    /// (a per-value list of one or two), one by one from the end: `removeFirst(_:)` and
    /// `removeAll(keepingCapacity:)` go through the generic `replaceSubrange`, about 250
    /// instructions even for one element (callgrind).
    @inlinable
    public mutating func removeFirstFew(_ k: Int) {
        if k == count, k <= 8 {
            while !isEmpty { removeLast() }
        } else if k == count {
            removeAll(keepingCapacity: true)
        } else {
            removeFirst(k)
        }
    }
}
