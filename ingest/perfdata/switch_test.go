package perfdata

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/states/kernel"
)

var sidebandLine = regexp.MustCompile(`^\s*(-?\d+)\s+(?:\[\d+\]\s+)?(\d+)\.(\d{9}): PERF_RECORD_(\w+)(.*)$`)

// sidebandStates reads `perf script --show-switch-events
// --show-task-events` and returns the states its COMM, FORK, EXIT and
// SWITCH lines imply, as kernel.LayoutPerfData maps them: a switch in
// runs the thread, a switch out leaves it waiting for a CPU (preempt),
// blocked, or gone after its EXIT (at the EXIT itself when switches are
// per thread: the thread's events end there); COMM names it, FORK gives
// its PPID. A kernel thread (kthreadd, PID 2, or its child by PPID, until
// a COMM exec) runs kernel code, as a system call. Records perf
// synthesized at time 0 are checked at start.
// Later lines win at equal times.
func sidebandStates(t *testing.T, out []byte, start core.Time) []sourcetest.StateAt {
	t.Helper()
	cpuWide := bytes.Contains(out, []byte("PERF_RECORD_SWITCH_CPU_WIDE"))
	type key struct {
		path string
		t    core.Time
	}
	var order []key
	val := map[key]core.Value{}
	set := func(path string, ts core.Time, v core.Value) {
		k := key{path, ts}
		if _, ok := val[k]; !ok {
			order = append(order, k)
		}
		val[k] = v
	}
	exited := map[int64]bool{}
	pid, ppid, execed := map[int64]int64{}, map[int64]int64{}, map[int64]bool{}
	kernelThread := func(tid int64) bool { return !execed[tid] && (pid[tid] == 2 || ppid[tid] == 2) }
	forkRe := regexp.MustCompile(`^\((\d+):(\d+)\):\((\d+):(\d+)\)`)
	commRe := regexp.MustCompile(`^( exec)?: (.*):(\d+)/(\d+)$`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := sidebandLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		sec, _ := strconv.ParseInt(m[2], 10, 64)
		ns, _ := strconv.ParseInt(m[3], 10, 64)
		ts := core.Time(sec*1e9 + ns)
		if ts == 0 {
			ts = start
		}
		ctx, _ := strconv.ParseInt(m[1], 10, 64)
		rest := m[5]
		switch m[4] {
		case "SWITCH", "SWITCH_CPU_WIDE":
			if ctx <= 0 {
				continue
			}
			th := "Threads/" + strconv.FormatInt(ctx, 10)
			switch {
			case strings.HasPrefix(rest, " IN") && kernelThread(ctx):
				set(th, ts, core.Int32(int32(core.ThreadRunSyscall)))
			case strings.HasPrefix(rest, " IN"):
				set(th, ts, core.Int32(int32(core.ThreadRunUser)))
			case exited[ctx]:
				set(th, ts, core.Null())
				delete(exited, ctx)
			case strings.HasPrefix(rest, " OUT preempt"):
				set(th, ts, core.Int32(int32(core.ThreadWaitCPU)))
			default:
				set(th, ts, core.Int32(int32(core.ThreadWaitBlocked)))
			}
		case "FORK", "EXIT":
			f := forkRe.FindStringSubmatch(rest)
			if f == nil {
				t.Fatalf("unexpected %q", sc.Text())
			}
			tid, _ := strconv.ParseInt(f[2], 10, 64)
			ptid, _ := strconv.ParseInt(f[4], 10, 64)
			th := "Threads/" + f[2]
			if m[4] == "FORK" {
				delete(exited, tid)
				if ptid > 0 {
					set(th+"/PPID", ts, core.Int32(int32(ptid)))
					ppid[tid] = ptid
				}
				set(th+"/PID", ts, core.Int32(int32(mustInt(f[1]))))
				pid[tid] = mustInt(f[1])
			} else if cpuWide {
				exited[tid] = true
			} else {
				set(th, ts, core.Null())
			}
		case "COMM":
			c := commRe.FindStringSubmatch(rest)
			if c == nil {
				t.Fatalf("unexpected %q", sc.Text())
			}
			set("Threads/"+c[4]+"/Exec_name", ts, core.String(c[2]))
			set("Threads/"+c[4]+"/PID", ts, core.Int32(int32(mustInt(c[3]))))
			tid := mustInt(c[4])
			pid[tid] = mustInt(c[3])
			if c[1] != "" {
				execed[tid] = true
			}
		}
	}
	var want []sourcetest.StateAt
	for _, k := range order {
		want = append(want, sourcetest.At(k.path, k.t, val[k]))
	}
	return want
}

func mustInt(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

// TestSidebandStates records cpu-clock samples with --switch-events (no
// sched tracepoint), per thread and system-wide, and checks the kernel
// analysis's thread states, names, PIDs and parents against what `perf
// script` prints of the side-band records.
func TestSidebandStates(t *testing.T) {
	perf := perfTool(t)
	work := []string{"--", "sh", "-c", "for i in 1 2 3 4; do ls / >/dev/null; sleep 0.01; done"}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"per thread", []string{"record", "-e", "cpu-clock", "-F", "999", "-g", "--switch-events", "-o", "perf.data"}},
		{"per thread with cpu", []string{"record", "-e", "cpu-clock", "-F", "999", "--sample-cpu", "--switch-events", "-o", "perf.data"}},
		{"system-wide", []string{"record", "-a", "-e", "cpu-clock", "-F", "999", "--switch-events", "-o", "perf.data"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := recordPerf(t, append(tc.args, work...)...)
			checkSideband(t, perf, path, kernel.LayoutPerfData)
		})
	}
}

// TestSidebandStatesCommitted: as TestSidebandStates on a committed
// per-thread recording (cpu-clock -g --switch-events of a shell loop),
// against what perf script printed of it (testdata/switch.sideband:
// --ns --show-switch-events --show-task-events -F tid,time, its
// PERF_RECORD lines).
func TestSidebandStatesCommitted(t *testing.T) {
	text, err := os.ReadFile("testdata/switch.sideband")
	if err != nil {
		t.Fatal(err)
	}
	checkSidebandText(t, "testdata/switch.perf", text, kernel.LayoutPerfData)
}

// sidebandScript is what perf script prints of path's side-band records.
func sidebandScript(t *testing.T, perf, path string) []byte {
	t.Helper()
	out, err := exec.Command(perf, "script", "-i", path, "--ns", "--show-switch-events", "--show-task-events", "-F", "tid,time").Output()
	if err != nil {
		t.Fatalf("perf script: %v", err)
	}
	return out
}

// checkSideband runs the kernel analysis over path and compares it with
// sidebandStates of perf script's output.
func checkSideband(t *testing.T, perf, path string, want *kernel.Layout) {
	t.Helper()
	checkSidebandText(t, path, sidebandScript(t, perf, path), want)
}

// checkSidebandText runs the kernel analysis over path and compares it
// with sidebandStates of text.
func checkSidebandText(t *testing.T, path string, text []byte, want *kernel.Layout) {
	t.Helper()
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	layout := kernel.Detect(src.Info(), src.Classes())
	if layout != want {
		t.Fatalf("Detect = %v, want %v", layout, want)
	}
	states := sidebandStates(t, text, src.Info().Start)
	if len(states) < 10 {
		t.Fatalf("only %d side-band states", len(states))
	}
	h := sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis { return noWarnings{kernel.New(s, layout)} })
	sourcetest.CheckStates(t, h, states)
	t.Logf("%d states checked", len(states))
}
