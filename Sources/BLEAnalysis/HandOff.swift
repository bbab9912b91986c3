import Dispatch

/// A single-producer, single-consumer hand-off between two threads holding at most `capacity`
/// values: `send` waits for a free slot, `receive` for a filled one. Each slot is written by the
/// producer only before it signals `filled` and read by the consumer only after waiting on it
/// (and the reverse with `free`), so the semaphores order every access to a slot.
public final class HandOff<Value: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Value>
    private let capacity: Int
    /// Created at 0 and signalled `capacity` times: libdispatch traps when a semaphore is freed
    /// below its initial value, as `free` is when values were sent and never received.
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    /// Touched by the producer only.
    private var sendIndex = 0
    /// Touched by the consumer only.
    private var receiveIndex = 0

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        slots = .allocate(capacity: self.capacity)
        for _ in 0..<self.capacity { free.signal() }
    }

    deinit {
        // Values sent and never received.
        while filled.wait(timeout: .now()) == .success {
            _ = (slots + receiveIndex).move()
            receiveIndex = (receiveIndex + 1) % capacity
        }
        slots.deallocate()
    }

    /// Moves `value` into a slot: the sender keeps no reference that the receiver's first change
    /// would have to copy around (a batch of events still held by the sender would be copied whole).
    public func send(_ value: consuming Value) {
        free.wait()
        put(value)
    }

    public func receive() -> Value {
        filled.wait()
        return take()
    }

    /// `send` without waiting: false when no slot is free (`value` is then dropped here).
    func trySend(_ value: consuming Value) -> Bool {
        guard free.wait(timeout: .now()) == .success else { return false }
        put(value)
        return true
    }

    /// `receive` without waiting: nil when no value is there.
    func tryReceive() -> Value? {
        guard filled.wait(timeout: .now()) == .success else { return nil }
        return take()
    }

    /// Fills the next slot, which a wait on `free` has made this sender's.
    private func put(_ value: consuming Value) {
        (slots + sendIndex).initialize(to: value)
        sendIndex = (sendIndex + 1) % capacity
        filled.signal()
    }

    /// Empties the next slot, which a wait on `filled` has made this receiver's.
    private func take() -> Value {
        let value = (slots + receiveIndex).move()
        receiveIndex = (receiveIndex + 1) % capacity
        free.signal()
        return value
    }
}
