package gen_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

func write(t *testing.T, cfg gen.Config) (string, gen.Stats) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "trace")
	st, err := gen.Write(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func TestWriteIsDeterministic(t *testing.T) {
	cfg := gen.Config{Threads: 300, CPUs: 3, Seed: 42}
	a, sa := write(t, cfg)
	b, sb := write(t, cfg)
	if sa != sb || sa.Events == 0 || sa.Bytes == 0 || sa.Threads != 300 {
		t.Fatalf("stats %+v and %+v", sa, sb)
	}
	fa, fb := readDir(t, a), readDir(t, b)
	if len(fa) != 4 {
		t.Fatalf("files %d, want metadata and 3 streams", len(fa))
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs between two writes with the same seed", name)
		}
	}
	c, _ := write(t, gen.Config{Threads: 300, CPUs: 3, Seed: 43})
	if bytes.Equal(readDir(t, c)["channel0_0"], fa["channel0_0"]) {
		t.Error("another seed writes the same stream")
	}
}

// TestWorkloadIsConsistent reads a generated trace back and checks what a
// kernel analysis relies on: per CPU, each sched_switch's prev is the
// thread the previous one switched in; a thread runs on one CPU at a
// time; every forked thread runs, exits and is freed; system calls of a
// thread nest properly.
func TestWorkloadIsConsistent(t *testing.T) {
	const threads = 400
	dir, st := write(t, gen.Config{Threads: threads, CPUs: 4, Seed: 3, PacketSize: 16384})
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cur := map[int32]int64{}     // cpu -> current tid
	running := map[int64]int32{} // tid -> cpu
	inSyscall := map[int64]string{}
	forked, exited, freed := map[int64]bool{}, map[int64]bool{}, map[int64]bool{}
	var events int64
	var last core.Time
	idx := func(ev *core.Event, name string) int64 {
		i := ev.Class.FieldIndex(name)
		if i < 0 {
			t.Fatalf("%s has no field %s", ev.Class.Name, name)
		}
		return ev.Fields[i].Int
	}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		events++
		if ev.Time < last {
			t.Fatalf("time goes back: %d after %d", ev.Time, last)
		}
		last = ev.Time
		name := ev.Class.Name
		switch {
		case name == "lttng_statedump_process_state":
			// Who runs where when the trace starts.
			if ev.Fields[ev.Class.FieldIndex("status")].Int == 6 { // RUN
				tid, cpu := idx(ev, "tid"), int32(idx(ev, "cpu"))
				cur[cpu], running[tid] = tid, cpu
			}
		case name == "sched_switch":
			prev, next := idx(ev, "prev_tid"), idx(ev, "next_tid")
			if c, ok := cur[ev.CPU]; ok && c != prev {
				t.Fatalf("cpu %d: switch from %d, but %d was running", ev.CPU, prev, c)
			}
			delete(running, prev)
			if next != 0 {
				if c, ok := running[next]; ok {
					t.Fatalf("tid %d switched in on cpu %d while running on cpu %d", next, ev.CPU, c)
				}
				running[next] = ev.CPU
			}
			cur[ev.CPU] = next
		case name == "sched_process_fork":
			forked[idx(ev, "child_tid")] = true
		case name == "sched_process_exit":
			exited[idx(ev, "tid")] = true
		case name == "sched_process_free":
			freed[idx(ev, "tid")] = true
		case strings.HasPrefix(name, "syscall_entry_"):
			tid := cur[ev.CPU]
			if s, ok := inSyscall[tid]; ok {
				t.Fatalf("tid %d enters %s inside %s", tid, name, s)
			}
			if tid == 0 {
				t.Fatalf("%s on an idle cpu %d", name, ev.CPU)
			}
			if name != "syscall_entry_exit" && name != "syscall_entry_exit_group" {
				inSyscall[tid] = strings.TrimPrefix(name, "syscall_entry_")
			}
		case strings.HasPrefix(name, "syscall_exit_"):
			tid := cur[ev.CPU]
			if s := inSyscall[tid]; s != strings.TrimPrefix(name, "syscall_exit_") {
				t.Fatalf("tid %d: %s while in %q", tid, name, s)
			}
			delete(inSyscall, tid)
		}
	}
	if events != st.Events {
		t.Errorf("read %d events, Write reported %d", events, st.Events)
	}
	if len(forked) != threads+1 { // burn's threads and burn itself
		t.Errorf("%d forks, want %d", len(forked), threads+1)
	}
	for tid := range forked {
		if !exited[tid] || !freed[tid] {
			t.Errorf("tid %d forked but exited=%v freed=%v", tid, exited[tid], freed[tid])
		}
	}
}

// TestMatchesBabeltrace: babeltrace2 prints what tracetui dump prints,
// for several shapes (one CPU, many CPUs, small packets, and a trace long
// enough for extended event headers).
func TestMatchesBabeltrace(t *testing.T) {
	for _, cfg := range []gen.Config{
		{Threads: 50, CPUs: 1, Seed: 1},
		{Threads: 200, CPUs: 8, Seed: 2, PacketSize: 4096},
		{Threads: 40, CPUs: 2, Seed: 3, ForkInterval: 150_000_000},
	} {
		dir, _ := write(t, cfg)
		want, stderr, code := bttest.Run(t, dir)
		if code != 0 {
			t.Fatalf("babeltrace2 exit status %d:\n%s", code, stderr)
		}
		src, err := ingest.OpenSource(dir, "", ingest.OpenEnv{})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := ingest.Dump(&got, src, 0); err != nil {
			t.Fatal(err)
		}
		src.Close()
		res := bttest.Compare(t, want, got.String())
		t.Logf("%+v: %d events identical", cfg, res.Lines)
	}
}

// TestExtendedHeaders: a trace spanning more than 2^32 ns uses extended
// event headers and still decodes in order.
func TestExtendedHeaders(t *testing.T) {
	dir, st := write(t, gen.Config{Threads: 30, CPUs: 2, Seed: 5, ForkInterval: 400_000_000})
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	info := r.Info()
	if info.End-info.Start < 1<<32 {
		t.Fatalf("trace spans %d ns, want more than 2^32", info.End-info.Start)
	}
	var n int64
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != st.Events {
		t.Errorf("%d events, want %d", n, st.Events)
	}
}

func TestWriteRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(dir, gen.Config{Threads: 1}); err == nil {
		t.Error("wrote into a non-empty directory")
	}
	for _, cfg := range []gen.Config{{}, {Threads: 1, CPUs: 1000}, {Threads: 1, PacketSize: 100}, {Threads: 1, ForkInterval: -1}} {
		if _, err := gen.Write(filepath.Join(t.TempDir(), "t"), cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	// An empty existing directory is fine; no temporary directory is left.
	parent := t.TempDir()
	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(empty, gen.Config{Threads: 2}); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("parent holds %d entries, want only the trace", len(entries))
	}
}

// TestMemoryIsPerThreadNotPerEvent: Write allocates per live thread and
// per packet, never per event.
func TestMemoryIsPerThreadNotPerEvent(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, st := write(t, gen.Config{Threads: 20000, CPUs: 4, Seed: 9})
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	if perEvent := float64(alloc) / float64(st.Events); perEvent > 40 {
		t.Errorf("%d bytes allocated for %d events (%.0f per event)", alloc, st.Events, perEvent)
	}
}
