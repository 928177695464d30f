package callstack

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// Class layouts as LTTng-UST writes them: stream context first.
var (
	cygEntry  = &core.EventClass{ID: 0, Name: "lttng_ust_cyg_profile:func_entry", Fields: []string{"context.vpid", "context.vtid", "context.procname", "addr", "call_site"}}
	cygExit   = &core.EventClass{ID: 1, Name: "lttng_ust_cyg_profile:func_exit", Fields: []string{"context.vpid", "context.vtid", "context.procname", "addr", "call_site"}}
	fastEntry = &core.EventClass{ID: 2, Name: "lttng_ust_cyg_profile_fast:func_entry", Fields: []string{"context.vtid", "addr"}}
	fastExit  = &core.EventClass{ID: 3, Name: "lttng_ust_cyg_profile_fast:func_exit", Fields: []string{"context.vtid"}}
	reqEntry  = &core.EventClass{ID: 4, Name: "myapp:request_entry", Fields: []string{"context.vtid", "id"}}
	reqExit   = &core.EventClass{ID: 5, Name: "myapp:request_exit", Fields: []string{"context.vtid", "id"}}
	other     = &core.EventClass{ID: 6, Name: "myapp:tick", Fields: []string{"context.vtid"}}
	noThread  = &core.EventClass{ID: 7, Name: "myapp:parse_entry", Fields: []string{"id"}}
)

func num(v int64) core.Field { return core.Field{Kind: core.FieldInt, Int: v} }

// cyg builds a cyg-profile event of process 10 named "app".
func cyg(t core.Time, c *core.EventClass, tid, addr int64) core.Event {
	return core.Event{Time: t, CPU: 0, Class: c, Fields: []core.Field{
		num(10), num(tid), {Kind: core.FieldString, Bytes: []byte("app")}, {Kind: core.FieldUint, Int: addr}, num(0)}}
}

// ev builds an event whose first field is the thread.
func ev(t core.Time, c *core.EventClass, tid int64, more ...core.Field) core.Event {
	return core.Event{Time: t, CPU: 0, Class: c, Fields: append([]core.Field{num(tid)}, more...)}
}

func run(t *testing.T, events []core.Event, end core.Time, opts ...Option) *core.MemHistory {
	t.Helper()
	h := core.NewMemHistory(0)
	a := New(h, opts...)
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
	coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), 0, end)
	return h
}

// states formats an attribute's intervals as "[start,end] value ...".
func states(h *core.MemHistory, path string) string {
	k, ok := h.Attributes().Lookup(path)
	if !ok {
		return "<absent>"
	}
	var out []string
	for _, iv := range h.Intervals() {
		if iv.Key == k {
			out = append(out, fmt.Sprintf("[%d,%d] %s", iv.Start, iv.End, iv.Value))
		}
	}
	return strings.Join(out, " ")
}

func expect(t *testing.T, h *core.MemHistory, want map[string]string) {
	t.Helper()
	for path, w := range want {
		if got := states(h, path); got != w {
			t.Errorf("%s:\n got  %s\n want %s", path, got, w)
		}
	}
}

// main calls f, which calls g; f returns, main calls g; the trace
// starts inside a call (the first exit is ignored) and ends inside main.
func TestCygProfileUserSpace(t *testing.T) {
	events := []core.Event{
		cyg(5, cygExit, 7, 0x999),
		cyg(10, cygEntry, 7, 0x40472b),
		cyg(20, cygEntry, 7, 0x401b23),
		cyg(30, cygEntry, 7, 0x403b14),
		cyg(40, cygExit, 7, 0x403b14),
		cyg(50, cygExit, 7, 0x401b23),
		cyg(60, cygEntry, 7, 0x403b14),
		cyg(70, cygExit, 7, 0x403b14),
		cyg(80, cygEntry, 8, 0x401b23),
		cyg(90, cygExit, 8, 0x401b23),
	}
	h := run(t, events, 100)
	expect(t, h, map[string]string{
		"Threads/7/CallStack/1": "[0,9] null [10,100] " + fmt.Sprint(0x40472b),
		"Threads/7/CallStack/2": "[0,19] null [20,49] " + fmt.Sprint(0x401b23) + " [50,59] null [60,69] " + fmt.Sprint(0x403b14) + " [70,100] null",
		"Threads/7/CallStack/3": "[0,29] null [30,39] " + fmt.Sprint(0x403b14) + " [40,100] null",
		"Threads/7":             "[0,9] null [10,100] 0x40472b",
		"Threads/7/Exec_name":   "[0,4] null [5,100] app",
		"Threads/7/PID":         "[0,4] null [5,100] 10",
		"Threads/8":             "[0,79] null [80,89] 0x401b23 [90,100] null",
	})
	if k, _ := h.Attributes().Lookup("Threads/7/CallStack/1"); h.Value(k).Kind() != core.KindInt64 {
		t.Errorf("frame value kind %v, want int64 (the address)", h.Value(k).Kind())
	}
	if _, ok := h.Attributes().Lookup("Threads/7/CallStack/4"); ok {
		t.Error("CallStack/4 created by an exit on an empty stack")
	}
}

// With a kernel analysis, the thread's own value and Exec_name are the
// kernel's; the fast variant has no call_site; symbols name the label.
func TestCygProfileWithKernelAndFast(t *testing.T) {
	events := []core.Event{
		ev(10, fastEntry, 7, num(0x40472b)),
		ev(20, fastExit, 7),
	}
	h := run(t, events, 30, WithKernel())
	expect(t, h, map[string]string{
		"Threads/7/CallStack/1": "[0,9] null [10,19] " + fmt.Sprint(0x40472b) + " [20,30] null",
		"Threads/7":             "[0,30] null",
		"Threads/7/Exec_name":   "<absent>",
	})
	syms, err := ReadSymbols(strings.NewReader("000000000040472b T main\n0000000000401b23 t gear\n"))
	if err != nil {
		t.Fatal(err)
	}
	h = run(t, []core.Event{ev(10, fastEntry, 7, num(0x40472b)), ev(20, fastEntry, 8, num(0x401b30))}, 30, WithSymbols(syms))
	expect(t, h, map[string]string{
		"Threads/7": "[0,9] null [10,30] main",
		"Threads/8": "[0,19] null [20,30] gear+0xd",
	})
}

// Named pairs push their name; other events and events without a thread
// are ignored.
func TestNamedPairs(t *testing.T) {
	events := []core.Event{
		ev(10, reqEntry, 3, num(1)),
		ev(15, other, 3),
		ev(20, reqEntry, 3, num(2)),
		ev(30, reqExit, 3, num(2)),
		{Time: 35, CPU: 0, Class: noThread, Fields: []core.Field{num(1)}},
		ev(40, reqExit, 3, num(1)),
		ev(45, reqExit, 3, num(0)),
	}
	h := run(t, events, 50)
	expect(t, h, map[string]string{
		"Threads/3/CallStack/1": "[0,9] null [10,39] request [40,50] null",
		"Threads/3/CallStack/2": "[0,19] null [20,29] request [30,50] null",
		"Threads/3":             "[0,9] null [10,39] request [40,50] null",
	})
}

// Frames beyond the maximum depth are counted, not stored.
func TestMaxDepth(t *testing.T) {
	var events []core.Event
	for i := range 5 {
		events = append(events, ev(core.Time(10+i), fastEntry, 1, num(int64(0x1000+i))))
	}
	for i := range 5 {
		events = append(events, ev(core.Time(20+i), fastExit, 1))
	}
	h := run(t, events, 30, WithMaxDepth(3))
	expect(t, h, map[string]string{
		"Threads/1/CallStack/3": "[0,11] null [12,21] " + fmt.Sprint(0x1002) + " [22,30] null",
		"Threads/1/CallStack/4": "<absent>",
		"Threads/1/CallStack/1": "[0,9] null [10,23] " + fmt.Sprint(0x1000) + " [24,30] null",
	})
}

// Random push/pop sequences on several threads against a plain stack per
// thread, checked at every event time.
func TestRandomStacks(t *testing.T) {
	rng := coretest.Rand(t)
	for range 50 {
		type check struct {
			t     core.Time
			tid   int64
			stack []int64
		}
		stacks := map[int64][]int64{}
		var events []core.Event
		var checks []check
		now := core.Time(0)
		for range 200 {
			now += core.Time(1 + rng.IntN(3))
			tid := int64(1 + rng.IntN(3))
			if rng.IntN(2) == 0 {
				addr := int64(rng.IntN(8))
				events = append(events, ev(now, fastEntry, tid, num(addr)))
				stacks[tid] = append(stacks[tid], addr)
			} else {
				events = append(events, ev(now, fastExit, tid))
				if n := len(stacks[tid]); n > 0 {
					stacks[tid] = stacks[tid][:n-1]
				}
			}
			checks = append(checks, check{now, tid, append([]int64(nil), stacks[tid]...)})
		}
		h := run(t, events, now+1, WithKernel())
		for _, c := range checks {
			for d := 1; d <= len(c.stack)+1; d++ {
				path := fmt.Sprintf("Threads/%d/CallStack/%d", c.tid, d)
				got := core.Null()
				if k, ok := h.Attributes().Lookup(path); ok {
					for _, iv := range h.Intervals() {
						if iv.Key == k && iv.Contains(c.t) {
							got = iv.Value
						}
					}
				}
				want := core.Null()
				if d <= len(c.stack) {
					want = core.Int64(c.stack[d-1])
				}
				if got != want {
					t.Fatalf("%s at %d = %v, want %v (stack %v)", path, c.t, got, want, c.stack)
				}
			}
		}
	}
}

func TestDetect(t *testing.T) {
	if !Detect(core.SourceInfo{}, []*core.EventClass{other, cygEntry}) {
		t.Error("cyg-profile trace not detected")
	}
	if Detect(core.SourceInfo{}, []*core.EventClass{other, noThread}) {
		t.Error("entry event without a thread context detected")
	}
	kernelish := &core.EventClass{Name: "syscall_entry_read", Fields: []string{"fd"}}
	if Detect(core.SourceInfo{}, []*core.EventClass{kernelish}) {
		t.Error("kernel syscall event taken for a call stack event")
	}
}

func TestSymbols(t *testing.T) {
	s, err := ReadSymbols(strings.NewReader(strings.Join([]string{
		"00000000006062cc b angle",
		"                 U cos@@GLIBC_2.2.5",
		"0000000000401aac t current_time",
		"000000000040472b T main",
		"garbage line",
		"zzzz T bad_address",
		"0000000000401b23 t gear",
	}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 3 {
		t.Fatalf("%d symbols, want 3 code symbols", s.Len())
	}
	for _, tc := range []struct {
		addr uint64
		want string
		ok   bool
	}{
		{0x401aac, "current_time", true},
		{0x401b22, "current_time+0x76", true},
		{0x401b23, "gear", true},
		{0x40472b, "main", true},
		{0x400000, "", false},
	} {
		got, ok := s.Name(tc.addr)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Name(%#x) = %q, %v; want %q, %v", tc.addr, got, ok, tc.want, tc.ok)
		}
	}
}
