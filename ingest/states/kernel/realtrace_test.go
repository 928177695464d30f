package kernel

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/states/callstack"
)

// decodeAll reads every event of a real CTF trace with the ctf reader,
// copied (the reader reuses its event), with the trace's description.
func decodeAll(tb testing.TB, dir string) ([]core.Event, core.SourceInfo, []*core.EventClass) {
	tb.Helper()
	src, err := ctf.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	events := copyEvents(tb, src)
	if len(events) == 0 {
		tb.Fatal("no events")
	}
	return events, src.Info(), src.Classes()
}

// analyzeTrace runs the kernel analysis over a real CTF trace read by the
// ctf reader, into a MemHistory over [first event, last event], and checks
// that every attribute tiles that range.
func analyzeTrace(t *testing.T, dir string, wantLayout *Layout) *core.MemHistory {
	t.Helper()
	events, info, classes := decodeAll(t, dir)
	layout := Detect(info, classes)
	if layout != wantLayout {
		t.Fatalf("Detect = %v, want %v", layout, wantLayout)
	}
	start, end := events[0].Time, events[len(events)-1].Time
	h := core.NewMemHistory(start)
	a := New(h, layout)
	for i := range events {
		if err := a.Handle(&events[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(end); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(end); err != nil {
		t.Fatal(err)
	}
	coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), start, end)
	t.Logf("%s: %d events, %d attributes, %d intervals", filepath.Base(dir), len(events), h.Attributes().Len(), len(h.Intervals()))
	return h
}

// stateCheck is one expected value, with the events it is derived from.
type stateCheck struct {
	at   string // seconds.nanoseconds, as babeltrace2 --clock-seconds prints
	path string
	want core.Value
}

func runChecks(t *testing.T, h *core.MemHistory, checks []stateCheck) {
	t.Helper()
	for _, c := range checks {
		ts, err := core.ParseTime(c.at, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := valueAt(t, h, c.path, ts); got != c.want {
			t.Errorf("%s at %s = %v, want %v", c.path, c.at, got, c.want)
		}
	}
}

func status(s core.ThreadStatus) core.Value { return core.Int32(int32(s)) }
func cpuStatus(s core.CPUStatus) core.Value { return core.Int32(int32(s)) }

// bug446190: lttng-modules 2.5 on a 4-core ARM board (sys_*/exit_syscall
// names). Every expected value below is derived by hand from
// `babeltrace2 --clock-seconds --no-delta bug446190`; the events used are
// quoted (times are seconds since the epoch, 1412670963.xxx).
func TestRealTraceBug446190(t *testing.T) {
	h := analyzeTrace(t, filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190"), LayoutLTTng20)
	const s = "1412670963."
	runChecks(t, h, []stateCheck{
		// Thread 525, the `ls` started by shell 407:
		// .200672539 CPU1 sys_clone (407 is current on CPU 1)
		// .201136339 CPU1 sched_process_fork parent_tid=407 child_tid=525 child_pid=525
		// .201144739 CPU1 sched_wakeup_new tid=525 target_cpu=2
		// .201164139 CPU2 sched_switch swapper/2 -> sh 525
		// => forked: waits for a CPU until switched in, then runs inside
		// the clone() it inherited from its parent.
		{s + "201150000", "Threads/525", status(core.ThreadWaitCPU)},
		{s + "201150000", "Threads/525/PPID", core.Int32(407)},
		{s + "201150000", "Threads/525/PID", core.Int32(525)},
		{s + "201150000", "Threads/525/Exec_name", core.String("sh")},
		{s + "201200000", "Threads/525", status(core.ThreadRunSyscall)},
		{s + "201200000", "Threads/525/System_call", core.String("clone")},
		{s + "201200000", "CPUs/2/Current_thread", core.Int32(525)},
		// .201308639 CPU2 sys_rt_sigprocmask; .201312539 exit_syscall
		{s + "201310000", "Threads/525/System_call", core.String("rt_sigprocmask")},
		{s + "201310000", "CPUs/2", cpuStatus(core.CPURunSyscall)},
		{s + "201320000", "Threads/525", status(core.ThreadRunUser)},
		{s + "201320000", "Threads/525/System_call", core.Null()},
		{s + "201320000", "CPUs/2", cpuStatus(core.CPURunUser)},
		// .201459139 sys_read; .201482439 sched_switch prev_tid=525
		// prev_state=1 (TASK_INTERRUPTIBLE) -> swapper/2: blocked in read,
		// off the run queue, CPU 2 idle.
		{s + "201490000", "Threads/525", status(core.ThreadWaitBlocked)},
		{s + "201490000", "Threads/525/Current_cpu_rq", core.Null()},
		{s + "201490000", "CPUs/2", cpuStatus(core.CPUIdle)},
		{s + "201490000", "CPUs/2/Current_thread", core.Int32(0)},
		// .201496339 CPU1 sched_wakeup tid=525 target_cpu=2
		{s + "201500000", "Threads/525", status(core.ThreadWaitCPU)},
		{s + "201500000", "Threads/525/Current_cpu_rq", core.Int32(2)},
		// .201503739 CPU2 sched_switch -> 525, still inside read();
		// .201508339 exit_syscall
		{s + "201505000", "Threads/525", status(core.ThreadRunSyscall)},
		{s + "201505000", "Threads/525/System_call", core.String("read")},
		// .202029039 CPU2 sched_switch prev_tid=525 prev_state=1024
		// (preempted by migration/2); .202040339 sched_migrate_task
		// dest_cpu=3; .202062539 CPU3 sched_switch -> 525
		{s + "202035000", "Threads/525", status(core.ThreadWaitCPU)},
		{s + "202035000", "Threads/525/Current_cpu_rq", core.Int32(2)},
		{s + "202050000", "Threads/525/Current_cpu_rq", core.Int32(3)},
		// migration/2 (tid 15, prio -100) runs on CPU 2 from .202029039
		// to .202057439 (sched_switch prev_tid=15 -> swapper/2).
		{s + "202050000", "CPUs/2/Current_thread", core.Int32(15)},
		{s + "202060000", "CPUs/2/Current_thread", core.Int32(0)},
		{s + "202060000", "Threads/15", status(core.ThreadWaitBlocked)},
		// .202719339 CPU3 irq_handler_entry irq=27; .202746539 exit
		{s + "202720000", "Threads/525", status(core.ThreadInterrupted)},
		{s + "202720000", "CPUs/3", cpuStatus(core.CPUStatusIRQ)},
		{s + "202720000", "CPUs/3/IRQs/27", cpuStatus(core.CPUStatusIRQ)},
		{s + "202731000", "CPUs/3/Soft_IRQs/1", cpuStatus(core.CPUStatusSoftIRQRaised)}, // .202730639 softirq_raise vec=1
		// .202927839 CPU3 sched_process_exec filename="/bin/ls"
		{s + "202900000", "Threads/525/Exec_name", core.String("sh")},
		{s + "203000000", "Threads/525/Exec_name", core.String("ls")},
		// .206285339 sched_process_exit; .206368039 sched_switch
		// prev_tid=525 prev_state=64 (TASK_DEAD): status null.
		{s + "206400000", "Threads/525", core.Null()},
		{s + "206400000", "Threads/525/Exec_name", core.String("ls")},
		// .252763239 CPU1 sched_process_free tid=525: everything null.
		{s + "252800000", "Threads/525/Exec_name", core.Null()},
		{s + "252800000", "Threads/525/PPID", core.Null()},
		{s + "252800000", "Threads/525/PID", core.Null()},
		// Statedump (1412670961.238xxx), status 5 = LTTNG_WAIT -> wait unknown:
		// tid=1 "systemd" pid=1 ppid=0: a process leader, PPID = ppid.
		{s + "000000000", "Threads/1", status(core.ThreadWaitUnknown)},
		{s + "000000000", "Threads/1/Exec_name", core.String("systemd")},
		{s + "000000000", "Threads/1/PPID", core.Int32(0)},
		// 1412670966.344176339 sched_wakeup tid=1; .344192539 CPU0
		// sched_switch -> 1; .344615939 sched_switch prev_tid=1 prev_state=1
		{"1412670966.344180000", "Threads/1", status(core.ThreadWaitCPU)},
		{"1412670966.344200000", "Threads/1", status(core.ThreadRunUser)},
		{"1412670966.344620000", "Threads/1", status(core.ThreadWaitBlocked)},
		// tid=272 pid=271 ppid=1 "dlt_receiver": a thread of 271, so its
		// PPID is its process 271; never scheduled in the trace.
		{s + "000000000", "Threads/272", status(core.ThreadWaitUnknown)},
		{s + "000000000", "Threads/272/PPID", core.Int32(271)},
		{s + "000000000", "Threads/272/PID", core.Int32(271)},
		// tid=23 "migration/4" status=0 (unnamed): unknown.
		{s + "000000000", "Threads/23", status(core.ThreadUnknown)},
	})
}

// perf-taskset2: perf data converted to CTF (sched events only; no
// system calls, so running threads are in user mode). Derived from
// `babeltrace2 --clock-seconds --no-delta perf-taskset2` (979.xxx).
func TestRealTracePerfTaskset(t *testing.T) {
	h := analyzeTrace(t, filepath.Join(coretest.SharedTraces(t), "ctf", "perf-taskset2"), LayoutPerf)
	runChecks(t, h, []stateCheck{
		// .417057183 CPU0 sched:sched_wakeup pid=1834 target_cpu=0
		{"979.417060000", "Threads/1834", status(core.ThreadWaitCPU)},
		{"979.417060000", "Threads/1834/Exec_name", core.String("perf")},
		{"979.417060000", "Threads/1834/Prio", core.Int32(120)},
		// .417073483 CPU0 sched_switch swapper/0 -> perf 1834
		{"979.417100000", "Threads/1834", status(core.ThreadRunUser)},
		{"979.417100000", "CPUs/0", cpuStatus(core.CPURunUser)},
		// .417214550 CPU3 sched_stat_runtime with perf_tid=1832: CPU 3's
		// running thread is known before any switch there, its mode not.
		{"979.417220000", "CPUs/3/Current_thread", core.Int32(1832)},
		{"979.417220000", "CPUs/3", core.Null()},
		{"979.417220000", "Threads/1832/PID", core.Int32(1832)}, // perf_pid
		// .417230217 CPU3 sched_switch prev_pid=1832 prev_state=1 -> swapper/3
		{"979.417300000", "Threads/1832", status(core.ThreadWaitBlocked)},
		{"979.417300000", "CPUs/3", cpuStatus(core.CPUIdle)},
		// .417429517 CPU0 sched_switch prev_pid=1834 prev_state=130
		// (TASK_WAKEKILL|TASK_UNINTERRUPTIBLE): blocked, off run queues.
		{"979.417500000", "Threads/1834", status(core.ThreadWaitBlocked)},
		{"979.417500000", "Threads/1834/Current_cpu_rq", core.Null()},
		// .418124517 sched_migrate_task pid=1834 dest_cpu=3 (still asleep)
		{"979.418125000", "Threads/1834", status(core.ThreadWaitBlocked)},
		{"979.418125000", "Threads/1834/Current_cpu_rq", core.Int32(3)},
		// .419697383 CPU3 sched_switch prev_pid=1834 prev_state=1024
		// (TASK_STATE_MAX on 3.10: preempted) -> migration/3 19;
		// .419707883 sched_migrate_task dest_cpu=0
		{"979.419700000", "Threads/1834", status(core.ThreadWaitCPU)},
		{"979.419700000", "Threads/1834/Current_cpu_rq", core.Int32(3)},
		{"979.419700000", "CPUs/3/Current_thread", core.Int32(19)},
		{"979.419710000", "Threads/1834/Current_cpu_rq", core.Int32(0)},
		// .437530450 sched_process_exec filename="/bin/ls"; last events:
		// .475375650 sched_wakeup pid=1832; .475381350 CPU3 sched_switch
		// prev_pid=1834 prev_state=1024 -> perf 1832.
		{"979.474000000", "Threads/1834/Exec_name", core.String("ls")},
		{"979.475381350", "Threads/1834", status(core.ThreadWaitCPU)},
		{"979.475381350", "Threads/1832", status(core.ThreadRunUser)},
		{"979.475381350", "CPUs/3/Current_thread", core.Int32(1832)},
	})
}

// analysis is ingest.Analysis, restated: the ingest package (the
// pipeline) imports this one, so its tests cannot import ingest.
type analysis interface {
	Handle(ev *core.Event) error
	Finish(end core.Time) error
}

// Every shared trace, run through the analyses that detect it (kernel,
// and call stacks with the kernel's status kept when both apply, as the
// pipeline will), yields attributes that tile the trace exactly.
func TestRealTracesTile(t *testing.T) {
	root := filepath.Join(coretest.SharedTraces(t), "ctf")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			src, err := ctf.Open(filepath.Join(root, d.Name()))
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			h := core.NewMemHistory(0)
			var analyses []analysis
			layout := Detect(src.Info(), src.Classes())
			if layout != nil {
				analyses = append(analyses, New(h, layout))
			}
			if callstack.Detect(src.Info(), src.Classes()) {
				var opts []callstack.Option
				if layout != nil {
					opts = append(opts, callstack.WithKernel())
				}
				analyses = append(analyses, callstack.New(h, opts...))
			}
			if len(analyses) == 0 {
				t.Skipf("no analysis applies (domain %q)", src.Info().Domain)
			}
			var last core.Time
			for {
				ev, err := src.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range analyses {
					if err := a.Handle(ev); err != nil {
						t.Fatal(err)
					}
				}
				last = ev.Time
			}
			for _, a := range analyses {
				if err := a.Finish(last); err != nil {
					t.Fatal(err)
				}
			}
			if err := h.Close(last); err != nil {
				t.Fatal(err)
			}
			coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), 0, last)
			t.Logf("layout %v, %d attributes, %d intervals", layout, h.Attributes().Len(), len(h.Intervals()))
		})
	}
}

// BenchmarkRealTraceAnalysis runs a fresh kernel analysis over the events
// of bug446190 and perf-taskset2, decoded once beforehand: the analysis's
// own cost on real event mixes, attribute creation included (ns/event).
func BenchmarkRealTraceAnalysis(b *testing.B) {
	for _, name := range []string{"bug446190", "perf-taskset2"} {
		b.Run(name, func(b *testing.B) {
			events, info, classes := decodeAll(b, filepath.Join(coretest.SharedTraces(b), "ctf", name))
			layout := Detect(info, classes)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				a := New(&currentSink{tree: core.NewAttributeTree()}, layout)
				for j := range events {
					if err := a.Handle(&events[j]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
		})
	}
}
