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
        removeAll(keepingCapacity: true)
    }
}
