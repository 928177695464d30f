package kstats

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// The section's body is the report in varints, every field in
// declaration order; a slice is its length + 1 (0: nil, so a report
// decodes to one deeply equal to the one encoded, the variance
// accumulator included), a string its length and bytes, a float64 its
// bits. JSON was 2.5 times larger and took longer to decode than the
// scan it replaces (50 000 threads: 42 MB, 0.9 s).

type enc struct{ b []byte }

func (e *enc) int(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) uint(v uint64)   { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) float(v float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *enc) str(s string)    { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

// n writes a slice's length + 1, 0 for nil.
func (e *enc) n(l int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(l) + 1)
}

func (e *enc) stats(s *Stats) {
	e.int(s.Count)
	e.int(s.MinNS)
	e.float(s.MeanNS)
	e.int(s.MaxNS)
	e.float(s.StdevNS)
	e.int(s.TotalNS)
	e.float(s.m2)
	e.n(len(s.Histogram), s.Histogram == nil)
	for _, c := range s.Histogram {
		e.int(c)
	}
}

func (e *enc) occurrences(l []Occurrence) {
	e.n(len(l), l == nil)
	for _, o := range l {
		e.str(o.Name)
		e.int(int64(o.TID))
		e.int(int64(o.CPU))
		e.int(o.StartNS)
		e.int(o.DurationNS)
	}
}

func (e *enc) syscalls(l []SyscallRow) {
	e.n(len(l), l == nil)
	for i := range l {
		r := &l[i]
		e.str(r.Name)
		e.stats(&r.Stats)
		e.n(len(r.Returns), r.Returns == nil)
		for _, o := range r.Returns { // sorted by name
			e.str(o.Name)
			e.int(o.N)
		}
	}
}

func (e *enc) latency(l []LatencyRow) {
	e.n(len(l), l == nil)
	for i := range l {
		e.int(int64(l[i].TID))
		e.int(int64(l[i].PID))
		e.str(l[i].Comm)
		e.stats(&l[i].Stats)
	}
}

func (e *enc) irqs(l []IRQRow) {
	e.n(len(l), l == nil)
	for i := range l {
		e.str(l[i].Kind)
		e.int(l[i].IRQ)
		e.str(l[i].Name)
		e.stats(&l[i].Stats)
	}
}

func (e *enc) int32s(l []int32) {
	e.n(len(l), l == nil)
	for _, v := range l {
		e.int(int64(v))
	}
}

func (e *enc) report(r *Report) {
	e.reportHead(r)
	e.reportCalls(r)
	e.reportTail(r)
	e.reportSlowest(r)
}

// reportHead, reportCalls, reportTail and reportSlowest write the
// report in parts, which Recorder.Encode writes on two goroutines.
// The parts' buffers are grown once to an estimate of their size (bytes
// per row): appending 15 MB of calls at 50 000 threads a varint at a
// time copied it a dozen times.
const (
	usageRowBytes   = 48
	callRowBytes    = 112
	latencyRowBytes = 96
)

func (e *enc) reportHead(r *Report) {
	e.b = slices.Grow(e.b, usageRowBytes*(len(r.CPUUsage.Threads)+len(r.CPUUsage.Processes)+len(r.CPUUsage.CPUs)))
	e.int(r.FromNS)
	e.int(r.ToNS)
	u := &r.CPUUsage
	e.n(len(u.Threads), u.Threads == nil)
	for _, t := range u.Threads {
		e.int(int64(t.TID))
		e.int(int64(t.PID))
		e.str(t.Comm)
		e.int(t.NS)
		e.float(t.Percent)
		e.int(t.Migrations)
		e.int32s(t.Prios)
	}
	e.n(len(u.Processes), u.Processes == nil)
	for _, p := range u.Processes {
		e.int(int64(p.PID))
		e.str(p.Comm)
		e.int(p.NS)
		e.float(p.Percent)
		e.int32s(p.Threads)
	}
	e.n(len(u.CPUs), u.CPUs == nil)
	for _, c := range u.CPUs {
		e.int(int64(c.CPU))
		e.int(c.NS)
		e.float(c.Percent)
	}
}

func (e *enc) reportCalls(r *Report) {
	rows := len(r.Syscalls)
	for _, t := range r.ThreadSyscalls {
		rows += len(t.Syscalls)
	}
	e.b = slices.Grow(e.b, callRowBytes*rows)
	e.syscalls(r.Syscalls)
	e.n(len(r.ThreadSyscalls), r.ThreadSyscalls == nil)
	for _, t := range r.ThreadSyscalls {
		e.int(int64(t.TID))
		e.str(t.Comm)
		e.syscalls(t.Syscalls)
	}
}

func (e *enc) reportTail(r *Report) {
	e.b = slices.Grow(e.b, latencyRowBytes*(len(r.SchedLatency)+len(r.ProcessLatency)+len(r.IRQs)+len(r.SoftRaise)))
	e.latency(r.SchedLatency)
	e.latency(r.ProcessLatency)
	e.irqs(r.IRQs)
	e.irqs(r.SoftRaise)
}

func (e *enc) reportSlowest(r *Report) {
	for _, l := range [][]Occurrence{r.Slowest.Syscalls, r.Slowest.SchedLatency, r.Slowest.IRQs, r.Slowest.SoftRaise} {
		e.occurrences(l)
	}
}

var errShort = errors.New("truncated or malformed body")

// dec reads what enc wrote; the first error sticks and every later read
// returns zero values.
type dec struct {
	b   []byte
	err error
	// the histograms' and outcomes' arrays are cut from these (carve):
	// one allocation per few thousand instead of one each
	hists []int64
	outs  []Outcome
	rows  []SyscallRow
	// names holds the strings read so far (system calls, outcomes,
	// commands: a few hundred, read hundreds of thousands of times at
	// tens of thousands of threads), up to maxNames
	names map[string]string
}

// maxNames bounds dec.names: a damaged section's strings are all new.
const maxNames = 1 << 14

// carve returns n elements cut from the array *arena, which it
// replaces when too short: nil for -1 and empty for 0, as slice makes
// them (the report decodes as it was encoded, nil or not).
func carve[T any](arena *[]T, n int) []T {
	if n <= 0 {
		return slice[T](n)
	}
	if cap(*arena)-len(*arena) < n {
		*arena = make([]T, 0, max(n, carveChunk))
	}
	a := *arena
	*arena = a[:len(a)+n]
	return a[len(a) : len(a)+n : len(a)+n]
}

const carveChunk = 4096

func (d *dec) fail() {
	if d.err == nil {
		d.err = errShort
	}
	d.b = nil
}

func (d *dec) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) i32() int32 {
	v := d.int()
	if v != int64(int32(v)) {
		d.fail()
		return 0
	}
	return int32(v)
}

func (d *dec) float() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *dec) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	b := d.b[:n]
	d.b = d.b[n:]
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if d.names == nil {
		d.names = map[string]string{}
	}
	if len(d.names) < maxNames {
		d.names[s] = s
	}
	return s
}

// n reads a slice's length (-1: nil); each element takes a byte at
// least, so a length past the bytes left is damage, not an allocation.
func (d *dec) n() int {
	v := d.uint()
	if v > uint64(len(d.b))+1 {
		d.fail()
		return -1
	}
	return int(v) - 1
}

// slice makes a slice of n elements (nil for -1).
func slice[T any](n int) []T {
	if n < 0 {
		return nil
	}
	return make([]T, n)
}

func (d *dec) stats(s *Stats) {
	s.Count, s.MinNS, s.MeanNS, s.MaxNS = d.int(), d.int(), d.float(), d.int()
	s.StdevNS, s.TotalNS, s.m2 = d.float(), d.int(), d.float()
	s.Histogram = carve(&d.hists, d.n())
	for i := range s.Histogram {
		s.Histogram[i] = d.int()
	}
}

func (d *dec) occurrences() []Occurrence {
	l := slice[Occurrence](d.n())
	for i := range l {
		l[i] = Occurrence{Name: d.str(), TID: d.i32(), CPU: d.i32(), StartNS: d.int(), DurationNS: d.int()}
	}
	return l
}

func (d *dec) syscalls() []SyscallRow {
	l := carve(&d.rows, d.n())
	for i := range l {
		r := &l[i]
		r.Name = d.str()
		d.stats(&r.Stats)
		r.Returns = carve(&d.outs, d.n())
		for j := range r.Returns {
			r.Returns[j] = Outcome{Name: d.str(), N: d.int()}
		}
	}
	return l
}

func (d *dec) latency() []LatencyRow {
	l := slice[LatencyRow](d.n())
	for i := range l {
		l[i].TID, l[i].PID, l[i].Comm = d.i32(), d.i32(), d.str()
		d.stats(&l[i].Stats)
	}
	return l
}

func (d *dec) irqs() []IRQRow {
	l := slice[IRQRow](d.n())
	for i := range l {
		l[i].Kind, l[i].IRQ, l[i].Name = d.str(), d.int(), d.str()
		d.stats(&l[i].Stats)
	}
	return l
}

func (d *dec) int32s() []int32 {
	l := slice[int32](d.n())
	for i := range l {
		l[i] = d.i32()
	}
	return l
}

func (d *dec) report() *Report {
	r := &Report{FromNS: d.int(), ToNS: d.int()}
	u := &r.CPUUsage
	u.Threads = slice[ThreadUsage](d.n())
	for i := range u.Threads {
		t := &u.Threads[i]
		t.TID, t.PID, t.Comm, t.NS = d.i32(), d.i32(), d.str(), d.int()
		t.Percent, t.Migrations, t.Prios = d.float(), d.int(), d.int32s()
	}
	u.Processes = slice[ProcessUsage](d.n())
	for i := range u.Processes {
		p := &u.Processes[i]
		p.PID, p.Comm, p.NS, p.Percent, p.Threads = d.i32(), d.str(), d.int(), d.float(), d.int32s()
	}
	u.CPUs = slice[CPURow](d.n())
	for i := range u.CPUs {
		u.CPUs[i] = CPURow{CPU: d.i32(), NS: d.int(), Percent: d.float()}
	}
	r.Syscalls = d.syscalls()
	r.ThreadSyscalls = slice[ThreadSyscalls](d.n())
	for i := range r.ThreadSyscalls {
		t := &r.ThreadSyscalls[i]
		t.TID, t.Comm, t.Syscalls = d.i32(), d.str(), d.syscalls()
	}
	r.SchedLatency, r.ProcessLatency = d.latency(), d.latency()
	r.IRQs, r.SoftRaise = d.irqs(), d.irqs()
	s := &r.Slowest
	s.Syscalls, s.SchedLatency, s.IRQs, s.SoftRaise = d.occurrences(), d.occurrences(), d.occurrences(), d.occurrences()
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("bytes after the report")
	}
	return r
}
