package kernel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// stream builds events by hand. A class is created the first time its
// name is used, with the fields named in that first use, in order; later
// uses may give fewer fields (the others read as absent).
type stream struct {
	classes map[string]*core.EventClass
	events  []core.Event
	arch    string // names raw system calls (SetArch) when not ""
}

func newStream() *stream { return &stream{classes: map[string]*core.EventClass{}} }

// add appends an event: kv alternates field names and values (int, int64
// or string).
func (s *stream) add(t core.Time, cpu int32, name string, kv ...any) *stream {
	c, ok := s.classes[name]
	if !ok {
		c = &core.EventClass{ID: len(s.classes), Name: name}
		for i := 0; i < len(kv); i += 2 {
			c.Fields = append(c.Fields, kv[i].(string))
		}
		s.classes[name] = c
	}
	ev := core.Event{Time: t, CPU: cpu, Class: c, Fields: make([]core.Field, len(c.Fields))}
	for i := 0; i < len(kv); i += 2 {
		idx := c.FieldIndex(kv[i].(string))
		if idx < 0 {
			panic(fmt.Sprintf("event %s: field %s not in its class %v", name, kv[i], c.Fields))
		}
		switch v := kv[i+1].(type) {
		case int:
			ev.Fields[idx] = core.Field{Kind: core.FieldInt, Int: int64(v)}
		case int64:
			ev.Fields[idx] = core.Field{Kind: core.FieldInt, Int: v}
		case string:
			ev.Fields[idx] = core.Field{Kind: core.FieldString, Bytes: []byte(v)}
		default:
			panic(fmt.Sprintf("field %s: unsupported value %T", kv[i], v))
		}
	}
	s.events = append(s.events, ev)
	return s
}

// classList returns the classes by ID.
func (s *stream) classList() []*core.EventClass {
	out := make([]*core.EventClass, len(s.classes))
	for _, c := range s.classes {
		out[c.ID] = c
	}
	return out
}

// switchTo adds an LTTng 2.7 sched_switch.
func (s *stream) switchTo(t core.Time, cpu int32, prevComm string, prevTID, prevState int, nextComm string, nextTID int) *stream {
	return s.add(t, cpu, "sched_switch", "prev_comm", prevComm, "prev_tid", prevTID, "prev_prio", 20,
		"prev_state", prevState, "next_comm", nextComm, "next_tid", nextTID, "next_prio", 20)
}

// run feeds the stream to a kernel analysis over a MemHistory covering
// [0, end], closes it and checks that every attribute tiles [0, end].
func (s *stream) run(t *testing.T, layout *Layout, end core.Time) *core.MemHistory {
	t.Helper()
	h := core.NewMemHistory(0)
	a := New(h, layout)
	if s.arch != "" {
		if err := a.SetArch(s.arch); err != nil {
			t.Fatal(err)
		}
	}
	for i := range s.events {
		ev := s.events[i] // the analysis must not keep it
		if err := a.Handle(&ev); err != nil {
			t.Fatalf("event %d (%s at %d): %v", i, ev.Class.Name, ev.Time, err)
		}
		checkMirrors(t, a, h)
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

// checkMirrors verifies that what the analysis mirrors of the state
// equals what the sink holds.
func checkMirrors(t *testing.T, a *Analysis, h *core.MemHistory) {
	t.Helper()
	for i := range a.threads.n {
		th := a.threads.at(i)
		if got, want := h.Value(th.key), statusValue(th.status); got != want {
			t.Fatalf("%s: sink %v, mirror %v", h.Attributes().Path(th.key), got, want)
		}
		for s := range numSubs {
			known := th.known&(1<<s) != 0
			if th.sub[s] < 0 {
				if known {
					t.Fatalf("%s/%s known without a key", h.Attributes().Path(th.key), subNames[s])
				}
				continue
			}
			v := h.Value(th.sub[s])
			if v.IsNull() == known {
				t.Fatalf("%s: sink %v, mirror known=%v", h.Attributes().Path(th.sub[s]), v, known)
			}
			switch s {
			case subExecName:
			case subSyscall:
				if want := core.Null(); th.sys >= 0 && v != a.sysNames[th.sys] || th.sys < 0 && v != want {
					t.Fatalf("%s: sink %v, mirror sys %d", h.Attributes().Path(th.sub[s]), v, th.sys)
				}
			default:
				if known && v != core.Int32(th.num[s]) {
					t.Fatalf("%s: sink %v, mirror %d", h.Attributes().Path(th.sub[s]), v, th.num[s])
				}
			}
		}
	}
	for _, c := range a.cpus {
		if c == nil {
			continue
		}
		if c.key >= 0 || c.status != statusNull {
			if got, want := h.Value(c.key), statusValue(c.status); got != want {
				t.Fatalf("CPU %d: sink %v, mirror %v", c.num, got, want)
			}
		}
		active := 0
		for _, q := range c.irqs {
			if q.active {
				active++
			}
			if want := map[bool]core.Value{true: core.Int32(int32(core.CPUStatusIRQ)), false: core.Null()}[q.active]; h.Value(q.key) != want {
				t.Fatalf("%s: sink %v, mirror active=%v", h.Attributes().Path(q.key), h.Value(q.key), q.active)
			}
		}
		running := 0
		for _, s := range c.softs {
			if s.state == int8(core.CPUStatusSoftIRQ) {
				running++
			}
			if h.Value(s.key) != statusValue(s.state) {
				t.Fatalf("%s: sink %v, mirror %d", h.Attributes().Path(s.key), h.Value(s.key), s.state)
			}
		}
		if active != int(c.irqActive) || running != int(c.softRunning) {
			t.Fatalf("CPU %d: %d IRQs / %d soft IRQs running, counters say %d / %d", c.num, active, running, c.irqActive, c.softRunning)
		}
	}
}

func statusValue(s int8) core.Value {
	if s == statusNull {
		return core.Null()
	}
	return core.Int32(int32(s))
}

// want lists, per attribute path, its intervals as "[start,end] value",
// value being "null", a number or a quoted string.
type want map[string][]string

// check compares the listed attributes' intervals with h's.
func (w want) check(t *testing.T, h *core.MemHistory) {
	t.Helper()
	for path, exp := range w {
		got := intervalsOf(t, h, path)
		if strings.Join(got, " ") != strings.Join(exp, " ") {
			t.Errorf("%s:\n got  %s\n want %s", path, strings.Join(got, " "), strings.Join(exp, " "))
		}
	}
}

// intervalsOf formats the intervals of one attribute.
func intervalsOf(t *testing.T, h *core.MemHistory, path string) []string {
	t.Helper()
	k, ok := h.Attributes().Lookup(path)
	if !ok {
		return []string{"<absent>"}
	}
	var out []string
	for _, iv := range h.Intervals() {
		if iv.Key != k {
			continue
		}
		v := iv.Value.String()
		if iv.Value.Kind() == core.KindString {
			v = fmt.Sprintf("%q", v)
		}
		out = append(out, fmt.Sprintf("[%d,%d] %s", iv.Start, iv.End, v))
	}
	return out
}

// absent fails unless none of the paths exists.
func absent(t *testing.T, h *core.MemHistory, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, ok := h.Attributes().Lookup(p); ok {
			t.Errorf("%s exists; want it never created (no value known): %v", p, intervalsOf(t, h, p))
		}
	}
}

// valueAt returns the value of path at time ts (null when absent).
func valueAt(t testing.TB, h core.History, path string, ts core.Time) core.Value {
	t.Helper()
	k, ok := h.Attributes().Lookup(path)
	if !ok {
		return core.Null()
	}
	iv, _, err := h.Single(context.Background(), k, ts)
	if err != nil {
		t.Fatalf("%s at %d: %v", path, ts, err)
	}
	return iv.Value
}

// Short names for status values in expectations.
const (
	tUnknown = "0"
	tBlocked = "1"
	tUser    = "2"
	tSyscall = "3"
	tIntr    = "4"
	tWaitCPU = "5"
	tWaitUnk = "6"

	cIdle    = "0"
	cUser    = "1"
	cSyscall = "2"
	cIRQ     = "3"
	cSoft    = "4"
	cRaised  = "5"
)

// iv formats one expected interval.
func iv(start, end int, v string) string { return fmt.Sprintf("[%d,%d] %s", start, end, v) }

// str formats an expected string value.
func str(s string) string { return fmt.Sprintf("%q", s) }
