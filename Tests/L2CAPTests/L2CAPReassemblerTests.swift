import BLEBase
import Testing
@testable import BLEL2CAP

@Suite struct L2CAPReassemblerTests {
    let key = FragmentStreamKey(adapter: 0, connection: 0x0040, direction: 1)

    /// An ATT Write Request in a basic frame: 4 header bytes + 7 payload bytes.
    let pdu: [UInt8] = [
        0x07, 0x00,        // L2CAP length 7
        0x04, 0x00,        // CID 0x0004 (ATT)
        0x12, 0x10, 0x00,  // ATT Write Request, handle 0x0010
        0xAA, 0x01, 0x59, 0x00,  // value
    ]
    let payload: [UInt8] = [0x12, 0x10, 0x00, 0xAA, 0x01, 0x59, 0x00]

    func frame(first: Int, last: Int, fragments: Int) -> L2CAPFrame {
        L2CAPFrame(channelID: .attribute, payload: payload, firstRecordIndex: first, lastRecordIndex: last,
                   firstTimestampUs: Int64(first) * 1000, lastTimestampUs: Int64(last) * 1000, fragmentCount: fragments)
    }

    /// Feeds `fragments` as one start and then continuations, record i at i ms.
    func feedAll(_ fragments: [ArraySlice<UInt8>], into reassembler: inout L2CAPReassembler) -> [ReassemblyEvent] {
        var events: [ReassemblyEvent] = []
        for (i, fragment) in fragments.enumerated() {
            events += reassembler.feed(key: key, isStart: i == 0, bytes: fragment, recordIndex: i + 1,
                                       timestampUs: Int64(i + 1) * 1000)
        }
        return events
    }

    @Test func wholeFrameCompletesAtOnce() {
        var reassembler = L2CAPReassembler()
        #expect(reassembler.feed(key: key, isStart: true, bytes: pdu[...], recordIndex: 1, timestampUs: 1000)
                == [.complete(frame(first: 1, last: 1, fragments: 1))])
        #expect(reassembler.pendingStreamCount == 0)
    }

    @Test func splitInTwoAtEveryPosition() {
        for cut in 1..<pdu.count {
            var reassembler = L2CAPReassembler()
            let events = feedAll([pdu[..<cut], pdu[cut...]], into: &reassembler)
            #expect(events == [.complete(frame(first: 1, last: 2, fragments: 2))], "cut at \(cut)")
            #expect(reassembler.pendingStreamCount == 0)
        }
    }

    @Test func oneByteAtATime() {
        var reassembler = L2CAPReassembler()
        let events = feedAll(pdu.indices.map { pdu[$0...$0] }, into: &reassembler)
        #expect(events == [.complete(frame(first: 1, last: pdu.count, fragments: pdu.count))])
    }

    @Test func startFragmentShorterThanTheHeaderWaitsForTheRest() {
        var reassembler = L2CAPReassembler()
        #expect(reassembler.feed(key: key, isStart: true, bytes: pdu[..<1], recordIndex: 1, timestampUs: 1000) == [])
        let pending = reassembler.pending(key)
        #expect(pending?.header == nil)
        #expect(pending?.expectedByteCount == nil)
        #expect(pending?.receivedByteCount == 1)
        #expect(reassembler.feed(key: key, isStart: false, bytes: pdu[1..<3], recordIndex: 2, timestampUs: 2000) == [])
        #expect(reassembler.pending(key)?.header == nil)
        #expect(reassembler.feed(key: key, isStart: false, bytes: pdu[3...], recordIndex: 3, timestampUs: 3000)
                == [.complete(frame(first: 1, last: 3, fragments: 3))])
    }

    @Test func emptyPayloadCompletesWithTheHeader() {
        var reassembler = L2CAPReassembler()
        #expect(reassembler.feed(key: key, isStart: true, bytes: [0x00, 0x00, 0x05, 0x00], recordIndex: 1, timestampUs: 1)
                == [.complete(L2CAPFrame(channelID: .leSignalling, payload: [], firstRecordIndex: 1, lastRecordIndex: 1,
                                         firstTimestampUs: 1, lastTimestampUs: 1, fragmentCount: 1))])
    }

    @Test func continuationWithoutStartIsAnOrphan() {
        var reassembler = L2CAPReassembler()
        #expect(reassembler.feed(key: key, isStart: false, bytes: pdu[4...], recordIndex: 9, timestampUs: 9)
                == [.orphanContinuation(key: key, recordIndex: 9, byteCount: 7)])
        #expect(reassembler.pendingStreamCount == 0)
    }

    @Test func newStartInterruptsThePendingPDU() {
        var reassembler = L2CAPReassembler()
        _ = reassembler.feed(key: key, isStart: true, bytes: pdu[..<6], recordIndex: 1, timestampUs: 1000)
        let events = reassembler.feed(key: key, isStart: true, bytes: pdu[...], recordIndex: 2, timestampUs: 2000)
        guard events.count == 2, case let .interrupted(partial, byRecordIndex) = events[0] else {
            Issue.record("expected interrupted then complete, got \(events)")
            return
        }
        #expect(byRecordIndex == 2)
        #expect(partial.expectedByteCount == 11)
        #expect(partial.receivedByteCount == 6)
        #expect(partial.bytes == Array(pdu[..<6]))
        #expect(partial.firstRecordIndex == 1)
        #expect(events[1] == .complete(frame(first: 2, last: 2, fragments: 1)))
    }

    @Test func bytesBeyondTheLengthAreAnOverrun() {
        var reassembler = L2CAPReassembler()
        _ = reassembler.feed(key: key, isStart: true, bytes: pdu[..<5], recordIndex: 1, timestampUs: 1000)
        let events = reassembler.feed(key: key, isStart: false, bytes: pdu[5...] + [0xEE, 0xEE, 0xEE], recordIndex: 2,
                                      timestampUs: 2000)
        #expect(events == [.overrun(frame(first: 1, last: 2, fragments: 2), extraBytes: 3)])
        #expect(reassembler.pendingStreamCount == 0)
    }

    @Test func cutFragmentEndsAsCutShortNeverComplete() {
        var reassembler = L2CAPReassembler()
        // The capturing tool kept 6 of the 11 bytes of a single-fragment PDU.
        let events = reassembler.feed(key: key, isStart: true, bytes: pdu[..<6], recordIndex: 1, timestampUs: 1000,
                                      truncatedBy: 5)
        guard case let .cutShort(partial)? = events.first, events.count == 1 else {
            Issue.record("expected cutShort, got \(events)")
            return
        }
        #expect(partial.receivedByteCount == 6)
        #expect(partial.missingByteCount == 5)
        #expect(partial.expectedByteCount == 11)
        #expect(partial.bytes == Array(pdu[..<6]))
    }

    @Test func cutStartAbsorbsItsContinuationsThenEndsCutShort() {
        var reassembler = L2CAPReassembler()
        // Start fragment of 6 bytes, cut to 5; the continuation carries the last 5 bytes.
        #expect(reassembler.feed(key: key, isStart: true, bytes: pdu[..<5], recordIndex: 1, timestampUs: 1000,
                                 truncatedBy: 1) == [])
        let events = reassembler.feed(key: key, isStart: false, bytes: pdu[6...], recordIndex: 2, timestampUs: 2000)
        guard case let .cutShort(partial)? = events.first, events.count == 1 else {
            Issue.record("expected cutShort, got \(events)")
            return
        }
        #expect(partial.receivedByteCount == 10)
        #expect(partial.missingByteCount == 1)
        #expect(partial.bytes == Array(pdu[..<5]))  // bytes after the cut are counted, not kept
        #expect(partial.fragmentCount == 2)
    }

    @Test func cutInsideTheHeaderEndsAtOnce() {
        var reassembler = L2CAPReassembler()
        let events = reassembler.feed(key: key, isStart: true, bytes: pdu[..<3], recordIndex: 1, timestampUs: 1,
                                      truncatedBy: 8)
        guard case let .cutShort(partial)? = events.first else {
            Issue.record("expected cutShort, got \(events)")
            return
        }
        #expect(partial.header == nil)
        #expect(reassembler.pendingStreamCount == 0)
    }

    @Test func flushReportsThePendingPDU() {
        var reassembler = L2CAPReassembler()
        #expect(reassembler.flush(key: key) == nil)
        _ = reassembler.feed(key: key, isStart: true, bytes: pdu[..<6], recordIndex: 1, timestampUs: 1000)
        guard case let .flushed(partial)? = reassembler.flush(key: key) else {
            Issue.record("expected flushed")
            return
        }
        #expect(partial.receivedByteCount == 6)
        #expect(partial.key == key)
        #expect(reassembler.pendingStreamCount == 0)
    }

    @Test func flushAllReportsEveryStreamInStartOrder() {
        var reassembler = L2CAPReassembler()
        let other = FragmentStreamKey(adapter: nil, connection: 0x8E89BED6, direction: 0)
        _ = reassembler.feed(key: other, isStart: true, bytes: pdu[..<2], recordIndex: 3, timestampUs: 3)
        _ = reassembler.feed(key: key, isStart: true, bytes: pdu[..<6], recordIndex: 5, timestampUs: 5)
        let third = FragmentStreamKey(adapter: 1, connection: 0x0001, direction: 0)
        _ = reassembler.feed(key: third, isStart: true, bytes: pdu[..<4], recordIndex: 1, timestampUs: 1)
        let flushed = reassembler.flushAll().compactMap { event -> FragmentStreamKey? in
            if case let .flushed(partial) = event { return partial.key }
            return nil
        }
        #expect(flushed == [third, other, key])
        #expect(reassembler.pendingStreamCount == 0)
    }

    @Test func interleavedStreamsDoNotMix() {
        var reassembler = L2CAPReassembler()
        let other = FragmentStreamKey(adapter: 0, connection: 0x0040, direction: 0)
        _ = reassembler.feed(key: key, isStart: true, bytes: pdu[..<5], recordIndex: 1, timestampUs: 1000)
        _ = reassembler.feed(key: other, isStart: true, bytes: pdu[..<3], recordIndex: 2, timestampUs: 2000)
        #expect(reassembler.pendingStreamCount == 2)
        #expect(reassembler.feed(key: key, isStart: false, bytes: pdu[5...], recordIndex: 3, timestampUs: 3000)
                == [.complete(L2CAPFrame(channelID: .attribute, payload: payload, firstRecordIndex: 1, lastRecordIndex: 3,
                                         firstTimestampUs: 1000, lastTimestampUs: 3000, fragmentCount: 2))])
        #expect(reassembler.pending(other)?.receivedByteCount == 3)
    }

    @Test func largestPDUReassembles() {
        var reassembler = L2CAPReassembler()
        let body = [UInt8](repeating: 0x5A, count: 65535)
        let whole = [0xFF, 0xFF, 0x40, 0x00] + body
        var events: [ReassemblyEvent] = []
        var index = 0
        for start in stride(from: 0, to: whole.count, by: 251) {
            index += 1
            events += reassembler.feed(key: key, isStart: start == 0, bytes: whole[start..<min(start + 251, whole.count)],
                                       recordIndex: index, timestampUs: 0)
        }
        #expect(events == [.complete(L2CAPFrame(channelID: ChannelID(rawValue: 0x0040), payload: body, firstRecordIndex: 1,
                                                lastRecordIndex: index, firstTimestampUs: 0, lastTimestampUs: 0,
                                                fragmentCount: index))])
    }

    @Test func aWholePDUWithNothingPendingIsAFrame() {
        var reassembler = L2CAPReassembler()
        let whole = ByteReader(pdu)
        #expect(reassembler.feed(key: key, isStart: true, fragment: whole, recordIndex: 1, timestampUs: 1000)
                == .frame(frame(first: 1, last: 1, fragments: 1)))
        #expect(reassembler.feed(key: key, isStart: false, fragment: whole, recordIndex: 1, timestampUs: 1000)
                == .events(interrupted: nil, outcome: .orphanContinuation(key: key, recordIndex: 1, byteCount: pdu.count)))
        guard case .events(nil, .cutShort?) = reassembler.feed(key: key, isStart: true, fragment: whole, recordIndex: 1,
                                                               timestampUs: 1000, truncatedBy: 1) else {
            Issue.record("a cut fragment made a frame")
            return
        }
        #expect(reassembler.feed(key: key, isStart: true, fragment: ByteReader(Array(pdu.dropLast())), recordIndex: 1,
                                 timestampUs: 1000) == .events(interrupted: nil, outcome: nil))
        #expect(reassembler.pendingStreamCount == 1)
        // With a PDU pending on its stream, a whole one interrupts it: events, not a frame.
        guard case .events(.interrupted?, .complete(let made)?) = reassembler.feed(key: key, isStart: true, fragment: whole,
                                                                                   recordIndex: 2, timestampUs: 2000) else {
            Issue.record("a whole PDU after a pending one did not interrupt it")
            return
        }
        #expect(made == frame(first: 2, last: 2, fragments: 1))
        #expect(reassembler.pendingStreamCount == 0)
    }

    /// A start fragment that is not one whole PDU is collected from where its reader stands (the
    /// header was read from it to tell, then it was moved back).
    @Test func aShortStartFragmentIsCollectedFromItsReadersPosition() throws {
        var reassembler = L2CAPReassembler()
        var fragment = ByteReader([0xEE, 0xEE] + Array(pdu.dropLast()), layer: .acl, baseOffset: 100)
        try fragment.skip(2)
        #expect(reassembler.feed(key: key, isStart: true, fragment: fragment, recordIndex: 1, timestampUs: 1000)
                == .events(interrupted: nil, outcome: nil))
        #expect(reassembler.feed(key: key, isStart: false, bytes: pdu.suffix(1), recordIndex: 2, timestampUs: 2000)
                == [.complete(frame(first: 1, last: 2, fragments: 2))])
    }

    /// A whole PDU's body is the fragment's bytes after the header, reporting offsets from 0.
    @Test func aFramesBodyReportsOffsetsFromItsStart() throws {
        var reassembler = L2CAPReassembler()
        guard case .frame(let made) = reassembler.feed(key: key, isStart: true, fragment: ByteReader([0xEE] + pdu, range: 1..<(pdu.count + 1)),
                                                       recordIndex: 1, timestampUs: 1000) else {
            Issue.record("a whole PDU made no frame")
            return
        }
        var body = made.body
        #expect(body.layer == .l2cap)
        #expect(body.reportedOffset == 0)
        #expect(body.readRemainingBytes() == Array(pdu.dropFirst(4)))
    }

    /// `isResolved` says when `outcome` is set, for every prefix of the PDU, cut or not.
    @Test func isResolvedMatchesOutcomeForEveryPrefix() {
        for kept in 0...pdu.count {
            for cut in [0, 1, 5] {
                var partial = PartialL2CAPFrame(key: key, recordIndex: 1, timestampUs: 0)
                partial.absorb(pdu[..<kept], truncatedBy: cut, recordIndex: 1, timestampUs: 0)
                #expect(partial.isResolved == (partial.outcome != nil), "\(kept) bytes kept, \(cut) cut")
            }
        }
        var whole = PartialL2CAPFrame(key: key, recordIndex: 1, timestampUs: 1000)
        whole.absorb(pdu[...], truncatedBy: 0, recordIndex: 1, timestampUs: 1000)
        #expect(whole.isResolved && whole.outcome == .complete(frame(first: 1, last: 1, fragments: 1)))
    }

    @Test func feedReportsTheInterruptedPDUBeforeTheOutcome() {
        var reassembler = L2CAPReassembler()
        #expect(reassembler.feed(key: key, isStart: true, fragment: ByteReader(Array(pdu[..<5])), recordIndex: 1,
                                 timestampUs: 1000) == .events(interrupted: nil, outcome: nil))
        let step = reassembler.feed(key: key, isStart: true, fragment: ByteReader(pdu), recordIndex: 2, timestampUs: 2000)
        guard case .events(.interrupted(let partial, byRecordIndex: 2)?, let outcome) = step else {
            Issue.record("expected the pending PDU to be interrupted, got \(step)")
            return
        }
        #expect(partial.firstRecordIndex == 1 && partial.receivedByteCount == 5)
        #expect(outcome == .complete(frame(first: 2, last: 2, fragments: 1)))
        #expect(reassembler.pendingStreamCount == 0)
    }
}

extension L2CAPReassembler {
    /// `feed(fragment:)` over bytes, what it produced as a list of events (a frame as `.complete`).
    mutating func feed(key: FragmentStreamKey, isStart: Bool, bytes: ArraySlice<UInt8>, recordIndex: Int,
                       timestampUs: Int64, truncatedBy: Int = 0) -> [ReassemblyEvent] {
        switch feed(key: key, isStart: isStart, fragment: ByteReader(Array(bytes), layer: .l2cap), recordIndex: recordIndex,
                    timestampUs: timestampUs, truncatedBy: truncatedBy) {
        case .frame(let frame): [.complete(frame)]
        case .events(let interrupted, let outcome): [interrupted, outcome].compactMap { $0 }
        }
    }
}
