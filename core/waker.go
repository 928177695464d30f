package core

import "fmt"

// AttrWaker names the wake-up link of a thread: Threads/<tid>/Waker holds
// an encoded [Waker] (int64) from the instant the thread was last woken
// from a sleep (or forked) until its next wake-up; null before the first.
// An interval's start is the wake-up event's time, so a wait of the thread
// ending at t was ended by the Waker whose interval starts at t (none
// starts there when the thread was switched in with no wake-up seen), and
// a 2D query over a set of threads returns, for every wait that ended in
// the range, what ended it. Keeping the value until the next wake-up (no
// null at the switch-in) makes one interval per wake-up, not two.
const AttrWaker = "Waker"

// WakerKind says what ended a thread's wait.
type WakerKind uint8

// Waker kinds. Persisted: do not renumber.
const (
	WakerNone    WakerKind = 0 // not a waker value
	WakerThread  WakerKind = 1 // woken from thread context by thread ID (tid 0: CPU's idle thread)
	WakerFork    WakerKind = 2 // created by a fork of thread ID
	WakerIRQ     WakerKind = 3 // woken in hard IRQ ID's handler
	WakerSoftIRQ WakerKind = 4 // woken in soft IRQ vector ID
	WakerTimer   WakerKind = 5 // woken in an hrtimer expiry
	WakerUnknown WakerKind = 6 // woken from thread context on a CPU whose thread is unknown
)

// Soft IRQ vectors (Linux's enum, stable since 2.6.x), which decide the
// kind of wait a soft IRQ wake-up ends.
const (
	SoftIRQHi          = 0
	SoftIRQTimer       = 1
	SoftIRQNetTx       = 2
	SoftIRQNetRx       = 3
	SoftIRQBlock       = 4
	SoftIRQBlockIOPoll = 5
	SoftIRQTasklet     = 6
	SoftIRQSched       = 7
	SoftIRQHRTimer     = 8
	SoftIRQRCU         = 9
)

var softIRQNames = [...]string{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"}

// SoftIRQName names a soft IRQ vector as the kernel does ("NET_RX").
func SoftIRQName(vec int32) string {
	if vec >= 0 && int(vec) < len(softIRQNames) {
		return softIRQNames[vec]
	}
	return fmt.Sprintf("vec %d", vec)
}

// Waker is what ended a thread's wait: its kind, the thread, IRQ or vector
// (ID), and the CPU the wake-up event happened on (-1 unknown).
type Waker struct {
	Kind WakerKind
	ID   int32
	CPU  int32
	// Alt alternates at each wake-up of a thread, so that two equal
	// wakers in a row stay two intervals (a sink drops a change to the
	// value already held).
	Alt bool
}

// Value encodes w, small fields first so the index's varints stay short
// (5 or 6 bytes for usual tids): kind in bits 0-2, Alt in bit 3, CPU+1 in
// bits 4-20, ID (as uint32) in bits 21-52.
func (w Waker) Value() Value {
	var alt uint64
	if w.Alt {
		alt = 1
	}
	cpu := uint64(w.CPU+1) & (1<<17 - 1)
	return Int64(int64(uint64(w.Kind)&7 | alt<<3 | cpu<<4 | uint64(uint32(w.ID))<<21))
}

// DecodeWaker reads a Waker attribute's value; ok is false for null or
// values that are not wakers.
func DecodeWaker(v Value) (w Waker, ok bool) {
	if v.Kind() != KindInt64 {
		return Waker{}, false
	}
	n := uint64(v.Int())
	w = Waker{Kind: WakerKind(n & 7), Alt: n&8 != 0, CPU: int32(n>>4&(1<<17-1)) - 1, ID: int32(uint32(n >> 21))}
	if w.Kind == WakerNone || w.Kind > WakerUnknown || n>>53 != 0 {
		return Waker{}, false
	}
	return w, true
}

// String describes the waker for a details line ("thread 101 on CPU 0",
// "IRQ 30", "soft IRQ NET_RX", "timer").
func (w Waker) String() string {
	on := ""
	if w.CPU >= 0 {
		on = fmt.Sprintf(" on CPU %d", w.CPU)
	}
	switch w.Kind {
	case WakerThread:
		return fmt.Sprintf("thread %d%s", w.ID, on)
	case WakerFork:
		return fmt.Sprintf("fork by %d%s", w.ID, on)
	case WakerIRQ:
		return fmt.Sprintf("IRQ %d%s", w.ID, on)
	case WakerSoftIRQ:
		return fmt.Sprintf("soft IRQ %s%s", SoftIRQName(w.ID), on)
	case WakerTimer:
		return "timer" + on
	case WakerUnknown:
		return "unknown thread" + on
	}
	return "none"
}
