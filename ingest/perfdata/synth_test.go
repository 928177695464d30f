package perfdata

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// A hand-made perf.data, written in either byte order and either mode, to
// test what no machine here records: big-endian files, and the same
// content in file and pipe mode.

const synthFormat = `name: sched_switch
ID: 7
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;
	field:long prev_state;	offset:32;	size:8;	signed:1;
	field:pid_t next_pid;	offset:40;	size:4;	signed:1;

print fmt: "prev_comm=%s prev_pid=%d prev_state=%ld ==> next_pid=%d", REC->prev_comm, REC->prev_pid, REC->prev_state, REC->next_pid
`

type synth struct {
	o     binary.AppendByteOrder
	b     []byte
	extra []byte // appended to the records (little-endian tests only)
}

func (w *synth) u16(v uint16) { w.b = w.o.AppendUint16(w.b, v) }
func (w *synth) u32(v uint32) { w.b = w.o.AppendUint32(w.b, v) }
func (w *synth) u64(v uint64) { w.b = w.o.AppendUint64(w.b, v) }
func (w *synth) str(s string) { w.b = append(append(w.b, s...), 0) }

// headerString appends a perf_header_string padded to 64 bytes.
func (w *synth) headerString(s string) {
	n := (len(s) + 1 + 63) &^ 63
	w.u32(uint32(n))
	w.b = append(w.b, s...)
	w.b = append(w.b, make([]byte, n-len(s))...)
}

func synthTracing(o binary.AppendByteOrder, big bool) []byte {
	w := &synth{o: o}
	w.b = append(w.b, tracingMagic...)
	w.str("0.6")
	if big {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
	w.b = append(w.b, 8)
	w.u32(4096)
	w.str("header_page")
	w.u64(0)
	w.str("header_event")
	w.u64(0)
	w.u32(0) // ftrace formats
	w.u32(1) // systems
	w.str("sched")
	w.u32(1)
	w.u64(uint64(len(synthFormat)))
	w.b = append(w.b, synthFormat...)
	w.u32(0) // kallsyms
	w.u32(0) // printk
	cmd := "100 prog\n"
	w.u64(uint64(len(cmd)))
	w.b = append(w.b, cmd...)
	for len(w.b)%8 != 0 {
		w.b = append(w.b, 0)
	}
	return w.b
}

// synthAttr appends a 128-byte perf_event_attr.
func (w *synth) attr(typ uint32, config, sampleType, flags uint64, big bool) {
	w.u32(typ)
	w.u32(128)
	w.u64(config)
	w.u64(1)
	w.u64(sampleType)
	w.u64(0)
	if big {
		flags = bits.Reverse64(flags)
	}
	w.u64(flags)
	w.b = append(w.b, make([]byte, 128-48)...)
}

const synthSampleType = sampleIdentifier | sampleIP | sampleTID | sampleTime | sampleCPU | samplePeriod | sampleRaw

// records appends the data records: start-up COMMs at time 0, then two
// CPUs' samples in rounds out of order across CPUs, a FORK, an EXIT and a
// LOST record.
func (w *synth) records() {
	hdr := func(typ uint32, misc uint16, size int) {
		w.u32(typ)
		w.u16(misc)
		w.u16(uint16(size))
	}
	trailer := func(pid, tid uint32, t uint64, cpu uint32, id uint64) {
		w.u32(pid)
		w.u32(tid)
		w.u64(t)
		w.u32(cpu)
		w.u32(0)
		w.u64(id)
	}
	comm := func(pid, tid uint32, name string, t uint64, misc uint16) {
		hdr(recComm, misc, 8+8+16+32)
		w.u32(pid)
		w.u32(tid)
		b := make([]byte, 16)
		copy(b, name)
		w.b = append(w.b, b...)
		trailer(pid, tid, t, 0, 3)
	}
	sample := func(t uint64, cpu uint32, prev, next uint32, prevComm string, state uint64) {
		hdr(recSample, miscKernel, 8+8*6+4+44+4)
		w.u64(1)                  // identifier: the tracepoint
		w.u64(0xffffffff81000010) // ip
		w.u32(prev)
		w.u32(prev)
		w.u64(t)
		w.u32(cpu)
		w.u32(0)
		w.u64(1)
		w.u32(48)
		raw := &synth{o: w.o}
		raw.u16(7)
		raw.b = append(raw.b, 0, 0)
		raw.u32(prev)
		c := make([]byte, 16)
		copy(c, prevComm)
		raw.b = append(raw.b, c...)
		raw.u32(prev)
		raw.u32(0)
		raw.u64(state)
		raw.u32(next)
		raw.b = append(raw.b, make([]byte, 48-len(raw.b))...)
		w.b = append(w.b, raw.b...)
	}
	round := func() { hdr(recFinishedRound, 0, 8) }
	comm(100, 100, "prog", 0, 0)
	comm(0, 0, "swapper", 0, 0)
	sample(1000, 0, 100, 0, "prog", 1)
	sample(1400, 0, 0, 100, "swapper", 0)
	sample(1100, 1, 0, 100, "swapper", 0)
	round()
	sample(1300, 1, 100, 0, "prog", 2)
	comm(100, 100, "prog2", 1350, miscCommExec)
	sample(2000, 0, 100, 0, "prog2", 0)
	round()
	hdr(recFork, 0, 8+24+32)
	w.u32(101)
	w.u32(100)
	w.u32(101)
	w.u32(100)
	w.u64(2100)
	trailer(100, 100, 2100, 0, 3)
	sample(2200, 1, 0, 101, "swapper", 0)
	sample(2150, 0, 0, 100, "swapper", 0)
	hdr(recExit, 0, 8+24+32)
	w.u32(101)
	w.u32(100)
	w.u32(101)
	w.u32(100)
	w.u64(2300)
	trailer(101, 101, 2300, 1, 3)
	hdr(recLost, 0, 8+16+32)
	w.u64(3)
	w.u64(17)
	trailer(0, 0, 2400, 1, 3)
	w.b = append(w.b, w.extra...)
	round()
}

// synthFile returns the hand-made recording in the given byte order, in
// file mode or pipe mode.
func synthFile(big, pipe bool) []byte { return synthFileWith(big, pipe, nil) }

// synthFileWith is synthFile with extra bytes after the last records.
func synthFileWith(big, pipe bool, extra []byte) []byte {
	var o binary.AppendByteOrder = binary.LittleEndian
	if big {
		o = binary.BigEndian
	}
	tracing := synthTracing(o, big)
	w := &synth{o: o, extra: extra}
	w.b = append(w.b, Magic...)
	if big {
		copy(w.b, "2ELIFREP")
	}
	features := []struct {
		bit  int
		body func()
	}{
		{featTracingData, func() { w.b = append(w.b, tracing...) }},
		{featHostname, func() { w.headerString("synth") }},
		{featOSRelease, func() { w.headerString("0.0-synth") }},
		{featArch, func() { w.headerString("x86_64") }},
		{featNRCPUs, func() { w.u32(2); w.u32(2) }},
		{featEventDesc, func() {
			w.u32(2)
			w.u32(128)
			for _, e := range []struct {
				typ    uint32
				config uint64
				name   string
				ids    []uint64
			}{{typeTracepoint, 7, "sched:sched_switch", []uint64{1, 2}}, {typeSoftware, 9, "dummy:HG", []uint64{3, 4}}} {
				w.attr(e.typ, e.config, synthSampleType, flagSampleIDAll, big)
				w.u32(uint32(len(e.ids)))
				w.headerString(e.name)
				for _, id := range e.ids {
					w.u64(id)
				}
			}
		}},
	}
	if pipe {
		w.u64(pipeHeaderLen)
		for i, cfg := range []uint64{7, 9} {
			typ := uint32(typeTracepoint)
			if cfg == 9 {
				typ = typeSoftware
			}
			w.u32(recHeaderAttr)
			w.u16(0)
			w.u16(8 + 128 + 16)
			w.attr(typ, cfg, synthSampleType, flagSampleIDAll, big)
			w.u64(uint64(2*i + 1))
			w.u64(uint64(2*i + 2))
		}
		for _, f := range features[1:] {
			start := len(w.b)
			w.u32(recHeaderFeature)
			w.u16(0)
			w.u16(0)
			w.u64(uint64(f.bit))
			f.body()
			o.(binary.ByteOrder).PutUint16(w.b[start+6:], uint16(len(w.b)-start))
		}
		w.u32(recHeaderTracing)
		w.u16(0)
		w.u16(16)
		w.u32(uint32(len(tracing)))
		w.u32(0)
		w.b = append(w.b, tracing...)
		w.records()
		return w.b
	}
	// File mode: header, IDs, attrs, data, feature table, bodies.
	ord := o.(binary.ByteOrder)
	w.b = append(w.b, make([]byte, fileHeaderLen-8)...)
	ids := len(w.b)
	for id := uint64(1); id <= 4; id++ {
		w.u64(id)
	}
	attrs := len(w.b)
	for i, cfg := range []uint64{7, 9} {
		typ := uint32(typeTracepoint)
		if cfg == 9 {
			typ = typeSoftware
		}
		w.attr(typ, cfg, synthSampleType, flagSampleIDAll, big)
		w.u64(uint64(ids + 16*i))
		w.u64(16)
	}
	data := len(w.b)
	w.records()
	dataEnd := len(w.b)
	table := len(w.b)
	w.b = append(w.b, make([]byte, 16*len(features))...)
	var bitmap uint64
	for i, f := range features {
		start := len(w.b)
		f.body()
		ord.PutUint64(w.b[table+16*i:], uint64(start))
		ord.PutUint64(w.b[table+16*i+8:], uint64(len(w.b)-start))
		bitmap |= 1 << f.bit
	}
	ord.PutUint64(w.b[8:], fileHeaderLen)
	ord.PutUint64(w.b[16:], 128+16)
	ord.PutUint64(w.b[24:], uint64(attrs))
	ord.PutUint64(w.b[32:], 2*(128+16))
	ord.PutUint64(w.b[40:], uint64(data))
	ord.PutUint64(w.b[48:], uint64(dataEnd-data))
	ord.PutUint64(w.b[72:], bitmap)
	return w.b
}

// synthWant is what perf script would print for the hand-made file (the
// samples in time order, the comm at each time).
const synthWant = `            prog   100 [000]     0.000001: sched:sched_switch: prev_comm=prog prev_pid=100 prev_state=1 ==> next_pid=0
         swapper     0 [001]     0.000001: sched:sched_switch: prev_comm=swapper prev_pid=0 prev_state=0 ==> next_pid=100
            prog   100 [001]     0.000001: sched:sched_switch: prev_comm=prog prev_pid=100 prev_state=2 ==> next_pid=0
         swapper     0 [000]     0.000001: sched:sched_switch: prev_comm=swapper prev_pid=0 prev_state=0 ==> next_pid=100
           prog2   100 [000]     0.000002: sched:sched_switch: prev_comm=prog2 prev_pid=100 prev_state=0 ==> next_pid=0
         swapper     0 [000]     0.000002: sched:sched_switch: prev_comm=swapper prev_pid=0 prev_state=0 ==> next_pid=100
         swapper     0 [001]     0.000002: sched:sched_switch: prev_comm=swapper prev_pid=0 prev_state=0 ==> next_pid=101
`

// TestSynthOrders: the hand-made recording prints the same in
// little-endian and big-endian, file and pipe mode, with its samples in
// time order, the thread names of their time, its LOST count warned of,
// and the same events.
func TestSynthOrders(t *testing.T) {
	var first string
	for _, big := range []bool{false, true} {
		for _, pipe := range []bool{false, true} {
			dir := t.TempDir()
			path := filepath.Join(dir, "perf.data")
			if err := os.WriteFile(path, synthFile(big, pipe), 0o644); err != nil {
				t.Fatal(err)
			}
			if ok, err := Detect(path); !ok || err != nil {
				t.Fatalf("big %v pipe %v: Detect %v %v", big, pipe, ok, err)
			}
			compareLines(t, "synthetic", script(t, path), synthWant)
			src, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if m := src.Meta(); m.Hostname != "synth" || m.OSRelease != "0.0-synth" || m.Arch != "x86_64" || m.CPUsOnline != 2 {
				t.Errorf("big %v pipe %v: meta %+v", big, pipe, m)
			}
			if src.Pipe() != pipe {
				t.Errorf("Pipe() = %v", src.Pipe())
			}
			lost := int64(0)
			for _, w := range src.Warnings() {
				if w.Kind == "lost" {
					lost += w.Count
				}
			}
			if lost != 17 {
				t.Errorf("big %v pipe %v: lost %d, want 17 (%+v)", big, pipe, lost, src.Warnings())
			}
			got := strings.ReplaceAll(sourcetest.Dump(t, src), path, "perf.data")
			src.Close()
			if first == "" {
				first = got
			} else if got != first {
				t.Errorf("big %v pipe %v: events differ:\n%s\nwant\n%s", big, pipe, got, first)
			}
		}
	}
	for _, want := range []string{"perf_comm", "perf_fork", "perf_exit", "perf_lost", "tid=101"} {
		if !bytes.Contains([]byte(first), []byte(want)) {
			t.Errorf("no %q in the events:\n%s", want, first)
		}
	}
	var _ core.Time
}

// TestHalfFlush: with a queue bound below the rounds' size, records are
// delivered half a queue at a time; times still never go back and seeking
// to checkpoints replays the same events.
func TestHalfFlush(t *testing.T) {
	defer func(n int) { maxQueueBytes = n }(maxQueueBytes)
	maxQueueBytes = 300
	path := filepath.Join(t.TempDir(), "perf.data")
	if err := os.WriteFile(path, synthFile(false, false), 0o644); err != nil {
		t.Fatal(err)
	}
	compareLines(t, "half flush", script(t, path), synthWant)
	for _, p := range []string{path, "testdata/threads.data"} {
		sourcetest.SeekProperty(t, coretest.Rand(t), func() (core.Source, error) { return Open(p, Options{}) }, 30)
	}
}
