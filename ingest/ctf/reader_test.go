package ctf_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
)

// genTrace writes a small generated trace.
func genTrace(t testing.TB, threads, cpus int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "trace")
	if _, err := gen.Write(dir, gen.Config{Threads: threads, CPUs: cpus, Seed: 7, PacketSize: 8192}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func conformanceTrace(name string) string {
	return filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", name)
}

// record is what identifies an event of a pass.
type record struct {
	time   core.Time
	stream int32
	class  int
	text   string
}

func (r record) String() string {
	return fmt.Sprintf("[%d] s%d c%d %s", r.time, r.stream, r.class, r.text)
}

func recordOf(r *ctf.Reader, ev *core.Event) record {
	return record{ev.Time, ev.Stream, ev.Class.ID, string(r.AppendContents(nil, ev))}
}

// fullPass reads the whole trace, taking a checkpoint before the first
// event and after every event.
func fullPass(t *testing.T, r *ctf.Reader) ([]record, [][]byte) {
	t.Helper()
	var recs []record
	cps := [][]byte{r.Checkpoint(nil)}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return recs, cps
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, recordOf(r, ev))
		cps = append(cps, r.Checkpoint(nil))
	}
}

func checkpointTraces(t *testing.T) map[string]string {
	traces := map[string]string{
		"generated":       genTrace(t, 60, 3),
		"several-streams": conformanceTrace("several-streams"),
		"nested-traces":   conformanceTrace("nested-traces"),
		"timestamp-wrap":  conformanceTrace("timestamp-wrap"),
		"no-packet-sizes": conformanceTrace("no-packet-sizes"),
	}
	if d := coretest.SharedDir(); d != "" {
		traces["bug446190"] = filepath.Join(d, "traces", "ctf", "bug446190")
		traces["hello-lost"] = filepath.Join(d, "traces", "ctf", "hello-lost")
	}
	return traces
}

// TestCheckpointSeek is a property test: for random checkpoints taken
// during a full pass, Seek then Next reproduces the events of the pass.
func TestCheckpointSeek(t *testing.T) {
	rng := coretest.Rand(t)
	for name, dir := range checkpointTraces(t) {
		t.Run(name, func(t *testing.T) {
			r, err := ctf.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			recs, cps := fullPass(t, r)
			if len(recs) == 0 {
				t.Fatal("no events")
			}
			for i := 0; i < 60; i++ {
				k := rng.IntN(len(cps))
				if i == 0 {
					k = 0
				} else if i == 1 {
					k = len(cps) - 1
				}
				if err := r.Seek(cps[k]); err != nil {
					t.Fatalf("Seek(checkpoint %d): %v", k, err)
				}
				n := 1 + rng.IntN(50)
				for j := 0; j < n; j++ {
					ev, err := r.Next()
					if k+j >= len(recs) {
						if err != io.EOF {
							t.Fatalf("checkpoint %d: event %d after the end: %v, %v", k, j, ev, err)
						}
						break
					}
					if err != nil {
						t.Fatalf("checkpoint %d: %v", k, err)
					}
					if got := recordOf(r, ev); got != recs[k+j] {
						t.Fatalf("after Seek(checkpoint %d), event %d:\n got  %v\n want %v", k, j, got, recs[k+j])
					}
				}
				// A checkpoint taken after Seek is valid too.
				if k+n <= len(recs) {
					if got, want := string(r.Checkpoint(nil)), string(cps[k+n]); got != want {
						t.Fatalf("checkpoint after Seek(%d) and %d events differs from the pass's", k, n)
					}
				}
			}
		})
	}
}

func TestSeekRefusesMalformedCheckpoints(t *testing.T) {
	rng := coretest.Rand(t)
	r, err := ctf.Open(conformanceTrace("several-streams"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, cps := fullPass(t, r)
	other, err := ctf.Open(conformanceTrace("timestamp-wrap"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	good := cps[len(cps)/2]
	bad := [][]byte{nil, {}, {9}, good[:len(good)-1], append(append([]byte(nil), good...), 0), other.Checkpoint(nil)}
	for i := 0; i < 300; i++ {
		b := append([]byte(nil), good...)
		b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		bad = append(bad, b)
	}
	for _, b := range bad {
		err := r.Seek(b)
		if err == nil {
			// A flipped byte may still be a valid position; it must
			// then read without panicking.
			for {
				if _, err := r.Next(); err != nil {
					break
				}
			}
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("multi-line error %q", err)
		}
	}
	for _, b := range bad[:6] {
		if err := r.Seek(b); !errors.Is(err, ctf.ErrBadCheckpoint) {
			t.Errorf("Seek(%x) = %v, want ErrBadCheckpoint", b, err)
		}
	}
	// The reader still works after refusing checkpoints.
	if err := r.Seek(cps[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
}

// TestSeekTime checks that SeekTime(t) resumes at the first event at or
// after t in the pass's order.
func TestSeekTime(t *testing.T) {
	rng := coretest.Rand(t)
	for name, dir := range checkpointTraces(t) {
		t.Run(name, func(t *testing.T) {
			r, err := ctf.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			recs, _ := fullPass(t, r)
			first, last := recs[0].time, recs[len(recs)-1].time
			for i := 0; i < 40; i++ {
				ts := first - 10 + core.Time(rng.Int64N(int64(last-first)+20))
				want := sort.Search(len(recs), func(k int) bool { return recs[k].time >= ts })
				if err := r.SeekTime(ts); err != nil {
					t.Fatal(err)
				}
				ev, err := r.Next()
				if want == len(recs) {
					if err != io.EOF {
						t.Fatalf("SeekTime(%d) past the end: %v, %v", ts, ev, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := recordOf(r, ev); got != recs[want] {
					t.Fatalf("SeekTime(%d):\n got  %v\n want %v", ts, got, recs[want])
				}
			}
		})
	}
}

func TestInfoAndPacketIndex(t *testing.T) {
	dir := genTrace(t, 100, 3)
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	info := r.Info()
	if info.Format != "ctf" || info.Hostname != "tracetui-gen" || info.Domain != "kernel" || info.Streams != 3 || info.Bytes == 0 {
		t.Errorf("Info = %+v", info)
	}
	recs, _ := fullPass(t, r)
	if recs[0].time < info.Start || recs[len(recs)-1].time > info.End {
		t.Errorf("events span [%d, %d], outside Info's [%d, %d]", recs[0].time, recs[len(recs)-1].time, info.Start, info.End)
	}
	perStream := map[int32]int64{}
	for _, rec := range recs {
		perStream[rec.stream]++
	}
	for i := 0; i < info.Streams; i++ {
		var n int64
		pk := r.Packets(i)
		for j, p := range pk {
			if p.Events < 0 {
				t.Fatalf("stream %d packet %d: event count unknown after a full pass", i, j)
			}
			if !p.HasTimes || p.Begin > p.End || p.CPU != int32(i) {
				t.Errorf("stream %d packet %d: %+v", i, j, p)
			}
			if j > 0 && p.Offset != pk[j-1].Offset+pk[j-1].Size {
				t.Errorf("stream %d packet %d at offset %d, want %d", i, j, p.Offset, pk[j-1].Offset+pk[j-1].Size)
			}
			n += p.Events
		}
		if n != perStream[int32(i)] {
			t.Errorf("stream %d: packet index counts %d events, the pass read %d", i, n, perStream[int32(i)])
		}
	}
	done, total := r.Progress()
	if done != total || total != info.Bytes {
		t.Errorf("Progress after the pass = %d/%d, want %d/%d", done, total, info.Bytes, info.Bytes)
	}
}

// TestEventFields checks the decoded fields the analyses read.
func TestEventFields(t *testing.T) {
	r, err := ctf.Open(genTrace(t, 30, 2))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	seen := map[string]bool{}
	for i, c := range r.Classes() {
		if c.ID != i {
			t.Fatalf("class %q has ID %d at index %d", c.Name, c.ID, i)
		}
	}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if cpu := ev.Field(ev.Class.FieldIndex("packet.cpu_id")); cpu.Kind != core.FieldUint || int32(cpu.Int) != ev.CPU {
			t.Fatalf("%s: CPU %d, packet.cpu_id %+v", ev.Class.Name, ev.CPU, cpu)
		}
		seen[ev.Class.Name] = true
		switch ev.Class.Name {
		case "sched_switch":
			prev := ev.Field(ev.Class.FieldIndex("prev_comm"))
			tid := ev.Field(ev.Class.FieldIndex("next_tid"))
			state := ev.Field(ev.Class.FieldIndex("prev_state"))
			if prev.Kind != core.FieldString || len(prev.Bytes) == 0 || tid.Kind != core.FieldInt || state.Kind != core.FieldInt {
				t.Fatalf("sched_switch fields: %+v %+v %+v", prev, tid, state)
			}
		case "lttng_statedump_process_state":
			st := ev.Field(ev.Class.FieldIndex("status"))
			if st.Kind != core.FieldEnum || string(st.Bytes) != map[int64]string{5: "WAIT", 6: "RUN"}[st.Int] {
				t.Fatalf("status field %+v", st)
			}
		case "sched_process_fork":
			if f := ev.Field(ev.Class.FieldIndex("vtids")); f.Kind != core.FieldNone {
				t.Fatalf("a sequence of integers is exposed: %+v", f)
			}
		}
	}
	for _, name := range []string{"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_process_fork",
		"sched_process_exec", "sched_process_exit", "sched_process_free", "irq_handler_entry", "irq_softirq_raise",
		"syscall_entry_futex", "syscall_exit_nanosleep", "lttng_statedump_start", "lttng_statedump_process_state"} {
		if !seen[name] {
			t.Errorf("no %s event", name)
		}
	}
}

func TestPerfCPU(t *testing.T) {
	r, err := ctf.Open(conformanceTrace("perf-like"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var cpus []int32
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		cpus = append(cpus, ev.CPU)
	}
	if fmt.Sprint(cpus) != "[0 1 0]" {
		t.Errorf("CPUs from perf_cpu = %v, want [0 1 0]", cpus)
	}
}

// TestMultiTraceClasses: a directory of traces has one set of classes per
// trace, with dense ids, and per-event hostnames.
func TestMultiTraceClasses(t *testing.T) {
	r, err := ctf.Open(conformanceTrace("nested-traces"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cs := r.Classes()
	if len(cs) != 2 || cs[0].Name != "kernel" || cs[1].Name != "ust_uid_1000_64-bit" || cs[0].ID != 0 || cs[1].ID != 1 {
		t.Fatalf("classes %v %v", cs[0], cs[1])
	}
	hosts := map[string]string{}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		h, _ := r.Hostname(ev)
		hosts[ev.Class.Name] = h
	}
	if hosts["kernel"] != "hostk" || hosts["ust_uid_1000_64-bit"] != "hostu" {
		t.Errorf("hostnames %v", hosts)
	}
}

// TestNoAllocationPerEvent: the analysis path allocates nothing per event.
func TestNoAllocationPerEvent(t *testing.T) {
	dir := genTrace(t, 200, 4)
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var n int
	allocs := testing.AllocsPerRun(1, func() {
		if err := r.SeekTime(core.MinTime); err != nil {
			t.Fatal(err)
		}
		n = 0
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			n++
		}
	})
	// Per pass: a few buffers when classes are first seen and windows
	// grow, nothing per event.
	if allocs > 100 {
		t.Errorf("%.0f allocations for %d events", allocs, n)
	}
}

func TestHelloLostWarnings(t *testing.T) {
	dir := filepath.Join(coretest.SharedTraces(t), "ctf", "hello-lost")
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ws := r.Warnings()
	if len(ws) == 0 {
		t.Fatal("no warnings")
	}
	// babeltrace2 prints this for a copy of the trace from its fourth
	// packet on (it aborts on the whole trace before reaching it).
	const want = `WARNING: Tracer discarded 859 events between [1376592664.828848540] and [1376592664.829403076] in trace "loki" (UUID: d27c85c2-d329-45eb-879a-350f87f5ac9a) within stream "`
	w := ws[0]
	if !strings.HasPrefix(w.Message, want) || w.Kind != "discarded" || w.Count != 859 || w.Time != 1376592664828848540 || w.Stream != 2 {
		t.Errorf("first warning = %+v", w)
	}
	var total int64
	for _, w := range ws {
		total += w.Count
	}
	if total != 967700 {
		t.Errorf("%d events discarded in all, want 967700 (the last packet's counter)", total)
	}
}

// TestPagesReadsTheSame: a reader opened for pages (small windows that
// grow when an event does not fit) reads the same events, and takes the
// same checkpoints, as one with the default windows.
func TestPagesReadsTheSame(t *testing.T) {
	for name, dir := range checkpointTraces(t) {
		t.Run(name, func(t *testing.T) {
			var recs [2][]record
			var cps [2][][]byte
			for i, o := range []ctf.Options{{}, {Pages: true}} {
				r, err := ctf.OpenOptions(dir, o)
				if err != nil {
					t.Fatal(err)
				}
				recs[i], cps[i] = fullPass(t, r)
				r.Close()
			}
			if !slices.Equal(recs[0], recs[1]) {
				t.Fatalf("%d events with default windows, %d for pages, or other events", len(recs[0]), len(recs[1]))
			}
			if !slices.EqualFunc(cps[0], cps[1], bytes.Equal) {
				t.Fatal("other checkpoints for pages")
			}
		})
	}
}
