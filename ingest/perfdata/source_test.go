package perfdata

import (
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/states/kernel"
)

// TestSeekProperty: seeking a second reader to checkpoints taken at
// random events (in random order) replays the same events, on every
// committed recording (the compressed one decompresses again from the
// data's start).
func TestSeekProperty(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.data")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			rng := coretest.Rand(t)
			sourcetest.SeekProperty(t, rng, func() (core.Source, error) { return Open(path, Options{}) }, 50)
		})
	}
}

// TestEventsInOrder: on every committed recording, times never go back,
// every event has one field per class field, and the events are the
// samples and side-band records the first pass counted.
func TestEventsInOrder(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.data")
	for _, path := range files {
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last, n := core.MinTime, int64(0)
		for {
			ev, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if ev.Time < last {
				t.Fatalf("%s: event %d at %d after %d", path, n, ev.Time, last)
			}
			if len(ev.Fields) != len(ev.Class.Fields) {
				t.Fatalf("%s: %s: %d fields for %d names", path, ev.Class.Name, len(ev.Fields), len(ev.Class.Fields))
			}
			last = ev.Time
			n++
		}
		if n != src.Events() {
			t.Errorf("%s: %d events, the first pass counted %d", path, n, src.Events())
		}
		src.Close()
	}
}

// TestKernelAnalysis runs the kernel analysis (with the ftrace layout,
// as for trace.dat) over the multi-threaded recording: the sink accepts
// every change, and after each sched_switch its CPU's Current_thread is
// the next_pid and the thread's Exec_name its next_comm.
func TestKernelAnalysis(t *testing.T) {
	const path = "testdata/threads.data"
	open := func() *Source {
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	src := open()
	h := sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis { return noWarnings{kernel.New(s, kernel.LayoutFtrace)} })
	src.Close()
	src = open()
	defer src.Close()
	var want []sourcetest.StateAt
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Class.Name != "sched_switch" {
			continue
		}
		next := ev.Field(ev.Class.FieldIndex("next_pid")).Int
		if next == 0 {
			continue
		}
		comm := string(ev.Field(ev.Class.FieldIndex("next_comm")).Bytes)
		want = append(want,
			sourcetest.At("CPUs/"+strconv.Itoa(int(ev.CPU))+"/Current_thread", ev.Time, core.Int32(int32(next))),
			sourcetest.At("Threads/"+strconv.FormatInt(next, 10)+"/Exec_name", ev.Time, core.String(comm)))
	}
	if len(want) < 20 {
		t.Fatalf("%d switches", len(want)/2)
	}
	sourcetest.CheckStates(t, h, want)
}

type noWarnings struct{ *kernel.Analysis }

func (noWarnings) Warnings() []core.Warning { return nil }

// TestCPUMap: the recordings' CPU_MAP lists the CPUs perf read (all of
// them for -a: as many as NRCPUS says are online).
func TestCPUMap(t *testing.T) {
	src, err := Open("testdata/zstd.data", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := src.Meta()
	if len(m.CPUs) == 0 || len(m.CPUs) != m.CPUsOnline {
		t.Fatalf("CPU_MAP %v, %d CPUs online", m.CPUs, m.CPUsOnline)
	}
	for i, c := range m.CPUs {
		if c != i {
			t.Fatalf("CPU_MAP %v", m.CPUs)
		}
	}
}

// TestParseCPUMap decodes the three CPU_MAP encodings and refuses bad ones.
func TestParseCPUMap(t *testing.T) {
	le := binary.LittleEndian
	list := le.AppendUint16(le.AppendUint16(le.AppendUint16(le.AppendUint16(nil, 0), 2), 1), 3)
	mask := le.AppendUint64(le.AppendUint32(le.AppendUint16(le.AppendUint16(le.AppendUint16(nil, 1), 1), 8), 0), 0b1010)
	rng := le.AppendUint16(le.AppendUint16(append(le.AppendUint16(nil, 2), 0, 0), 4), 6)
	for _, c := range []struct {
		b    []byte
		want string
		ok   bool
	}{{list, "[1 3]", true}, {mask, "[1 3]", true}, {rng, "[4 5 6]", true}, {list[:5], "", false}, {le.AppendUint16(nil, 9), "", false}} {
		got, err := parseCPUMap(c.b, le)
		if (err == nil) != c.ok || c.ok && fmt.Sprint(got) != c.want {
			t.Errorf("%x: %v %v, want %s", c.b, got, err, c.want)
		}
	}
}
