package ftrace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

const sampleDir = "../../testdata/ftrace"

var samples = []string{"tracefs-trace", "tracefs-trace-tgid", "trace-cmd-report", "trace-cmd-report-latency", "trace-cmd-report-l", "garbled"}

func TestSamplesGolden(t *testing.T) {
	for _, name := range samples {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(sampleDir, name+".txt")
			if ok, err := Detect(path); !ok || err != nil {
				t.Errorf("Detect = %v, %v", ok, err)
			}
			src, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			sourcetest.Golden(t, filepath.Join(sampleDir, name+".dump"), sourcetest.Dump(t, src))
		})
	}
}

// event finds the first event of a class and returns its fields by name.
func event(t *testing.T, file, class string) map[string]core.Field {
	t.Helper()
	src, err := Open(filepath.Join(sampleDir, file), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for {
		ev, err := src.Next()
		if err != nil {
			t.Fatalf("%s: no %s event", file, class)
		}
		if ev.Class.Name == class {
			m := map[string]core.Field{"cpu": {Kind: core.FieldInt, Int: int64(ev.CPU)}}
			for i, f := range ev.Fields {
				f.Bytes = append([]byte(nil), f.Bytes...)
				m[ev.Class.Fields[i]] = f
			}
			return m
		}
	}
}

func str(s string) core.Field { return core.Field{Kind: core.FieldString, Bytes: []byte(s)} }
func num(v int64) core.Field  { return core.Field{Kind: core.FieldInt, Int: v} }

func checkFields(t *testing.T, got map[string]core.Field, want map[string]core.Field) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		if !ok || g.Kind != w.Kind || g.Int != w.Int || string(g.Bytes) != string(w.Bytes) {
			t.Errorf("field %s = %+v (%s), want %+v (%s)", k, g, g.Bytes, w, w.Bytes)
		}
	}
}

// TestKernelAnalysisContract checks the class and field names and kinds
// the kernel analysis relies on, in each output shape.
func TestKernelAnalysisContract(t *testing.T) {
	switchWant := map[string]core.Field{
		"prev_comm": str("swapper/1"), "prev_pid": num(0), "prev_prio": num(120), "prev_state": str("R"),
		"next_comm": str("bash"), "next_pid": num(1234), "next_prio": num(120),
		"context.tid": num(0), "context.comm": str("<idle>"), "cpu": num(1),
	}
	checkFields(t, event(t, "tracefs-trace.txt", "sched_switch"), switchWant)
	checkFields(t, event(t, "trace-cmd-report.txt", "sched_switch"), switchWant)
	checkFields(t, event(t, "tracefs-trace-tgid.txt", "sched_switch"), map[string]core.Field{
		"prev_state": str("D"), "context.tid": num(1234), "context.pid": num(1234), "next_comm": str("kworker/2:1"),
	})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_wakeup"), map[string]core.Field{
		"comm": str("bash"), "pid": num(1234), "prio": num(120), "target_cpu": num(1)})
	checkFields(t, event(t, "trace-cmd-report.txt", "sched_wakeup"), map[string]core.Field{
		"comm": str("kworker/1:1"), "pid": num(87), "prio": num(120), "target_cpu": num(1)})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_waking"), map[string]core.Field{
		"comm": str("bash"), "pid": num(1234), "target_cpu": num(1)})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_wakeup_new"), map[string]core.Field{
		"comm": str("bash"), "pid": num(1240), "target_cpu": num(0)})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_process_fork"), map[string]core.Field{
		"comm": str("bash"), "pid": num(1234), "child_comm": str("bash"), "child_pid": num(1240)})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_process_exec"), map[string]core.Field{
		"filename": str("/usr/bin/ls"), "pid": num(1240), "old_pid": num(1240)})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_process_exit"), map[string]core.Field{
		"comm": str("ls"), "pid": num(1240), "prio": num(120)})
	checkFields(t, event(t, "tracefs-trace.txt", "sched_process_free"), map[string]core.Field{
		"comm": str("ls"), "pid": num(1240), "context.comm": str("rcu_sched")})
	checkFields(t, event(t, "tracefs-trace.txt", "sys_enter"), map[string]core.Field{"NR": num(56)})
	checkFields(t, event(t, "tracefs-trace.txt", "sys_exit"), map[string]core.Field{"NR": num(56), "ret": num(1240)})
	checkFields(t, event(t, "tracefs-trace.txt", "sys_enter_openat"), map[string]core.Field{
		"dfd": num(0xffffff9c), "flags": num(0x80000), "mode": num(0)})
	checkFields(t, event(t, "tracefs-trace.txt", "sys_exit_openat"), map[string]core.Field{"ret": num(-2)})
	checkFields(t, event(t, "trace-cmd-report.txt", "sys_enter_openat"), map[string]core.Field{
		"dfd": num(0xffffff9c), "flags": num(0x80000)})
	checkFields(t, event(t, "trace-cmd-report.txt", "sys_exit_openat"), map[string]core.Field{"ret": num(3)})
	checkFields(t, event(t, "tracefs-trace.txt", "irq_handler_entry"), map[string]core.Field{
		"irq": num(24), "name": str("virtio0-input.0"), "cpu": num(0)})
	checkFields(t, event(t, "tracefs-trace.txt", "irq_handler_exit"), map[string]core.Field{"irq": num(24), "ret": str("handled")})
	for _, c := range []string{"softirq_raise", "softirq_entry", "softirq_exit"} {
		checkFields(t, event(t, "tracefs-trace.txt", c), map[string]core.Field{"vec": num(3), "action": str("NET_RX")})
	}
	checkFields(t, event(t, "trace-cmd-report-latency.txt", "sys_enter_read"), map[string]core.Field{
		"fd": num(11), "count": num(0x4000), "context.comm": str("sshd"), "cpu": num(3)})
}

func TestGarbledLinesWarnAndTheRestIsRead(t *testing.T) {
	src, err := Open(filepath.Join(sampleDir, "garbled.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := 0
	var last core.Time
	for {
		ev, err := src.Next()
		if err != nil {
			break
		}
		if ev.Time < last {
			t.Errorf("time goes back: %d after %d", ev.Time, last)
		}
		last = ev.Time
		n++
	}
	if n != 4 {
		t.Errorf("read %d events, want 4", n)
	}
	kinds := map[string]int{}
	for _, w := range src.Warnings() {
		kinds[w.Kind]++
		if !strings.Contains(w.Message, "line ") {
			t.Errorf("warning %q does not name its line", w.Message)
		}
	}
	if kinds["skipped-line"] != 3 || kinds["time-order"] != 1 {
		t.Errorf("warnings = %+v, want 3 skipped lines and 1 time-order", src.Warnings())
	}
}

func TestNotFtraceIsAnError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(p, []byte("hello\nworld\n"), 0o644)
	if _, err := Open(p, Options{}); err == nil {
		t.Error("Open(junk) succeeded")
	}
	if ok, _ := Detect(p); ok {
		t.Error("Detect(junk) = true")
	}
	os.WriteFile(p, []byte(`[{"ph":"B","ts":1}]`), 0o644)
	if ok, _ := Detect(p); ok {
		t.Error("Detect(chrome json) = true")
	}
}

// TestSeekProperty takes checkpoints at random events of every sample
// and checks that Seek replays the same events; damaged checkpoints are
// refused.
func TestSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range samples {
		path := filepath.Join(sampleDir, name+".txt")
		sourcetest.SeekProperty(t, rng, func() (core.Source, error) { return Open(path, Options{}) }, 1<<20)
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		bad := src.Checkpoint(nil)
		bad[4] ^= 1
		if err := src.Seek(bad); !errors.Is(err, ErrBadCheckpoint) {
			t.Errorf("Seek(damaged) = %v", err)
		}
		if err := src.Seek([]byte("nope")); !errors.Is(err, ErrBadCheckpoint) {
			t.Errorf("Seek(junk) = %v", err)
		}
		src.Close()
	}
}
